import { IPC_CHANNELS, IPC_EVENTS } from '../../src/protocol/ipc-channels';

// The browser side of the web harness: what the preload gives the renderer in Electron —
// `window.api` (one async method per channel, named by methodName, answering IpcResult) and
// `window.events` — served as /__harness/shim.js and loaded before the app's script. Calls go
// over the /__calls WebSocket once it is open, before that to POST /__api/<channel>, with the
// bridge token; main's pushes arrive as Server-Sent Events whose data is the push's payload as
// JSON (null when it has none).
//
// The token is not in this file (any page could load a script from another origin and read
// it): it is in a <meta> of the served index.html, which other origins cannot read. The shim
// takes it and removes the tag before the app runs.
//
// Uint8Array values (voice audio) cannot cross JSON as they are: they travel as
// {"__deskpilot_bytes__": "<base64>"} and the bridge turns them back before validation.

export const BYTES_MARK = '__deskpilot_bytes__';
export const TOKEN_META = 'deskpilot-harness-token';
export const TOKEN_HEADER = 'x-deskpilot-token';

/** Plain ES2020, no imports: runs as a classic script before the module bundle. */
export function shimSource(): string {
  return `// DeskPilot web test harness: stands in for the Electron preload. Test tooling only.
(() => {
  'use strict';
  const CHANNELS = ${JSON.stringify(IPC_CHANNELS)};
  const EVENTS = ${JSON.stringify(IPC_EVENTS)};
  const MARK = ${JSON.stringify(BYTES_MARK)};
  const meta = document.querySelector('meta[name=${JSON.stringify(TOKEN_META)}]');
  const token = meta ? meta.getAttribute('content') || '' : '';
  if (meta) meta.remove();

  const toBase64 = (bytes) => {
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(s);
  };
  const replacer = (_key, value) => (value instanceof Uint8Array ? { [MARK]: toBase64(value) } : value);
  const methodName = (channel) => channel.replace(/:(\\w)/, (_, c) => c.toUpperCase());

  // Calls go over one WebSocket once it is open (as Electron's IPC is one open channel, not an
  // HTTP request set up per call: a fetch cost the page's main thread ~1 ms a call), and over
  // POST /__api until then or if it closes.
  const pending = new Map();
  let nextId = 1;
  let socket = null;
  const openSocket = () => {
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/__calls?token=' + encodeURIComponent(token));
    ws.onmessage = (e) => {
      let m = null;
      try {
        m = JSON.parse(e.data);
      } catch (err) {
        console.error('harness bridge: unreadable answer');
        return;
      }
      const settle = pending.get(m.id);
      if (!settle) return;
      pending.delete(m.id);
      const body = m.result;
      settle(body && typeof body === 'object' && typeof body.ok === 'boolean' ? body : { ok: false, error: 'harness bridge: unexpected answer', code: 'service_bad_answer' });
    };
    ws.onclose = () => {
      if (socket === ws) socket = null;
      for (const settle of pending.values()) settle({ ok: false, error: 'harness bridge: the call socket closed', code: 'service_gone' });
      pending.clear();
    };
    socket = ws;
  };
  openSocket();
  const callOverSocket = (channel, request) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, channel, request: request === undefined ? null : request }, replacer));
    });

  const call = async (channel, request) => {
    if (socket && socket.readyState === WebSocket.OPEN) return callOverSocket(channel, request);
    try {
      const res = await fetch('/__api/' + channel, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ${JSON.stringify(TOKEN_HEADER)}: token },
        body: JSON.stringify(request === undefined ? null : request, replacer),
      });
      const body = await res.json();
      if (body && typeof body === 'object' && typeof body.ok === 'boolean') return body;
      return { ok: false, error: 'harness bridge: unexpected answer (HTTP ' + res.status + ')', code: 'service_bad_answer' };
    } catch (e) {
      return { ok: false, error: 'harness bridge: ' + (e && e.message ? e.message : String(e)), code: 'service_gone' };
    }
  };
  const api = {};
  for (const channel of CHANNELS) api[methodName(channel)] = (request) => call(channel, request);
  Object.defineProperty(window, 'api', { value: Object.freeze(api), enumerable: true });

  const listeners = new Map(EVENTS.map((e) => [e, new Set()]));
  const source = new EventSource('/__events?token=' + encodeURIComponent(token));
  for (const event of EVENTS) {
    source.addEventListener(event, (e) => {
      // As the preload does: the push's one payload, or no argument when it has none.
      let payload = null;
      try {
        payload = JSON.parse(e.data);
      } catch (err) {
        console.error('harness bridge: unreadable ' + event + ' payload');
      }
      for (const listener of [...listeners.get(event)]) {
        try {
          if (payload === null) listener();
          else listener(payload);
        } catch (err) {
          console.error(err);
        }
      }
    });
  }
  const events = {
    on(event, listener) {
      const set = listeners.get(event);
      if (!set) throw new Error('unknown event ' + String(event));
      set.add(listener);
      return () => void set.delete(listener);
    },
  };
  Object.defineProperty(window, 'events', { value: Object.freeze(events), enumerable: true });
})();
`;
}
