import type { RendererApi } from '../../protocol/ipc';
import type { RendererEvents } from '../../protocol/ipc-channels';

declare global {
  interface Window {
    api: RendererApi;
    events: RendererEvents;
  }
}
