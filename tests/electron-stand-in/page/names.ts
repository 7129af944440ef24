// Names and messages shared by the page-side scripts and the stand-in's main process (no code
// that runs on import: both sides import this).

export const PRELOAD_WORLD = 'deskpilot-preload';
/** A DevTools binding in the preload world only: preload → main process. */
export const IPC_BINDING = '__deskpilotStandInIpc';
/** Called in the preload world by the main process: replies and pushes. */
export const IPC_REPLY = '__deskpilotStandInReply';
/** Runs the built preload with a sandboxed preload's require. */
export const RUN_PRELOAD = '__deskpilotStandInRunPreload';

export type ToMain = { kind: 'invoke'; id: number; channel: string; args: unknown[] } | { kind: 'send'; channel: string; args: unknown[] };
export type ToPreload =
  | { kind: 'reply'; id: number; ok: true; value: unknown }
  | { kind: 'reply'; id: number; ok: false; error: string }
  | { kind: 'emit'; channel: string; args: unknown[] };
