// A tiny static server for the agent-mode test pages (tests/agent-pages/*.html) plus the JSON
// endpoints those pages fetch. Two listeners on 127.0.0.1: the main one, and a second port that
// pages reach as http://localhost:<port2>/ — a different *site* (not just origin), so Chromium's
// site isolation puts iframes from it in their own process (out-of-process iframes). The same
// second port as http://127.0.0.1:<port2>/ is cross-origin but same-site: an in-process frame
// whose document the parent cannot reach.
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface AgentPages {
  /** e.g. "http://127.0.0.1:43211" */
  base: string;
  /** The second server as a cross-site origin, e.g. "http://localhost:43212". */
  crossBase: string;
  /** url('/search.html') → "<base>/search.html" */
  url(path: string): string;
  /** Requests the servers answered (method, path with query, body), oldest first; for assertions. */
  requests: Array<{ method: string; url: string; body: string }>;
  stop(): Promise<void>;
}

const DIR = __dirname;

const PRODUCTS = [
  'Red running shoes',
  'Blue rain jacket',
  'Green tea (100 bags)',
  'Wireless headphones',
  'Mechanical keyboard',
  'Rain boots',
  'Trail running socks',
  'Weather radio',
];

function bigPage(n: number): string {
  // Cards of ~10 elements each, about a third of them interactive: a product-list-like page.
  const cards: string[] = [];
  const count = Math.ceil(n / 10);
  for (let i = 1; i <= count; i++) {
    cards.push(
      `<div class="card" data-i="${i}"><h3 class="t">Product ${i}</h3>` +
        `<p class="d">Description of product ${i}: <span>fast</span>, <em>durable</em>, <b>cheap</b>.</p>` +
        `<a href="/product/${i}?ref=list&amp;pos=${i}">Details ${i}</a> ` +
        `<button type="button" class="buy" data-id="${i}">Add to cart ${i}</button>` +
        `<label>Qty <input type="number" name="qty${i}" value="1"></label>` +
        `<span class="price">$${(i * 1.37).toFixed(2)}</span></div>`,
    );
  }
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Big list</title>' +
    '<style>.card{border:1px solid #ccc;margin:4px;padding:4px}.card h3{margin:0;font-size:14px}</style></head><body>' +
    '<header><nav><a href="/">Home</a> <a href="/deals?x=1">Deals</a> <input type="search" placeholder="Search the catalog" aria-label="Search"> <button>Go</button></nav></header>' +
    `<main id="list">${cards.join('\n')}</main>` +
    "<script>document.getElementById('list').addEventListener('click', (e) => { const b = e.target.closest('.buy'); if (b) b.textContent = 'Added'; });</script>" +
    '</body></html>'
  );
}

const MIME: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };

export async function startAgentPages(): Promise<AgentPages> {
  const requests: AgentPages['requests'] = [];
  let crossBase = '';
  let sameSiteBase = '';
  let base = '';

  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      void respond(req, res, body).catch((e: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(e));
      });
    });
  };

  const respond = async (req: http.IncomingMessage, res: http.ServerResponse, body: string) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ method: req.method ?? 'GET', url: url.pathname + url.search, body });
    const json = (value: unknown, delayMs = 0) => {
      const send = () => {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'access-control-allow-origin': '*' });
        res.end(JSON.stringify(value));
      };
      if (delayMs > 0) setTimeout(send, delayMs).unref();
      else send();
    };
    const q = url.searchParams;
    switch (url.pathname) {
      case '/api/search': {
        const term = (q.get('q') ?? '').toLowerCase();
        const words = term.split(/\s+/).filter(Boolean);
        const results = PRODUCTS.map((title, i) => ({ id: i + 1, title, url: `/product/${i + 1}?ref=search` })).filter((p) =>
          words.some((w) => p.title.toLowerCase().includes(w)),
        );
        return json({ query: q.get('q') ?? '', results }, Number(q.get('delay') ?? 50));
      }
      case '/api/items': {
        const page = Number(q.get('page') ?? 1);
        return json({ items: Array.from({ length: 5 }, (_, i) => ({ id: page * 10 + i, name: `Item ${page * 10 + i}` })) }, Number(q.get('delay') ?? 100));
      }
      case '/api/login':
      case '/api/submit':
      case '/api/pay':
        return json({ ok: true, received: body.length });
      case '/big.html':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        return res.end(bigPage(Number(q.get('n') ?? 6000)));
      default: {
        if (url.pathname.startsWith('/product/')) {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          return res.end(`<!doctype html><title>Product ${url.pathname.slice(9)}</title><h1>Product ${url.pathname.slice(9)}</h1><a href="/search.html">Back to search</a>`);
        }
        const name = path.basename(url.pathname === '/' ? '/index.html' : url.pathname);
        const ext = path.extname(name);
        if (!MIME[ext] || name.includes('..')) break;
        try {
          let text = await readFile(path.join(DIR, name), 'utf8');
          text = text.replaceAll('{{CROSS}}', crossBase).replaceAll('{{SAMESITE}}', sameSiteBase).replaceAll('{{BASE}}', base);
          res.writeHead(200, { 'content-type': MIME[ext]!, 'cache-control': 'no-store' });
          return res.end(text);
        } catch {
          break;
        }
      }
    }
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Not found</title><p>No page at ${url.pathname.replace(/[<>&]/g, '')}</p>`);
  };

  const listen = async () => {
    const server = http.createServer(handler);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return server;
  };
  const main = await listen();
  const second = await listen();
  base = `http://127.0.0.1:${(main.address() as AddressInfo).port}`;
  crossBase = `http://localhost:${(second.address() as AddressInfo).port}`;
  // Same site as the main server (ports do not make sites), other origin: an in-process cross-origin frame.
  sameSiteBase = `http://127.0.0.1:${(second.address() as AddressInfo).port}`;

  let stopping: Promise<void> | null = null;
  return {
    base,
    crossBase,
    requests,
    url: (p: string) => new URL(p.startsWith('/') ? p : `/${p}`, base).toString(),
    stop() {
      stopping ??= Promise.all(
        [main, second].map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      ).then(() => undefined);
      return stopping;
    },
  };
}
