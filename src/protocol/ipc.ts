import { z } from 'zod';
import type { ContextSnapshot } from './context';
import type { CamelChannel, IpcChannel } from './ipc-channels';
import type { ExecReport } from './report';

export { IPC_CHANNELS, methodName, type IpcChannel } from './ipc-channels';

// The one IPC contract between the renderer and main. Main validates every request with
// these schemas and checks the sender; the renderer's `window.api` type is derived from
// this object, so the two sides cannot drift apart.

export const IPC = {
  'context:get': {
    request: z.strictObject({ summaries: z.boolean() }),
    response: null as unknown as ContextSnapshot,
  },
  'exec:run': {
    request: z.strictObject({ input: z.unknown(), dryRun: z.boolean() }),
    response: null as unknown as ExecReport,
  },
  // `satisfies` makes the compiler reject a channel missing here or one not in IPC_CHANNELS.
} as const satisfies Record<IpcChannel, unknown>;

export type IpcRequest<C extends IpcChannel> = z.infer<(typeof IPC)[C]['request']>;
export type IpcResponse<C extends IpcChannel> = (typeof IPC)[C]['response'];

/** What crosses the bridge: either the value or a message for the person. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** `window.api`: one method per channel, named after it ('context:get' → contextGet). */
export type RendererApi = {
  [C in IpcChannel as CamelChannel<C>]: (request: IpcRequest<C>) => Promise<IpcResult<IpcResponse<C>>>;
};
