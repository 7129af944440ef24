import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Consent } from './consent';
import type { McpContext } from './call-context';
import { contextOnDevice, deviceField, onDevice } from './device-context';
import { namesEveryDevice, readOnEveryDevice } from './every-device';
import { funnel, type ToolOutput } from './tool-error';

// Each tool is defined in one place — name, input schema, description, annotations and
// handler — and registered the same way, through the one error funnel.


/** One call of a tool: the context, and a way to ask the user through the client. */
export interface ToolCall {
  ctx: McpContext;
  /** Asks the user a yes/no question through MCP elicitation; 'unsupported' when the client cannot. */
  ask(message: string): Promise<Consent>;
  /** Aborted when the client cancels the call (notifications/cancelled, or its HTTP request dropped). */
  signal?: AbortSignal;
}

/** Told truthfully: clients decide from these whether to ask before calling. */
export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolDef<S extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  /** Flat: one zod field per argument, each with a description a model can act on. */
  input: S;
  /** A read tool's answer (its structuredContent), declared as the outputSchema clients validate against. */
  output?: z.ZodRawShape;
  annotations: Annotations;
  /** Only on this computer: the tool takes no `device` argument. */
  local?: true;
  handler(args: z.infer<z.ZodObject<S>>, call: ToolCall): Promise<ToolOutput>;
}

export type { McpContext };

export const defineTool = <S extends z.ZodRawShape>(def: ToolDef<S>): ToolDef<S> => def;

/** Any tool definition, whatever its schema. */
export type AnyToolDef = ToolDef<any>;

/** Told what became of a call the client cancelled: it never reads that call's result (MCP sends none). */
export type OnCancelled = (tool: string, outcome: CallToolResult) => void;

export function registerTools(
  server: McpServer,
  tools: readonly AnyToolDef[],
  ctx: McpContext,
  ask: (message: string, extra: unknown) => Promise<Consent>,
  onCancelled: OnCancelled = () => {},
): void {
  for (const tool of tools) {
    const inputSchema = tool.local ? tool.input : { ...tool.input, device: deviceField };
    const body = async (args: Record<string, unknown>, extra: unknown, signal: AbortSignal | undefined) => {
      const { device, ...rest } = args;
      // device: "all" reads every device's desk at once (every-device.ts); a tool that acts refuses it there.
      if (!tool.local && namesEveryDevice(device)) return readOnEveryDevice(tool.name, rest, ctx);
      // The signal reaches whatever waits on another device, which withdraws its row when the client cancels.
      const on = tool.local ? ctx : await contextOnDevice(ctx, device as string | undefined, signal);
      return onDevice(await tool.handler(rest, { ctx: on, ask: (message) => ask(message, extra), ...(signal ? { signal } : {}) }), on);
    };
    const handler = async (args: unknown, extra: unknown) => {
      const signal = (extra as { signal?: AbortSignal } | undefined)?.signal;
      const result = await funnel(() => body(args as Record<string, unknown>, extra, signal));
      // A client validates any structuredContent against the outputSchema, errors too: a read tool's error is its text alone.
      if (tool.output && result.isError) delete result.structuredContent;
      if (signal?.aborted) onCancelled(tool.name, result);
      return result;
    };
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema, ...outputSchemaOf(tool), annotations: { title: tool.title, ...tool.annotations } },
      handler as never,
    );
  }
}

/** Where another device answered, the answer says which (see onDevice). */
const answeredBy = z.object({ id: z.string(), name: z.string() }).optional().describe('The device that answered, when not this computer.');

/** Open at the top as well, so an answer that adds a field (e.g. device: "all"'s devices) still validates. */
function outputSchemaOf(tool: AnyToolDef): { outputSchema?: z.ZodObject } {
  return tool.output ? { outputSchema: z.object(tool.local ? tool.output : { ...tool.output, device: answeredBy }).loose() } : {};
}
