// XHR/fetch calls a tab made since its previous snapshot (for <api_activity>), and the requests
// still in flight (for settling after an action and for wait_for network_idle). Fed by Network.*
// events of the tab's sessions (the page and its out-of-process iframes).

export interface ApiCall {
  method: string;
  url: string;
  /** Raw request body (never shown as is: the renderer redacts and bounds it). */
  body?: string;
  /** The page sent a body CDP did not report (too large, or a stream). */
  bodyNotCaptured?: boolean;
  status?: number | 'failed';
}

interface Pending {
  api: ApiCall | null;
  /** Headers are in: the page's fetch() has resolved. Bodies the page never reads never "finish". */
  responded: boolean;
  /** Long-lived requests (WebSocket, EventSource) never count as network activity. */
  counts: boolean;
}

const MAX_UNREAD = 50;

export class ApiLog {
  private unread: ApiCall[] = [];
  private dropped = 0;
  private readonly inflight = new Map<string, Pending>();
  private lastActivity = Date.now();

  /** Network.requestWillBeSent */
  onRequest(sessionId: string, p: { requestId: string; type?: string; request: { method: string; url: string; postData?: string; hasPostData?: boolean }; redirectResponse?: unknown }): void {
    const key = `${sessionId}:${p.requestId}`;
    this.lastActivity = Date.now();
    const type = p.type ?? 'Other';
    const known = this.inflight.get(key);
    if (known && p.redirectResponse) {
      // A redirect keeps the request id: the call is the same, its URL moves on.
      if (known.api) known.api.url = p.request.url;
      return;
    }
    const url = p.request.url;
    const isApi = (type === 'XHR' || type === 'Fetch') && !url.startsWith('data:') && !url.startsWith('blob:');
    let api: ApiCall | null = null;
    if (isApi) {
      api = { method: p.request.method, url };
      if (p.request.postData !== undefined) api.body = p.request.postData;
      else if (p.request.hasPostData) api.bodyNotCaptured = true;
      this.unread.push(api);
      if (this.unread.length > MAX_UNREAD) {
        this.unread.shift();
        this.dropped++;
      }
    }
    this.inflight.set(key, { api, responded: false, counts: type !== 'WebSocket' && type !== 'EventSource' });
  }

  /** Network.responseReceived */
  onResponse(sessionId: string, requestId: string, status: number): void {
    const p = this.inflight.get(`${sessionId}:${requestId}`);
    if (!p) return;
    p.responded = true;
    if (p.api) p.api.status = status;
    this.lastActivity = Date.now();
  }

  /** Network.loadingFinished / loadingFailed */
  onDone(sessionId: string, requestId: string, failed: boolean): void {
    const key = `${sessionId}:${requestId}`;
    const p = this.inflight.get(key);
    if (p?.api && failed && p.api.status === undefined) p.api.status = 'failed';
    this.inflight.delete(key);
    this.lastActivity = Date.now();
  }

  /** A session went away (iframe detached, navigation of its process): its requests will never finish. */
  forgetSession(sessionId: string): void {
    for (const key of this.inflight.keys()) if (key.startsWith(`${sessionId}:`)) this.inflight.delete(key);
  }

  /** Requests still waiting for their response; `apiOnly` counts XHR/fetch only. */
  pending(apiOnly: boolean): number {
    let n = 0;
    for (const p of this.inflight.values()) if (p.counts && !p.responded && (!apiOnly || p.api)) n++;
    return n;
  }

  /** ms since a request last started or finished. */
  quietMs(): number {
    return Date.now() - this.lastActivity;
  }

  /** The calls since the previous take(), oldest first, and how many older ones were dropped. */
  take(): { calls: ApiCall[]; dropped: number } {
    const out = { calls: this.unread, dropped: this.dropped };
    this.unread = [];
    this.dropped = 0;
    return out;
  }
}
