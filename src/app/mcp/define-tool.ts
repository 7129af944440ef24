import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { z } from 'zod';
import type { ConfirmPolicy } from '../../protocol/prepared-batch';
import type { Desk } from '../desk';
import type { Consent } from './consent';
import type { HeldPlans } from './held-plans';
import type { SnapshotStore } from './snapshot-store';
import { funnel, type ToolOutput } from './tool-error';

// Each tool is defined in one place — name, input schema, description, annotations and
// handler — and registered the same way, through the one error funnel.

/** What every tool works with: the desk (the warm service or an engine in this process) and the snapshots handed out. */
export interface McpContext {
  desk: Desk;
  snapshots: SnapshotStore;
  /** Which kinds ask the user before they run (config.json ui.confirm, read on each call). */
  confirmPolicy(): Promise<ConfirmPolicy>;
  /** `do` plans waiting for a confirm: true. */
  held: HeldPlans;
}

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
  handler(args: z.infer<z.ZodObject<S>>, call: ToolCall): Promise<ToolOutput>;
}

export const defineTool = <S extends z.ZodRawShape>(def: ToolDef<S>): ToolDef<S> => def;

/** Any tool definition, whatever its schema. */
export type AnyToolDef = ToolDef<any>;

export function registerTools(server: McpServer, tools: readonly AnyToolDef[], ctx: McpContext, ask: (message: string, extra: unknown) => Promise<Consent>): void {
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: { title: tool.title, ...tool.annotations } },
      ((args: unknown, extra: unknown) => funnel(() => tool.handler(args as Record<string, unknown>, { ctx, ask: (message) => ask(message, extra) }))) as never,
    );
  }
}
