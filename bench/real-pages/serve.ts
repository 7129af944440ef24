// A static server for the saved real pages (../shared/real-pages, outside the repo) on 127.0.0.1.
// Every page is sent with a Content-Security-Policy that allows only its own server: the pages'
// scripts, trackers and images point at their original hosts, which are not reachable here, and a
// request that hangs would make every run measure the network instead of the snapshot. Their
// inline scripts do not run either (they were written for the live site), so each page is the
// saved DOM, styled by whatever CSS it carries inline.
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** Where the saved pages live: ../shared/real-pages beside the repo. */
export const REAL_PAGES_DIR = path.resolve(__dirname, '..', '..', '..', 'shared', 'real-pages');

const CSP = "default-src 'self'; script-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; frame-src 'none'";

export interface RealPageServer {
  /** url('postlight/github.com.html') → http://127.0.0.1:PORT/postlight/github.com.html */
  url(page: string): string;
  stop(): Promise<void>;
}

/** The saved pages as "folder/file.html", sorted; empty when the folder is absent. */
export function realPages(dir = REAL_PAGES_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(path.join(dir, d.name)).filter((f) => f.endsWith('.html')).map((f) => `${d.name}/${f}`))
    .sort();
}

export async function serveRealPages(dir = REAL_PAGES_DIR): Promise<RealPageServer> {
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname).replace(/^\/+/, '');
    const file = path.resolve(dir, rel);
    if (!file.startsWith(dir + path.sep) || !file.endsWith('.html')) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    readFile(file).then(
      (body) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP, 'cache-control': 'no-store' });
        res.end(body);
      },
      () => {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (page) => `${base}/${page.split('/').map(encodeURIComponent).join('/')}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
