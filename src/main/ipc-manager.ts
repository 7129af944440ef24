import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { IPC, IPC_CHANNELS, type IpcChannel, type IpcRequest, type IpcResponse, type IpcResult } from '../protocol/ipc';
import { formatFieldError, zodErrors } from '../protocol/validation';

export type IpcHandlers = { [C in IpcChannel]: (request: IpcRequest<C>) => Promise<IpcResponse<C>> };

/**
 * Registers every channel of the contract. A request from any web contents other than our
 * own windows is refused, and every payload is validated before a handler sees it.
 */
export function registerIpc(handlers: IpcHandlers, isTrustedSender: (sender: WebContents) => boolean): void {
  for (const channel of IPC_CHANNELS) {
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, payload: unknown): Promise<IpcResult<unknown>> => {
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
    });
  }
}
