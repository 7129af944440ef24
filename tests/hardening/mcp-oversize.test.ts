import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MCP_MESSAGE } from '../../src/cli/mcp-stdio-transport';
import { CLI } from '../mcp/cli-path';
import { waitFor } from '../support/wait-for';

// D11: one stdio message over 10 MB to a real `deskpilot mcp` got no answer and the process
// never exited (the SDK's transport stopped reading). Now it answers with a JSON-RPC error,
// drops the message without buffering it, and serves the next one.

interface RpcLine {
  id?: number | string | null;
  result?: unknown;
  error?: { code: number; message: string };
}

function residentBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) * 1024;
}

describe('deskpilot mcp over stdio with a message over the limit (D11)', () => {
  let dir: string;
  let child: ChildProcess;
  const lines: RpcLine[] = [];
  let stderr = '';
  let exited: Promise<number | string>;

  /** Writes, waiting for the pipe to drain (an 80 MB line is written as it is read). */
  const write = (data: string | Buffer) => new Promise<void>((resolve) => (child.stdin!.write(data) ? resolve() : child.stdin!.once('drain', resolve)));
  const answerTo = (id: number | null) => waitFor(`an answer to ${id} (stderr: ${stderr})`, () => lines.find((l) => l.id === id));

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-mcp-big-'));
    const env: NodeJS.ProcessEnv = { ...process.env, DESKPILOT_CONFIG_DIR: dir };
    delete env.DISPLAY;
    delete env.XDG_RUNTIME_DIR;
    child = spawn(process.execPath, [CLI, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code ?? -1)));
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      let nl: number;
      while ((nl = out.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(out.slice(0, nl)) as RpcLine);
        out = out.slice(nl + 1);
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const init = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'deskpilot-tests', version: '1' } };
    await write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: init }) + '\n');
    await answerTo(1);
    await write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  });

  afterAll(async () => {
    child.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a message over the limit with a JSON-RPC error, keeps memory bounded, and serves the next request', async () => {
    // A first tools/list loads what listing tools needs, so `before` is read warm: what grows
    // after it is the oversized message's doing (it would hold the 80 MB line if it buffered it).
    await write(JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'tools/list' }) + '\n');
    await answerTo(10);
    const before = residentBytes(child.pid!);
    // Eight times the limit, in one line: a call whose arguments are far too big. The chunks read
    // and dropped are garbage until a collection, which Node starts after some tens of MB of such
    // buffers (32-35 MB seen), however long the line: so the line is made long enough that
    // holding it would stand clearly above that.
    const head = Buffer.from('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"open_url","arguments":{"url":"http://x/');
    const block = Buffer.alloc(1024 * 1024, 'a');
    await write(head);
    for (let i = 0; i < 8 * (MAX_MCP_MESSAGE / block.length); i++) await write(block);
    await write('"}}}\n');
    const refused = await answerTo(null);
    expect(refused.error?.code).toBe(-32600);
    expect(refused.error?.message).toContain(`longer than ${MAX_MCP_MESSAGE} bytes`);
    // The next request is answered, and the dropped one never is.
    await write(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }) + '\n');
    const listed = await answerTo(3);
    expect((listed.result as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
    expect(lines.some((l) => l.id === 2)).toBe(false);
    expect(residentBytes(child.pid!) - before).toBeLessThan(6 * MAX_MCP_MESSAGE);
  });

  it('answers a line that is not JSON with a parse error and goes on', async () => {
    await write('this is not json\n');
    await waitFor('a parse error', () => lines.find((l) => l.error?.code === -32700));
    await write(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' }) + '\n');
    expect((await answerTo(4)).result).toEqual({});
  });

  it('exits cleanly when its stdin closes', async () => {
    child.stdin!.end();
    expect(await exited).toBe(0);
  });
});
