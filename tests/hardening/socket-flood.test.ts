import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SERVICE_LINE } from '../../src/protocol/service-wire';
import { serviceHealth, spawnService, stopAllServices, type ServiceProcess } from '../service/service-process';

// D10: a client of the service socket that keeps sending one line past the line limit must be cut
// off, and the service's memory must stay bounded while it tries. A real service; the flooding
// client keeps its side open after the service's FIN (allowHalfOpen), as a careless client would.

/** The process's resident memory in bytes, from /proc. */
function residentBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) * 1024;
}

interface Flood {
  /** Resolves once the service closed the connection, with what was sent and what came back. */
  closed: Promise<{ sent: number; answer: string }>;
  sent(): number;
}

/** Streams one never-ending line until the service closes the connection or `cap` bytes are sent. */
function floodLine(socketPath: string, cap: number): Flood {
  const chunk = Buffer.alloc(256 * 1024, 'x');
  const socket = net.connect({ path: socketPath, allowHalfOpen: true });
  let sent = 0;
  let answer = '';
  socket.setEncoding('utf8').on('data', (d: string) => (answer += d));
  const closed = new Promise<{ sent: number; answer: string }>((resolve, reject) => {
    socket.on('error', () => undefined); // a reset from the service is how a cut-off may look
    socket.on('close', () => (sent >= cap ? reject(new Error(`the service never cut off a line of ${sent} bytes`)) : resolve({ sent, answer })));
  });
  const pump = () => {
    while (!socket.destroyed && socket.writable) {
      if (sent >= cap) {
        socket.destroy();
        return;
      }
      sent += chunk.length;
      if (!socket.write(chunk)) {
        socket.once('drain', pump);
        return;
      }
    }
  };
  socket.once('connect', pump);
  return { closed, sent: () => sent };
}

describe('the service cuts off a client that sends past the line limit (D10)', () => {
  let configDir: string;
  let svc: ServiceProcess;
  let socketPath: string;

  beforeAll(async () => {
    configDir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-flood-'));
    const env: NodeJS.ProcessEnv = { ...process.env, DESKPILOT_CONFIG_DIR: configDir };
    delete env.XDG_RUNTIME_DIR;
    delete env.DISPLAY;
    svc = spawnService(env);
    socketPath = await svc.listening;
  });

  afterAll(async () => {
    await stopAllServices();
    rmSync(configDir, { recursive: true, force: true });
  });

  it('closes the flooding connection, answers another client meanwhile, and its memory stays bounded', async () => {
    expect((await serviceHealth(socketPath))?.pid).toBe(svc.pid);
    const before = residentBytes(svc.pid);
    // Twenty times the limit is "never-ending" for this purpose: a service that reads on keeps buffering.
    const flood = floodLine(socketPath, 20 * MAX_SERVICE_LINE);
    const { sent, answer } = await flood.closed;
    expect(sent).toBeGreaterThan(MAX_SERVICE_LINE);
    expect(answer).toContain(`a line longer than ${MAX_SERVICE_LINE} bytes`);
    // Another client is served after the cut-off.
    expect((await serviceHealth(socketPath))?.pid).toBe(svc.pid);
    const after = residentBytes(svc.pid);
    expect(after - before).toBeLessThan(4 * MAX_SERVICE_LINE);
  });

  it('answers another client while one is still streaming a long line', async () => {
    const flood = floodLine(socketPath, 20 * MAX_SERVICE_LINE);
    // Wait until the flood is well under way (half the limit), then ask from a second client.
    await new Promise<void>((resolve) => {
      const check = () => (flood.sent() > MAX_SERVICE_LINE / 2 ? resolve() : setImmediate(check));
      check();
    });
    expect((await serviceHealth(socketPath))?.pid).toBe(svc.pid);
    await flood.closed;
  });
});
