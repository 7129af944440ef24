// The agent task suite's tiny static server (in the style of tests/agent-pages/serve.ts): the
// pages in eval/agent/pages/ plus the few dynamic answers they need, on 127.0.0.1 with a random
// port. Nothing is fetched from the network; every page is self-contained.
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface EvalPages {
  /** e.g. "http://127.0.0.1:43211" */
  base: string;
  /** url('/search.html') → "<base>/search.html" */
  url(path: string): string;
  /** Requests answered (method, path with query), oldest first. */
  requests: Array<{ method: string; url: string }>;
  stop(): Promise<void>;
}

export const PAGES_DIR = path.join(__dirname, 'pages');

/** Order statuses for orders.html; fetched, so the answer exists only after the page loads it. */
const ORDERS: Record<string, { status: string; carrier: string; tracking: string }> = {
  '1041': { status: 'Delivered', carrier: 'DHL', tracking: 'JD-7781-2290' },
  '1042': { status: 'Shipped', carrier: 'PostNord', tracking: 'ZX-5531-0872' },
  '1043': { status: 'Packing', carrier: 'UPS', tracking: 'UP-1204-3349' },
};
const ORDER_DELAY_MS = 1_500;

const MIME: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };

export async function startEvalPages(): Promise<EvalPages> {
  const requests: EvalPages['requests'] = [];
  const timers = new Set<NodeJS.Timeout>();

  const sendFile = async (res: http.ServerResponse, name: string): Promise<boolean> => {
    const ext = path.extname(name);
    if (!MIME[ext] || name !== path.basename(name)) return false;
    try {
      const text = await readFile(path.join(PAGES_DIR, name), 'utf8');
      res.writeHead(200, { 'content-type': MIME[ext]!, 'cache-control': 'no-store' });
      res.end(text);
      return true;
    } catch {
      return false;
    }
  };

  const respond = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ method: req.method ?? 'GET', url: url.pathname + url.search });
    if (url.pathname === '/api/order') {
      const order = ORDERS[url.searchParams.get('id') ?? ''];
      const delay = Math.min(10_000, Math.max(0, Number(url.searchParams.get('delay') ?? ORDER_DELAY_MS) || 0));
      const timer = setTimeout(() => {
        timers.delete(timer);
        res.writeHead(order ? 200 : 404, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify(order ?? { error: 'no such order' }));
      }, delay);
      timers.add(timer);
      return;
    }
    // /office/<city>: one page that shows the office its path names.
    if (/^\/office\/[a-z]+$/.test(url.pathname) && (await sendFile(res, 'office.html'))) return;
    const name = url.pathname === '/' ? 'index.html' : url.pathname.slice(1);
    if (await sendFile(res, name)) return;
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Not found</title><p>No page at ${url.pathname.replace(/[<>&]/g, '')}</p>`);
  };

  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      void respond(req, res).catch((e: unknown) => {
        if (res.headersSent) return void res.end();
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  let stopping: Promise<void> | null = null;
  return {
    base,
    requests,
    url: (p: string) => new URL(p.startsWith('/') ? p : `/${p}`, base).toString(),
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopping;
    },
  };
}
