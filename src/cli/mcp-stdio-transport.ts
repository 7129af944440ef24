import type { Readable, Writable } from 'node:stream';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

// MCP over stdio with a bounded line: the SDK's StdioServerTransport drops everything and stops
// reading (stdin paused, no answer, the process left waiting for ever) when one message passes its
// 10 MB buffer. Here a message over the limit is skipped up to its newline — never buffered — and
// answered with a JSON-RPC error, and so is a line that is not JSON-RPC; the next message is served.

/** The largest message taken, as the SDK's own default (10 MB). */
export const MAX_MCP_MESSAGE = 10 * 1024 * 1024;

/** JSON-RPC 2.0 error codes. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

export class BoundedStdioTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  private pending: Buffer[] = [];
  private pendingLength = 0;
  /** True while the rest of an oversized message is being dropped, up to its newline. */
  private skipping = false;
  private closed = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly maxMessage = MAX_MCP_MESSAGE,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(serializeMessage(message))) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.pending = [];
    this.onclose?.();
  }

  private readonly onInputError = (e: Error) => this.onerror?.(e);

  private readonly onData = (chunk: Buffer | string) => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    let nl: number;
    while ((nl = data.indexOf(10, start)) >= 0) {
      if (this.skipping) this.skipping = false;
      else this.take(Buffer.concat([...this.pending, data.subarray(start, nl)]));
      this.pending = [];
      this.pendingLength = 0;
      start = nl + 1;
    }
    if (this.skipping || start >= data.length) return;
    // A copy, so a small remainder does not keep the whole chunk alive.
    const rest = Buffer.from(data.subarray(start));
    this.pending.push(rest);
    this.pendingLength += rest.length;
    if (this.pendingLength > this.maxMessage) {
      this.pending = [];
      this.pendingLength = 0;
      this.skipping = true;
      this.refuse(INVALID_REQUEST, this.tooLong());
    }
  };

  private tooLong(): string {
    return `the message is longer than ${this.maxMessage} bytes; it was dropped (send smaller messages)`;
  }

  private take(line: Buffer): void {
    if (line.length > this.maxMessage) return this.refuse(INVALID_REQUEST, this.tooLong());
    const text = line.toString('utf8').replace(/\r$/, '');
    if (!text.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.refuse(PARSE_ERROR, 'the line is not JSON');
    }
    const message = JSONRPCMessageSchema.safeParse(value);
    if (!message.success) return this.refuse(INVALID_REQUEST, 'the line is not a JSON-RPC 2.0 message');
    this.onmessage?.(message.data);
  }

  /** Answers a message that cannot be read; its id is unknown, so JSON-RPC says null. */
  private refuse(code: number, message: string): void {
    this.onerror?.(new Error(message));
    void this.send({ jsonrpc: '2.0', id: null, error: { code, message } } as unknown as JSONRPCMessage);
  }
}
