import type { IpcEvent, RendererEvents } from '../../../protocol/ipc-channels';

/** Subscribes to a push from main ('ui:show', 'ui:voice'); a no-op where there is no bridge. */
export function onUiEvent(event: IpcEvent, listener: () => void): () => void {
  const events = (window as { events?: RendererEvents }).events;
  if (!events || typeof events.on !== 'function') return () => {};
  try {
    const off = events.on(event, listener);
    return typeof off === 'function' ? off : () => {};
  } catch {
    return () => {};
  }
}
