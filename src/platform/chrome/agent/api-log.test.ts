import { describe, expect, it } from 'vitest';
import { ApiLog } from './api-log';

const req = (requestId: string, type: string, url: string, extra: Record<string, unknown> = {}) => ({
  requestId,
  type,
  request: { method: 'GET', url, ...extra },
});

describe('ApiLog', () => {
  it('keeps XHR/fetch calls until taken, with their status', () => {
    const log = new ApiLog();
    log.onRequest('s', req('1', 'Document', 'http://x/page'));
    log.onRequest('s', req('2', 'Fetch', 'http://x/api/a', { method: 'POST', postData: '{"q":1}' }));
    log.onRequest('s', req('3', 'XHR', 'http://x/api/b', { hasPostData: true }));
    log.onRequest('s', req('4', 'Fetch', 'data:text/plain,hi'));
    log.onResponse('s', '2', 201);
    log.onDone('s', '3', true);
    expect(log.take()).toEqual({
      calls: [
        { method: 'POST', url: 'http://x/api/a', body: '{"q":1}', status: 201 },
        { method: 'GET', url: 'http://x/api/b', bodyNotCaptured: true, status: 'failed' },
      ],
      dropped: 0,
    });
    expect(log.take()).toEqual({ calls: [], dropped: 0 });
  });

  it('counts requests without a response as pending (unread bodies never "finish")', () => {
    const log = new ApiLog();
    log.onRequest('s', req('1', 'Fetch', 'http://x/api'));
    log.onRequest('s', req('2', 'Image', 'http://x/i.png'));
    log.onRequest('s', req('3', 'WebSocket', 'ws://x/live'));
    expect(log.pending(true)).toBe(1);
    expect(log.pending(false)).toBe(2);
    log.onResponse('s', '1', 200);
    expect(log.pending(true)).toBe(0);
    expect(log.pending(false)).toBe(1);
    log.forgetSession('s');
    expect(log.pending(false)).toBe(0);
  });

  it('follows redirects on the same call and bounds what it keeps', () => {
    const log = new ApiLog();
    log.onRequest('s', req('1', 'Fetch', 'http://x/old'));
    log.onRequest('s', { ...req('1', 'Fetch', 'http://x/new'), redirectResponse: {} });
    expect(log.take().calls.map((c) => c.url)).toEqual(['http://x/new']);
    for (let i = 0; i < 60; i++) log.onRequest('t', req(String(i), 'XHR', `http://x/${i}`));
    const { calls, dropped } = log.take();
    expect(calls).toHaveLength(50);
    expect(dropped).toBe(10);
    expect(calls[0]!.url).toBe('http://x/10');
  });
});
