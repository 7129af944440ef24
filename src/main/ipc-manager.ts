import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { IPC, IPC_CHANNELS, type IpcChannel, type IpcHandlers, type IpcResult } from '../protocol/ipc';
import { formatFieldError, zodErrors } from '../protocol/validation';

export type { IpcHandlers };

type Invoke = (event: Pick<IpcMainInvokeEvent, 'sender'>, payload: unknown) => Promise<IpcResult<unknown>>;

/**
 * One guarded handler per channel: a request from any web contents other than our own
 * windows is refused, and every payload is validated before a handler sees it. Errors come
 * back as messages, never as exceptions across the bridge.
 */
export function guardedHandlers(handlers: IpcHandlers, isTrustedSender: (sender: WebContents) => boolean): Record<IpcChannel, Invoke> {
  const entries = IPC_CHANNELS.map((channel): [IpcChannel, Invoke] => [
    channel,
    async (event, payload) => {
      if (!isTrustedSender(event.sender)) return { ok: false, error: 'refused: unknown sender' };
      const parsed = IPC[channel].request.safeParse(payload);
      if (!parsed.success) {
        return { ok: false, error: zodErrors(parsed.error, payload).map(formatFieldError).join('; ') };
      }
      try {
        const handler = handlers[channel] as (r: unknown) => Promise<unknown>;
        return { ok: true, value: await handler(parsed.data) };
      } catch (e) {
        return { ok: false, error: e instanceof Error ? e.message : String(e) };
      }
    },
  ]);
  return Object.fromEntries(entries) as Record<IpcChannel, Invoke>;
}

export function registerIpc(ipcMain: IpcMain, handlers: IpcHandlers, isTrustedSender: (sender: WebContents) => boolean): void {
  for (const [channel, invoke] of Object.entries(guardedHandlers(handlers, isTrustedSender))) {
    ipcMain.handle(channel, invoke);
  }
}
