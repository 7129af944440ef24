// Channel names and the renderer's method names, free of runtime imports: the sandboxed
// preload bundles this file and may require nothing but electron.

export const IPC_CHANNELS = [
  'app:status',
  'context:get',
  'exec:run',
  'command:submit',
  'command:choose',
  'command:confirm',
  'command:cancel',
  'presets:list',
  'presets:apply',
  'presets:save',
  'presets:delete',
  'chrome:launch',
  'settings:get',
  'settings:set',
  'voice:transcribe',
  'window:hide',
] as const;
export type IpcChannel = (typeof IPC_CHANNELS)[number];

/** 'context:get' → 'contextGet' */
export type CamelChannel<S extends string> = S extends `${infer A}:${infer B}` ? `${A}${Capitalize<B>}` : S;

export const methodName = <C extends IpcChannel>(channel: C): CamelChannel<C> =>
  channel.replace(/:(\w)/, (_, c: string) => c.toUpperCase()) as CamelChannel<C>;

/**
 * Main → renderer pushes (not requests): 'ui:show' when a window was just shown (focus the
 * input), 'ui:voice' when the push-to-talk hotkey was pressed (start/stop recording).
 */
export const IPC_EVENTS = ['ui:show', 'ui:voice'] as const;
export type IpcEvent = (typeof IPC_EVENTS)[number];

/** `window.events`: subscribe to main's pushes; returns an unsubscribe function. */
export interface RendererEvents {
  on(event: IpcEvent, listener: () => void): () => void;
}
