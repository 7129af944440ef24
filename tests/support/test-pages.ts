// A tiny local web server with the pages the real-desktop tests open in Chromium.
// It listens on 127.0.0.1 with a random port, so parallel test files never collide.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestPages {
  /** e.g. "http://127.0.0.1:43211" */
  base: string;
  /** url('page', { title: 'Reddit', desc: '...' }) → "<base>/page?title=Reddit&desc=..." */
  url(name: string, query?: Record<string, string>): string;
  /** /slow requests received and not yet answered. */
  slowPending(): number;
  /** Idempotent; drops open (keep-alive or still-pending) connections instead of waiting for them. */
  stop(): Promise<void>;
}

const DEFAULT_TEXT = 'DeskPilot test page. The quick brown fox jumps over the lazy dog.';
/** Upper bound for /slow, so a typo cannot park a request (and a test) for hours. */
const MAX_SLOW_MS = 120_000;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

function htmlPage(title: string, body: string, head = ''): string {
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${head}</head>\n` +
    `<body>${body}</body></html>\n`
  );
}

export async function startTestPages(): Promise<TestPages> {
  const slowTimers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const q = url.searchParams;
    const send = (status: number, html: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
    };

    switch (url.pathname) {
      case '/':
        return send(
          200,
          htmlPage(
            'DeskPilot test pages',
            '<ul><li><a href="/page?title=Example">/page?title=&amp;desc=&amp;text=</a></li>' +
              '<li><a href="/slow?ms=1000">/slow?ms=</a></li><li><a href="/frozen">/frozen</a></li></ul>',
          ),
        );

      case '/page': {
        const desc = q.get('desc');
        const meta = desc === null ? '' : `<meta name="description" content="${escapeHtml(desc)}">`;
        return send(200, htmlPage(q.get('title') ?? 'Test page', `<p id="text">${escapeHtml(q.get('text') ?? DEFAULT_TEXT)}</p>`, meta));
      }

      case '/slow': {
        const requested = Number(q.get('ms') ?? 1000);
        const ms = Number.isFinite(requested) ? Math.min(Math.max(requested, 0), MAX_SLOW_MS) : 1000;
        const timer = setTimeout(() => {
          slowTimers.delete(timer);
          send(200, htmlPage(q.get('title') ?? `Slow page (${ms} ms)`, `<p id="text">Answered after ${ms} ms.</p>`));
        }, ms);
        timer.unref();
        slowTimers.add(timer);
        // A client that gave up must not leave a timer writing to a dead socket.
        res.on('close', () => {
          clearTimeout(timer);
          slowTimers.delete(timer);
        });
        return;
      }

      case '/frozen':
        // Freeze only after load (and after the load handlers ran): the tab then has a finished
        // navigation, but its renderer never answers again — like a real hung page. Its last act is
        // to add " (frozen)" to its title, which the browser still shows: a test can wait for that.
        return send(
          200,
          htmlPage(
            q.get('title') ?? 'Frozen page',
            '<p id="text">This page busy-loops forever after load.</p>' +
              "<script>addEventListener('load', () => setTimeout(() => { document.title += ' (frozen)'; while (true) {} }, 0));</script>",
          ),
        );

      default:
        return send(404, htmlPage('Not found', `<p>No test page at ${escapeHtml(url.pathname)}</p>`));
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  let stopping: Promise<void> | null = null;
  return {
    base,
    slowPending: () => slowTimers.size,
    url(name, query) {
      const url = new URL(`/${name.replace(/^\/+/, '')}`, base);
      for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value);
      return url.toString();
    },
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        for (const timer of slowTimers) clearTimeout(timer);
        slowTimers.clear();
        server.close(() => resolve());
        // close() alone waits for keep-alive sockets (Chromium holds them open) and pending /slow requests.
        server.closeAllConnections();
      });
      return stopping;
    },
  };
}
