import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devtoolsGet } from './devtools-get';

// devtoolsGet against a real HTTP server on 127.0.0.1 (no Chrome needed for these answers).

let server: http.Server;
let base: string;
const hung: http.ServerResponse[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/json/version') return void res.end(JSON.stringify({ webSocketDebuggerUrl: 'ws://127.0.0.1:1/devtools/browser/x' }));
    if (req.url === '/moved') return void res.writeHead(301, { location: '/json/version' }).end();
    if (req.url === '/huge') return void res.end(Buffer.alloc((1 << 20) + 10, 'a'));
    if (req.url === '/never') return void hung.push(res);
    res.writeHead(404).end('no');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const r of hung) r.destroy();
  await new Promise((r) => server.close(r));
});

describe('devtoolsGet (real HTTP server)', () => {
  it('returns the status and the body', async () => {
    const r = await devtoolsGet(new URL('/json/version', base), 10_000);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ webSocketDebuggerUrl: 'ws://127.0.0.1:1/devtools/browser/x' });
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    expect((await devtoolsGet(new URL('/moved', base), 10_000)).status).toBe(301);
  });

  it('refuses a body larger than any DevTools answer', async () => {
    await expect(devtoolsGet(new URL('/huge', base), 10_000)).rejects.toThrow(/more than 1048576 bytes/);
  });

  it('fails with the socket error code when nothing listens', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    await expect(devtoolsGet(new URL(`http://127.0.0.1:${port}/json/version`), 10_000)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('gives up after the timeout with a TimeoutError', async () => {
    await expect(devtoolsGet(new URL('/never', base), 200)).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});
