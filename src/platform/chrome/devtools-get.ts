import http from 'node:http';

// One GET to a DevTools HTTP endpoint (/json/version), over node:http. Not fetch: Node's fetch
// loads its whole HTTP client (undici, with TLS) on first use, and that alone cost a cold CLI call
// ~0.1 s of CPU — more than the rest of finding Chrome. These endpoints are plain HTTP on this
// computer or the LAN; an https:// one goes through node:https, required only then.

/** Bodies larger than this are not a DevTools answer (/json/version is a few hundred bytes). */
const MAX_BODY = 1 << 20;

export interface DevtoolsAnswer {
  status: number;
  body: string;
}

/**
 * GETs `url` without following redirects (a 3xx is an answer like any other) and without a
 * keep-alive agent. Fails like fetch does: the socket error (its `code`, e.g. ECONNREFUSED),
 * or an error named 'TimeoutError' after `timeoutMs`.
 */
export async function devtoolsGet(url: URL, timeoutMs: number): Promise<DevtoolsAnswer> {
  const get = url.protocol === 'https:' ? (await import('node:https')).get : http.get;
  return new Promise((resolve, reject) => {
    const req = get(url, { agent: false, headers: { accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY) req.destroy(new Error(`${url.origin} answered with more than ${MAX_BODY} bytes`));
        else chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(timeoutMs, () => {
      const e = new Error(`${url.origin} did not answer within ${timeoutMs} ms`);
      e.name = 'TimeoutError';
      req.destroy(e);
    });
  });
}
