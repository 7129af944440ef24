import { describe, expect, it } from 'vitest';
import { DevtoolsGuard } from '../devtools-guard';
import { guardedRequestPatterns, withoutDevtoolsSockets } from './request-guard';

describe('withoutDevtoolsSockets', () => {
  it('removes every DevTools websocket address and leaves the rest of the text', () => {
    const listing = JSON.stringify([
      {
        devtoolsFrontendUrl: '/devtools/inspector.html?ws=127.0.0.1:9222/devtools/page/0C8F1058E3C00E5D19784A358E34C4C6',
        id: '0C8F1058E3C00E5D19784A358E34C4C6',
        title: 'Bank',
        webSocketDebuggerUrl: 'ws://127.0.0.1:9222/devtools/page/0C8F1058E3C00E5D19784A358E34C4C6',
      },
    ]);
    const out = withoutDevtoolsSockets(listing);
    expect(out).not.toMatch(/ws:\/\/|ws=127|\/devtools\/page\//);
    expect(out).toContain('"title":"Bank"');
    expect(withoutDevtoolsSockets('browser: wss://10.0.0.5:9222/devtools/browser/b-1 ok')).toBe('browser: [DevTools websocket address removed] ok');
  });

  it('leaves ordinary text, and text about DevTools, alone', () => {
    expect(withoutDevtoolsSockets('Open DevTools with F12; see ws://example.com/chat')).toBe('Open DevTools with F12; see ws://example.com/chat');
  });
});

describe('guardedRequestPatterns', () => {
  it('pauses every document, and every request to an endpoint port', () => {
    const g = new DevtoolsGuard({ browserWsUrl: 'ws://127.0.0.1:9222/devtools/browser/x', otherNames: ['http://localhost:9333'] });
    expect(guardedRequestPatterns(g)).toEqual([
      { urlPattern: '*', resourceType: 'Document', requestStage: 'Request' },
      { urlPattern: '*:9222/*', requestStage: 'Request' },
      { urlPattern: '*:9333/*', requestStage: 'Request' },
    ]);
  });

  it('pauses everything when the endpoint is on a default port (no ":port" to match)', () => {
    const g = new DevtoolsGuard({ browserWsUrl: 'ws://127.0.0.1:80/devtools/browser/x' });
    expect(guardedRequestPatterns(g)).toEqual([{ urlPattern: '*', requestStage: 'Request' }]);
  });
});
