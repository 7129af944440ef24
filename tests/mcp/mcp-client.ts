import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI } from './cli-path';

// A real MCP client — the SDK's own — talking to the real `deskpilot mcp`: spawned as a
// child over stdio the way desktop clients do, or over Streamable HTTP.

export type Elicit = (request: ElicitRequest) => Promise<ElicitResult>;

export interface McpTestClient {
  client: Client;
  /** What the server wrote on stderr so far (stdio only). */
  stderr(): string;
  /** The server's process id (stdio only). */
  pid: number | null;
  /** Every elicitation the server sent this client. */
  asked: string[];
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Only variables with a value: the SDK's transport takes Record<string, string>. */
const defined = (env: NodeJS.ProcessEnv) => Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));

function newClient(elicit: Elicit | undefined, asked: string[]): Client {
  const client = new Client({ name: 'deskpilot-tests', version: '1.0.0' }, { capabilities: elicit ? { elicitation: { form: {} } } : {} });
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message);
      return elicit(req);
    });
  }
  return client;
}

function wrap(client: Client, asked: string[], stderr: () => string, close: () => Promise<void>, pid: number | null = null): McpTestClient {
  return {
    client,
    asked,
    stderr,
    pid,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close,
  };
}

export async function stdioClient(env: NodeJS.ProcessEnv, opts: { elicit?: Elicit; args?: string[] } = {}): Promise<McpTestClient> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...(opts.args ?? [])], env: defined(env), stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const asked: string[] = [];
  const client = newClient(opts.elicit, asked);
  await client.connect(transport);
  return wrap(client, asked, () => err, () => client.close(), transport.pid);
}

export async function httpClient(url: string, token: string, opts: { elicit?: Elicit } = {}): Promise<McpTestClient> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const asked: string[] = [];
  const client = newClient(opts.elicit, asked);
  await client.connect(transport);
  return wrap(client, asked, () => '', async () => {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  });
}

export const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
export const dataOf = (r: CallToolResult) => r.structuredContent as any;

/** The confirm_token of an answer that waits for the user's yes (fails the test, saying what came instead, when there is none). */
export function tokenOf(r: CallToolResult): string {
  const token = (r.structuredContent as { confirm_token?: unknown } | undefined)?.confirm_token;
  if (typeof token !== 'string') throw new Error(`expected a confirm_token, got: ${textOf(r)}`);
  return token;
}

/** Calls a tool that waits for a yes, then again with its confirm_token (the user said yes). */
export async function callConfirmed(c: McpTestClient, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const asked = await c.call(name, args);
  return c.call(name, { ...args, confirm_token: tokenOf(asked) });
}
