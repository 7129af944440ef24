import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { DeskMcpServer } from '../app/mcp/create-server';
import { bareHost, isLoopbackAddress } from '../platform/chrome/host-address';
import { errorMessage } from '../engine/errors';

// `deskpilot mcp --http`: MCP over Streamable HTTP at /mcp, one MCP session per client.
// Every request must carry the bearer token; a request a web page sends (an Origin that is
// not this computer's loopback) is refused, and while bound to loopback so is a Host header
// that is not loopback — a page that rebinds its own name to 127.0.0.1 gets nowhere.

export const MCP_PATH = '/mcp';
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Open sessions at most; a new one then replaces the one idle longest (a client that left without saying so). */
const MAX_SESSIONS = 32;

/** localhost, 127.0.0.0/8 and ::1 — by name only localhost, which every resolver keeps local. */
export const isLoopbackHost = (host: string) => bareHost(host) === 'localhost' || isLoopbackAddress(host);

export interface McpHttpOptions {
  host: string;
  port: number;
  token: string;
  /** A new MCP server for each session. */
  newSession(): DeskMcpServer;
}

export interface McpHttpServer {
  url: string;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  mcp: DeskMcpServer;
  /** Responses still open (a client listening on its event stream is not idle). */
  open: number;
  lastActive: number;
}

export async function startMcpHttp(opts: McpHttpOptions): Promise<McpHttpServer> {
  const sessions = new Map<string, Session>();
  const loopbackBind = isLoopbackHost(opts.host);
  const tokenDigest = digest(opts.token);

  const server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) reply(res, 500, `internal error: ${errorMessage(e)}`);
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== MCP_PATH) return reply(res, 404, `not found: DeskPilot speaks MCP at ${MCP_PATH}`);
    const refused = refusal(req);
    if (refused) return reply(res, refused.status, refused.message, refused.headers);

    const sessionId = header(req, 'mcp-session-id');
    if (req.method === 'POST') {
      const body = await readJson(req);
      if (!body.ok) return reply(res, body.status, body.message);
      if (!sessionId) {
        if (!isInitializeRequest(body.value)) return reply(res, 400, 'no session: start with an initialize request (without mcp-session-id)');
        if (sessions.size >= MAX_SESSIONS && !(await closeIdlest())) return reply(res, 503, `too many open sessions (${MAX_SESSIONS}), all in use; close one first`);
        const transport = await newTransport();
        await transport.handleRequest(req, res, body.value);
        return;
      }
      const session = sessions.get(sessionId);
      if (!session) return reply(res, 404, 'session not found (it ended or the server restarted); initialize again');
      track(session, res);
      cancelOnDrop(session.transport, res, body.value);
      await session.transport.handleRequest(req, res, body.value);
      return;
    }
    const session = sessionId ? sessions.get(sessionId) : undefined;
    if (!session) return reply(res, sessionId ? 404 : 400, sessionId ? 'session not found; initialize again' : 'missing mcp-session-id header');
    track(session, res);
    await session.transport.handleRequest(req, res);
  }

  async function newTransport(): Promise<StreamableHTTPServerTransport> {
    const mcp = opts.newSession();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, mcp, open: 0, lastActive: Date.now() }),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void mcp.close().catch(() => undefined);
    };
    await mcp.server.connect(transport);
    return transport;
  }

  function track(session: Session, res: ServerResponse): void {
    session.open++;
    session.lastActive = Date.now();
    res.once('close', () => {
      session.open--;
      session.lastActive = Date.now();
    });
  }

  /**
   * A client that drops its request (closes the connection before the answer) cancels the calls
   * it carried, as notifications/cancelled would: their handlers see their signal abort and
   * withdraw what waits on another device. An answer already sent makes this a no-op.
   */
  function cancelOnDrop(transport: StreamableHTTPServerTransport, res: ServerResponse, body: unknown): void {
    const ids = (Array.isArray(body) ? body : [body]).flatMap((m) => (isJSONRPCRequest(m) ? [m.id] : []));
    if (ids.length === 0) return;
    res.once('close', () => {
      if (res.writableFinished) return;
      for (const requestId of ids) {
        transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'the client dropped its HTTP request' } });
      }
    });
  }

  /** Ends the session idle longest; false when every session has a request or stream open. */
  async function closeIdlest(): Promise<boolean> {
    const idlest = [...sessions.values()].filter((s) => s.open === 0).sort((a, b) => a.lastActive - b.lastActive)[0];
    if (!idlest) return false;
    await idlest.transport.close();
    return true;
  }

  /** Why a request is refused before it reaches MCP: a foreign page, a rebound name, no or a wrong token. */
  function refusal(req: IncomingMessage): { status: number; message: string; headers?: Record<string, string> } | null {
    const origin = header(req, 'origin');
    if (origin !== undefined && !loopbackOrigin(origin)) return { status: 403, message: `requests from web pages are refused (Origin ${origin})` };
    const host = header(req, 'host');
    if (loopbackBind && !(host && isLoopbackHost(hostnameOf(host)))) return { status: 403, message: `Host ${host ?? '(none)'} is not this computer's loopback address` };
    const auth = header(req, 'authorization');
    const given = /^Bearer\s+(\S+)\s*$/i.exec(auth ?? '')?.[1];
    const challenge = { 'www-authenticate': 'Bearer realm="deskpilot"' };
    if (!given) return { status: 401, message: 'missing bearer token: send "Authorization: Bearer <token>" (the token is in mcp-token in the DeskPilot config directory)', headers: challenge };
    if (!timingSafeEqual(digest(given), tokenDigest)) return { status: 401, message: 'wrong bearer token', headers: { ...challenge, 'www-authenticate': 'Bearer realm="deskpilot", error="invalid_token"' } };
    return null;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${shownHost}:${port}${MCP_PATH}`,
    close: async () => {
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const digest = (s: string) => createHash('sha256').update(s).digest();

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** "127.0.0.1:8080" → "127.0.0.1", "[::1]:80" → "[::1]". */
const hostnameOf = (hostHeader: string) => (hostHeader.startsWith('[') ? hostHeader.slice(0, hostHeader.indexOf(']') + 1) : hostHeader.replace(/:\d*$/, ''));

function loopbackOrigin(origin: string): boolean {
  try {
    const u = new URL(origin);
    return (u.protocol === 'http:' || u.protocol === 'https:') && isLoopbackHost(u.hostname);
  } catch {
    return false; // "null" (a sandboxed page, a file) and anything unparsable
  }
}

function reply(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false; status: number; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return { ok: false, status: 413, message: `request body over ${MAX_BODY_BYTES} bytes` };
    chunks.push(chunk as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch (e) {
    return { ok: false, status: 400, message: `request body is not JSON (${errorMessage(e)})` };
  }
}
