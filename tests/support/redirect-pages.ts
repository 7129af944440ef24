import http from 'node:http';
import { LoopbackLifetime } from './loopback-lifetime';

// Pages on 127.0.0.1 that try to take a tab somewhere else: an HTTP 302, a script setting
// location.href, an <iframe>, a link, and a fetch. For the tests that check DeskPilot keeps
// its tabs away from the browser's DevTools endpoint. Requests are recorded for assertions.

export interface RedirectPages {
  /** e.g. "http://127.0.0.1:43211" */
  base: string;
  /** "<base>/302?to=<url>" and so on; `kind` is the path. */
  url(kind: '302' | 'js' | 'frame' | 'link' | 'fetch' | 'page', to?: string): string;
  requests: string[];
  stop(): Promise<void>;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title></head><body>${body}</body></html>`;
}

export async function startRedirectPages(): Promise<RedirectPages> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url.pathname + url.search);
    const to = url.searchParams.get('to') ?? '';
    const html = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(text);
    };
    switch (url.pathname) {
      case '/302':
        res.writeHead(302, { location: to, 'cache-control': 'no-store' });
        return res.end();
      case '/js':
        return html(200, page('Going', `<p>Going on…</p><script>location.href = ${JSON.stringify(to)};</script>`));
      case '/frame':
        return html(200, page('Framed', `<p>A frame:</p><iframe src="${esc(to)}" width="600" height="300"></iframe>`));
      case '/link':
        return html(200, page('Links', `<a id="go" href="${esc(to)}">Open the tab list</a>`));
      case '/fetch':
        return html(200, page('Fetching', `<p id="out">waiting</p><script>fetch(${JSON.stringify(to)}, { mode: 'no-cors' }).then(() => (out.textContent = 'sent'), () => (out.textContent = 'failed'));</script>`));
      case '/page':
        return html(200, page(url.searchParams.get('title') ?? 'Page', '<p>An ordinary page.</p>'));
      default:
        return html(404, page('Not found', '<p>No such page.</p>'));
    }
  });
  const lifetime = new LoopbackLifetime(server);
  const port = await lifetime.listen();
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    url: (kind, to) => `${base}/${kind}${to === undefined ? '' : `?to=${encodeURIComponent(to)}`}`,
    requests,
    stop: () => lifetime.stop(),
  };
}
