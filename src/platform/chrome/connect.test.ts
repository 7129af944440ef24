import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectChrome } from './connect';
import { fakeResolver, rejectionOf } from './fake-resolver';

// A stand-in DevTools endpoint on 127.0.0.1 (a real HTTP server) whose /json/version names
// whatever websocket the test wants, and which records every request and upgrade it gets.

interface Endpoint {
  origin: string;
  port: number;
  seen: Array<{ kind: 'request' | 'upgrade'; url: string; host: string }>;
  close(): Promise<void>;
}

const servers: Endpoint[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function endpoint(wsUrl: (port: number) => string): Promise<Endpoint> {
  const seen: Endpoint['seen'] = [];
  let port = 0;
  const server = http.createServer((req, res) => {
    seen.push({ kind: 'request', url: req.url ?? '', host: req.headers.host ?? '' });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ Browser: 'Chrome/156', webSocketDebuggerUrl: wsUrl(port) }));
  });
  server.on('upgrade', (req, socket) => {
    seen.push({ kind: 'upgrade', url: req.url ?? '', host: req.headers.host ?? '' });
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  const e: Endpoint = {
    origin: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  servers.push(e);
  return e;
}

describe('connectChrome decides "this computer" by resolved address', () => {
  it('refuses a /json/version that points at ws://evil.localhost, before any websocket is opened (fake DNS: no such name)', async () => {
    const ep = await endpoint((port) => `ws://evil.localhost:${port}/devtools/browser/b1`);
    const err = await rejectionOf(connectChrome({ chromeUrl: ep.origin, userDataDirs: [], timeoutMs: 5000, lookup: fakeResolver({}) }));
    expect(err.message).toMatch(/^Refusing to connect to Chrome at ws:\/\/evil\.localhost:\d+\/devtools\/browser\/b1 because the name evil\.localhost does not resolve to an address on this computer/);
    expect(ep.seen).toEqual([{ kind: 'request', url: '/json/version', host: `127.0.0.1:${ep.port}` }]);
  });

  it.each([
    ['evil.localhost', {}],
    ['localhost.', { 'localhost.': ['192.0.2.44'] }],
  ])('refuses http://%s:<port> before any request when the name does not resolve to loopback only (fake DNS)', async (name, answers) => {
    const ep = await endpoint((port) => `ws://127.0.0.1:${port}/devtools/browser/b1`);
    const url = `http://${name}:${ep.port}`;
    const err = await rejectionOf(connectChrome({ chromeUrl: url, userDataDirs: [], timeoutMs: 5000, lookup: fakeResolver(answers) }));
    expect(err.message).toMatch(/^Refusing to connect to Chrome at http:\/\/.*localhost\.?:\d+ because/);
    expect(ep.seen).toEqual([]);
  });

  it('a name that resolves to loopback is reached by its address (fake DNS: evil.localhost → 127.0.0.1)', async () => {
    const ep = await endpoint((port) => `ws://evil.localhost:${port}/devtools/browser/b1`);
    const lookup = fakeResolver({ 'evil.localhost': ['127.0.0.1'] });
    // The stand-in drops the websocket: what matters is where DeskPilot connected, and with which Host.
    await rejectionOf(connectChrome({ chromeUrl: `http://evil.localhost:${ep.port}`, userDataDirs: [], timeoutMs: 5000, lookup }));
    expect(ep.seen).toEqual([
      { kind: 'request', url: '/json/version', host: `127.0.0.1:${ep.port}` },
      { kind: 'upgrade', url: '/devtools/browser/b1', host: `127.0.0.1:${ep.port}` },
    ]);
  });

  it('refuses a name that resolves to another computer (fake DNS), naming the address and the option', async () => {
    const ep = await endpoint((port) => `ws://127.0.0.1:${port}/devtools/browser/b1`);
    const lookup = fakeResolver({ localhost: ['127.0.0.1', '198.51.100.7'] });
    const err = await rejectionOf(connectChrome({ chromeUrl: `ws://localhost:${ep.port}/devtools/browser/b1`, userDataDirs: [], timeoutMs: 5000, lookup }));
    expect(err.message).toContain('localhost is not this computer (it resolves to 127.0.0.1, 198.51.100.7)');
    expect(err.message).toContain('--allow-remote-chrome');
    expect(ep.seen).toEqual([]);
  });
});
