import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { IPC, IPC_CHANNELS, type IpcChannel, type IpcHandlers, type IpcResult } from '../protocol/ipc';
import { formatFieldError, zodErrors } from '../protocol/validation';
import { DeskPilotError, errorMessage } from '../engine/errors';

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
      if (!isTrustedSender(event.sender)) return { ok: false, error: 'refused: unknown sender', code: 'refused' };
      const parsed = IPC[channel].request.safeParse(payload);
      if (!parsed.success) {
        const fields = zodErrors(parsed.error, payload);
        return { ok: false, error: fields.map(formatFieldError).join('; '), code: 'invalid_input', fields };
      }
      try {
        const handler = handlers[channel] as (r: unknown) => Promise<unknown>;
        return { ok: true, value: await handler(parsed.data) };
      } catch (e) {
        return { ok: false, error: errorMessage(e), code: e instanceof DeskPilotError ? e.code : 'failed' };
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
