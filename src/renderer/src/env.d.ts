import type { RendererApi } from '../../protocol/ipc';

declare global {
  interface Window {
    api: RendererApi;
  }
}
