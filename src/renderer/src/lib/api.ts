import type { IpcResult, RendererApi } from '../../../protocol/ipc';

// Every call to main goes through here: the bridge may be missing (a page opened outside
// the app), may reject (a transport error in the web harness) or answer slowly. Callers
// always get an IpcResult and never an exception.

const NO_BRIDGE = "DeskPilot's background service is not connected. Restart DeskPilot.";

export async function call<T>(fn: (api: RendererApi) => Promise<IpcResult<T>>): Promise<IpcResult<T>> {
  const api = (window as { api?: RendererApi }).api;
  if (!api) return { ok: false, error: NO_BRIDGE, code: 'service_gone' };
  try {
    const result = await fn(api);
    if (!result || typeof result !== 'object' || typeof result.ok !== 'boolean') {
      return { ok: false, error: 'DeskPilot sent an answer this window does not understand.', code: 'service_bad_answer' };
    }
    return result;
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e), code: 'service_gone' };
  }
}
