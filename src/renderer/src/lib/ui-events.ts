import type { IpcEvent, IpcEventPayloads, RendererEvents } from '../../../protocol/ipc-channels';

/** Subscribes to a push from main ('ui:show', 'ui:voice', 'agent:update'); a no-op where there is no bridge. */
export function onUiEvent<E extends IpcEvent>(event: E, listener: (payload: IpcEventPayloads[E]) => void): () => void {
  const events = (window as { events?: RendererEvents }).events;
  if (!events || typeof events.on !== 'function') return () => {};
  try {
    const off = events.on(event, listener);
    return typeof off === 'function' ? off : () => {};
  } catch {
    return () => {};
  }
}
