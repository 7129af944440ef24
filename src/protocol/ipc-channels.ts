// Channel names and the renderer's method names, free of runtime imports: the sandboxed
// preload bundles this file and may require nothing but electron (type imports are erased).

import type { AgentRunView } from './agent-view';
import type { DeskIndex } from './launcher';

export const IPC_CHANNELS = [
  'app:status',
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
  'window:fit',
  'ui:modal',
  'launcher:index',
  'launcher:preview',
  'launcher:act',
  'agent:start',
  'agent:approve',
  'agent:stop',
  'agent:correct',
  'agent:status',
  'agent:confirm',
  'devices:list',
] as const;
export type IpcChannel = (typeof IPC_CHANNELS)[number];

/** 'context:get' → 'contextGet' */
export type CamelChannel<S extends string> = S extends `${infer A}:${infer B}` ? `${A}${Capitalize<B>}` : S;

export const methodName = <C extends IpcChannel>(channel: C): CamelChannel<C> =>
  channel.replace(/:(\w)/, (_, c: string) => c.toUpperCase()) as CamelChannel<C>;

/**
 * Main → renderer pushes (not requests): 'ui:show' when a window was just shown (focus the
 * input), 'ui:voice' when the push-to-talk hotkey was pressed (start/stop recording),
 * 'agent:update' with the agent run's whole state each time it changes, 'launcher:index' with
 * a new desk index when tabs or windows changed while the launcher's list is in use.
 */
export const IPC_EVENTS = ['ui:show', 'ui:voice', 'agent:update', 'launcher:index'] as const;
export type IpcEvent = (typeof IPC_EVENTS)[number];

/** What each push carries (undefined: nothing). */
export interface IpcEventPayloads {
  'ui:show': undefined;
  'ui:voice': undefined;
  'agent:update': AgentRunView;
  'launcher:index': DeskIndex;
}

/** `window.events`: subscribe to main's pushes; returns an unsubscribe function. */
export interface RendererEvents {
  on<E extends IpcEvent>(event: E, listener: (payload: IpcEventPayloads[E]) => void): () => void;
}
