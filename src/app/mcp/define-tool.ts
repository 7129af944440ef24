import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { z } from 'zod';
import type { Consent } from './consent';
import type { McpContext } from './call-context';
import { contextOnDevice, deviceField, onDevice } from './device-context';
import { funnel, type ToolOutput } from './tool-error';

// Each tool is defined in one place — name, input schema, description, annotations and
// handler — and registered the same way, through the one error funnel.


/** One call of a tool: the context, and a way to ask the user through the client. */
export interface ToolCall {
  ctx: McpContext;
  /** Asks the user a yes/no question through MCP elicitation; 'unsupported' when the client cannot. */
  ask(message: string): Promise<Consent>;
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
  annotations: Annotations;
  /** Only on this computer: the tool takes no `device` argument. */
  local?: true;
  handler(args: z.infer<z.ZodObject<S>>, call: ToolCall): Promise<ToolOutput>;
}

export type { McpContext };

export const defineTool = <S extends z.ZodRawShape>(def: ToolDef<S>): ToolDef<S> => def;

/** Any tool definition, whatever its schema. */
export type AnyToolDef = ToolDef<any>;

export function registerTools(server: McpServer, tools: readonly AnyToolDef[], ctx: McpContext, ask: (message: string, extra: unknown) => Promise<Consent>): void {
  for (const tool of tools) {
    const inputSchema = tool.local ? tool.input : { ...tool.input, device: deviceField };
    const body = async (args: Record<string, unknown>, extra: unknown) => {
      const { device, ...rest } = args;
      const on = tool.local ? ctx : await contextOnDevice(ctx, device as string | undefined);
      return onDevice(await tool.handler(rest, { ctx: on, ask: (message) => ask(message, extra) }), on);
    };
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema, annotations: { title: tool.title, ...tool.annotations } },
      ((args: unknown, extra: unknown) => funnel(() => body(args as Record<string, unknown>, extra))) as never,
    );
  }
}
