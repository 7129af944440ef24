// The way a script drives Chrome without DeskPilot: the DevTools HTTP endpoints (/json/*),
// one fresh connection per request (no keep-alive agent), as curl or a plain requests.get does.
import http from 'node:http';

const REQUEST_TIMEOUT_MS = 10_000;

export interface JsonTab {
  targetId: string;
  title: string;
  url: string;
}

export function httpGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`GET ${url} timed out`)));
  });
}

async function getOk(url: string): Promise<string> {
  const { status, body } = await httpGet(url);
  if (status !== 200) throw new Error(`GET ${url} answered ${status}: ${body.slice(0, 200)}`);
  return body;
}

export class JsonEndpoints {
  constructor(readonly base: string) {}

  /** GET /json/list parsed into the tab list (pages only, as DeskPilot lists them). */
  async list(): Promise<JsonTab[]> {
    const entries = JSON.parse(await getOk(`${this.base}/json/list`)) as Array<{ id: string; type: string; title: string; url: string }>;
    return entries
      .filter((e) => e.type === 'page' && !e.url.startsWith('devtools://'))
      .map((e) => ({ targetId: e.id, title: e.title, url: e.url }));
  }

  async activate(targetId: string): Promise<void> {
    await getOk(`${this.base}/json/activate/${targetId}`);
  }

  async close(targetId: string): Promise<void> {
    await getOk(`${this.base}/json/close/${targetId}`);
  }
}
