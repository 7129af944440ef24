import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevtoolsGuard, refusalMessage } from './devtools-guard';

const own = () => ['192.168.7.20'];
const guard = new DevtoolsGuard({ browserWsUrl: 'ws://127.0.0.1:9222/devtools/browser/abc', interfaceAddresses: own, probe: async () => null });

describe('the DevTools endpoint in use, under every name that reaches it', () => {
  it.each([
    'http://127.0.0.1:9222/json/close/0C8F1058E3C00E5D19784A358E34C4C6',
    'http://localhost:9222/json/list',
    'http://LOCALHOST.:9222/',
    'http://evil.localhost:9222/json/list',
    'http://127.1:9222/json',
    'http://2130706433:9222/json/list',
    'http://0x7f000001:9222/json/list',
    'http://127.0.0.2:9222/json/list',
    'http://[::1]:9222/json/list',
    'http://[::ffff:127.0.0.1]:9222/json/list',
    'http://0.0.0.0:9222/json/list',
    'http://192.168.7.20:9222/json/list',
    'https://127.0.0.1:9222/json/list',
    'view-source:http://127.0.0.1:9222/json/list',
    'ws://127.0.0.1:9222/devtools/page/ABC',
    'ht\ttp://127.0.0.1:9222/json/list',
  ])('refuses %s', (url) => {
    expect(guard.endpointRefusal(url)).toEqual({ url, own: true });
  });

  it.each(['http://127.0.0.1:9223/json/list', 'https://example.com:9222/', 'http://192.168.7.21:9222/', 'file:///tmp/x', 'about:blank', 'not a url'])(
    'lets %s through',
    (url) => expect(guard.endpointRefusal(url)).toBeNull(),
  );

  it('a remote endpoint (allowed by the user) is refused by its own host and port only', () => {
    const remote = new DevtoolsGuard({ browserWsUrl: 'ws://10.0.0.5:9222/devtools/browser/x', interfaceAddresses: own });
    expect(remote.endpointRefusal('http://10.0.0.5:9222/json/list')).not.toBeNull();
    expect(remote.endpointRefusal('http://10.0.0.6:9222/json/list')).toBeNull();
    expect(remote.endpointRefusal('http://127.0.0.1:9222/')).toBeNull();
  });

  it('the configured name of the endpoint counts too', () => {
    const g = new DevtoolsGuard({ browserWsUrl: 'ws://10.0.0.5:9222/devtools/browser/x', otherNames: ['http://devbox:9333', undefined], interfaceAddresses: own });
    expect(g.endpointRefusal('http://devbox:9333/json/close/1')).not.toBeNull();
    expect(g.ports).toEqual([9222, 9333]);
  });

  it('says what the URL is and why it is not opened', () => {
    expect(refusalMessage({ url: 'http://127.0.0.1:9222/json/close/T1', own: true })).toBe(
      "refused: http://127.0.0.1:9222/json/close/T1 is DeskPilot's own DevTools endpoint; opening it would let a page control the browser",
    );
    expect(refusalMessage({ url: 'http://127.0.0.1:9222/json/close/T1', own: true }, 'http://127.0.0.1:8000/go')).toBe(
      "refused: http://127.0.0.1:8000/go redirected to http://127.0.0.1:9222/json/close/T1, which is DeskPilot's own DevTools endpoint; following it would let a page control the browser",
    );
    expect(refusalMessage({ url: 'http://localhost:9333/json', own: false })).toMatch(/is a browser's DevTools endpoint \(it answers \/json\/version\); opening it would let a page control that browser$/);
    expect(refusalMessage({ url: `http://127.0.0.1:9222/${'x'.repeat(500)}`, own: true }).length).toBeLessThan(320);
  });
});

describe('other ports on this computer that answer /json/version (real HTTP servers on 127.0.0.1)', () => {
  const servers: http.Server[] = [];
  const hits: string[] = [];
  let forwarder = 0; // answers like the same browser (a port forwarded to it)
  let other = 0; // another browser's endpoint
  let plain = 0; // an ordinary local web server

  async function serve(handler: http.RequestListener): Promise<number> {
    const s = http.createServer((req, res) => {
      hits.push(`${(s.address() as AddressInfo).port}${req.url}`);
      handler(req, res);
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    servers.push(s);
    return (s.address() as AddressInfo).port;
  }
  const version = (id: string) => (port: () => number) => (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ Browser: 'Chrome/156', webSocketDebuggerUrl: `ws://127.0.0.1:${port()}/devtools/browser/${id}` }));
  };

  beforeAll(async () => {
    forwarder = await serve(version('abc')(() => forwarder));
    other = await serve(version('zzz')(() => other));
    plain = await serve((_req, res) => {
      res.writeHead(404);
      res.end('not found');
    });
  });
  afterAll(async () => {
    for (const s of servers) s.closeAllConnections();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });

  const live = () => new DevtoolsGuard({ browserWsUrl: 'ws://127.0.0.1:9222/devtools/browser/abc' });

  it('refuses a port whose /json/version names the same browser as DeskPilot\'s own endpoint', async () => {
    expect(await live().refusal(`http://localhost:${forwarder}/json/list`)).toEqual({ url: `http://localhost:${forwarder}/json/list`, own: true });
  });

  it("refuses another browser's endpoint too", async () => {
    expect(await live().refusal(`http://127.0.0.1:${other}/json/close/T`)).toEqual({ url: `http://127.0.0.1:${other}/json/close/T`, own: false });
  });

  it('lets an ordinary local server through, asking it once', async () => {
    const g = live();
    hits.length = 0;
    expect(await g.refusal(`http://127.0.0.1:${plain}/app`)).toBeNull();
    expect(await g.refusal(`http://localhost:${plain}/other`)).toBeNull();
    expect(hits).toEqual([`${plain}/json/version`]);
  });

  it('never probes hosts that are not this computer', async () => {
    let asked = 0;
    const g = new DevtoolsGuard({ browserWsUrl: 'ws://127.0.0.1:9222/devtools/browser/abc', probe: async () => (asked++, 'ws://x/devtools/browser/abc') });
    expect(await g.refusal('http://example.com:8080/json/list')).toBeNull();
    expect(await g.refusal('https://127.0.0.1:8443/')).toBeNull();
    expect(asked).toBe(0);
  });
});
