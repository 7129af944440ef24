import { z } from 'zod';
import { acceleratorProblem } from './accelerator';
import type { ErrorCode } from './codes';
import { MAX_URL_LENGTH } from './commands';
import type { SourceStatus } from './context';
import type { IpcChannel, CamelChannel } from './ipc-channels';
import type { PlannerMode } from './planning';
import type { Preset } from './preset';
import type { ExecReport, PlannedCommand } from './report';
import type { FieldError } from './validation';
import { LauncherActRequest, LauncherPreviewRequest, type DeskIndex, type PlanPreview } from './launcher';

export { IPC_CHANNELS, IPC_EVENTS, methodName, type IpcChannel, type IpcEvent, type IpcEventPayloads } from './ipc-channels';

// The one IPC contract between the renderer and main. Main validates every request with
// these schemas and checks the sender; the renderer's `window.api` type is derived from
// this object, so the two sides cannot drift apart. The web test harness serves the same
// contract over a loopback bridge.

const text = z.string().trim().min(1, { error: 'must not be empty' }).max(2000, { error: 'must be at most 2000 characters' });
const name = z.string().trim().min(1, { error: 'must not be empty' }).max(256, { error: 'must be at most 256 characters' });
const id = z.string().min(1).max(100);
const url = (example: string) =>
  z.string().trim().max(MAX_URL_LENGTH, { error: `must be at most ${MAX_URL_LENGTH} characters` }).url({ error: `must be a URL such as ${example}` });

/** What a submitted request led to. Every kind carries the request id it answers. */
export type CommandResponse =
  | { kind: 'clarification'; id: string; question: string; candidates: ClarificationCandidate[] }
  /** Destructive commands wait for command:confirm; `items` lists exactly what will close (on `device`, when another). */
  | { kind: 'confirm'; id: string; items: PlannedCommand[]; plan: PlannedCommand[]; device?: DeviceBadge }
  /** `device`: it ran on another of the user's computers. */
  | { kind: 'done'; id: string; report: ExecReport; planner: 'local' | 'llm' | null; device?: DeviceBadge }
  | { kind: 'error'; id: string; message: string; code: ErrorCode };

/** Another of the user's computers, as a result names it. */
export interface DeviceBadge {
  id: string;
  name: string;
}

/** A device the launcher can send words to (sync set up); this computer is one of them. */
export interface DeviceChoice extends DeviceBadge {
  platform: string;
  online: boolean;
  this_device: boolean;
}

/** The user's devices: [] with `problem` null when sync is not set up; `problem` says why they cannot be reached. */
export interface DeviceList {
  devices: DeviceChoice[];
  problem: string | null;
}

export interface ClarificationCandidate {
  /** Button text, e.g. 'tab 2 "GitHub - deskpilot/issues"'. */
  label: string;
}

export interface HotkeyStatus {
  accelerator: string;
  registered: boolean;
  /** Why it is not registered (taken by another app, invalid), for the UI and settings. */
  error: string | null;
}

export interface AppStatus {
  planner: { kind: 'local' | 'llm'; description: string };
  chrome: SourceStatus;
  windows: SourceStatus;
  hotkeys: { launcher: HotkeyStatus; voice: HotkeyStatus };
  voice: { enabled: boolean; configured: boolean };
}

/** Settings as the renderer sees them: the API key never leaves main, only whether one is set. */
export interface SettingsView {
  llm: { base_url: string; model: string; mode: 'strict' | 'json_object'; has_api_key: boolean };
  chrome: { url: string };
  hotkeys: { launcher: string; voice: string };
  confirm: { close_tab: boolean; close_app: boolean };
  launch_at_login: boolean;
  voice: { enabled: boolean; base_url: string; model: string };
  /**
   * Settings an environment variable overrides, as dotted keys ('chrome.url', 'llm.base_url',
   * 'llm.model', 'llm.api_key', 'llm.mode'): the app uses the variable's value, not the field's.
   */
  overridden: SettingKey[];
}

/** A setting that an environment variable can override. */
export type SettingKey = 'chrome.url' | 'llm.base_url' | 'llm.model' | 'llm.api_key' | 'llm.mode';

const hotkey = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(100)
  .superRefine((value, ctx) => {
    const problem = acceleratorProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const SettingsPatch = z.strictObject({
  llm: z
    .strictObject({
      base_url: z.union([z.literal(''), url('http://localhost:11434/v1')]).optional(),
      model: z.string().trim().max(200).optional(),
      mode: z.enum(['strict', 'json_object'], { error: 'must be "strict" or "json_object"' }).optional(),
      /** '' removes the stored key. */
      api_key: z.string().trim().max(500).optional(),
    })
    .optional(),
  chrome: z
    .strictObject({
      url: z.union([z.literal(''), z.string().trim().max(MAX_URL_LENGTH, { error: `must be at most ${MAX_URL_LENGTH} characters` }).regex(/^(https?|wss?):\/\//i, { error: 'must start with http://, https://, ws:// or wss://' })]).optional(),
    })
    .optional(),
  hotkeys: z
    .strictObject({ launcher: hotkey.optional(), voice: hotkey.optional() })
    .refine((h) => !h.launcher || !h.voice || h.launcher.toLowerCase() !== h.voice.toLowerCase(), {
      error: 'must differ from the launcher hotkey',
      path: ['voice'],
    })
    .optional(),
  confirm: z.strictObject({ close_tab: z.boolean().optional(), close_app: z.boolean().optional() }).optional(),
  launch_at_login: z.boolean().optional(),
  voice: z
    .strictObject({
      enabled: z.boolean().optional(),
      base_url: z.union([z.literal(''), url('https://api.openai.com/v1')]).optional(),
      model: z.string().trim().max(200).optional(),
    })
    .optional(),
});
export type SettingsPatch = z.infer<typeof SettingsPatch>;

export type SettingsResult = { ok: true; settings: SettingsView } | { ok: false; errors: FieldError[] };

const MAX_AUDIO_BYTES = 25 * 1024 * 1024;

// ---- agent mode: a web task planned by the LLM, approved by the person, run step by step ----

const runId = z.string().min(1, { error: 'must not be empty' }).max(100);
/** A plan step as the person may edit it: the planner's own limits (src/protocol/agent.ts AgentPlan). */
const planStep = z.string().trim().min(1, { error: 'a step must not be empty' }).max(500, { error: 'a step must be at most 500 characters' });

/**
 * Where an agent run is. planning → awaiting_approval → running (→ stopping) → one of the
 * endings: done (with an answer), stopped (by the person), cancelled (the plan was not
 * approved), failed, budget (out of commands), refused (a denied domain).
 */
export type { AgentRunStatus, AgentStepState, AgentStepView, AgentRunView } from './agent-view';
import type { AgentRunView } from './agent-view';

/** The plan to approve — or, for a question the page shown answers, no steps and the answer as the message (the run is done). */
export type AgentStartResponse = { runId: string; plan: string[]; message: string } | { error: string };

export const IPC = {
  'app:status': { request: z.strictObject({}), response: null as unknown as AppStatus },
  /** Words in: plans against a fresh snapshot and runs, unless it must ask first. */
  'command:submit': {
    /** device: the id of another of the user's computers (devices:list) to plan for and run on; absent: this one. */
    request: z.strictObject({ text, mode: z.enum(['auto', 'local', 'llm']).optional(), device: id.optional() }),
    response: null as unknown as CommandResponse,
  },
  /** Completes a clarification with one of its candidates. */
  'command:choose': { request: z.strictObject({ id, candidate: z.number().int().min(0).max(50) }), response: null as unknown as CommandResponse },
  /** Answers a confirmation: accept runs the held plan (against the snapshot it was planned on). */
  'command:confirm': { request: z.strictObject({ id, accept: z.boolean() }), response: null as unknown as CommandResponse },
  /** Stops the request being planned, if any. */
  'command:cancel': { request: z.strictObject({}), response: null as unknown as { cancelled: boolean } },
  'presets:list': { request: z.strictObject({}), response: null as unknown as Preset[] },
  'presets:apply': { request: z.strictObject({ name }), response: null as unknown as CommandResponse },
  'presets:save': {
    request: z.strictObject({ name, apps: z.array(name).max(50).optional() }),
    response: null as unknown as Preset,
  },
  'presets:delete': { request: z.strictObject({ name }), response: null as unknown as { deleted: boolean } },
  'chrome:launch': { request: z.strictObject({}), response: null as unknown as { message: string } },
  'settings:get': { request: z.strictObject({}), response: null as unknown as SettingsView },
  'settings:set': { request: z.strictObject({ patch: SettingsPatch }), response: null as unknown as SettingsResult },
  'voice:transcribe': {
    request: z.strictObject({
      audio: z.instanceof(Uint8Array, { error: 'must be audio bytes' }).refine((a) => a.byteLength > 0 && a.byteLength <= MAX_AUDIO_BYTES, {
        error: `must be between 1 byte and ${MAX_AUDIO_BYTES / 1024 / 1024} MB`,
      }),
      mime: z.string().max(200, { error: 'must be at most 200 characters' }).regex(/^audio\/[\w.+-]+(;.*)?$/, { error: 'must be an audio MIME type' }),
    }),
    response: null as unknown as { text: string },
  },
  /** A confirmation or safety question opened/closed in the page: the window must not hide on blur meanwhile. */
  'ui:modal': { request: z.strictObject({ open: z.boolean() }), response: null as unknown as { ok: true } },
  /** Hides the launcher or popover (Esc). */
  'window:hide': { request: z.strictObject({}), response: null as unknown as { hidden: boolean } },
  /** The launcher's content is this tall (CSS pixels): its window takes that height. */
  'window:fit': {
    request: z.strictObject({ height: z.number().int().min(40, { error: 'must be at least 40' }).max(2000, { error: 'must be at most 2000' }) }),
    response: null as unknown as { fitted: boolean },
  },
  /** A compact index of the desk for the launcher's live list (a fresh snapshot, kept for previews and actions). */
  'launcher:index': { request: z.strictObject({}), response: null as unknown as DeskIndex },
  /** What the offline matcher would do with these words, on the newest snapshot (nothing runs); that snapshot's index comes along when the window lists from another. */
  'launcher:preview': { request: LauncherPreviewRequest, response: null as unknown as PlanPreview },
  /** An action on one listed item (switch to a tab, close it, move an app …), checked and run like any batch. */
  'launcher:act': { request: LauncherActRequest, response: null as unknown as CommandResponse },
  /**
   * Plans a web task (one run at a time; a run still waiting for approval is replaced) and
   * answers once the plan is ready; the run then waits for agent:approve. 'agent:update' pushes
   * the run's state from the start, so it can be stopped while it plans.
   */
  /** currentTab: start on the tab the person is looking at (the planner sees it) instead of fresh background tabs. */
  'agent:start': { request: z.strictObject({ goal: text, currentTab: z.boolean().optional() }), response: null as unknown as AgentStartResponse },
  /** The person's answer to the plan: approve (with `steps` when they edited them) runs it; otherwise nothing runs. */
  'agent:approve': {
    request: z.strictObject({
      runId,
      approve: z.boolean(),
      steps: z.array(planStep).min(1, { error: 'the plan needs at least one step' }).max(30, { error: 'the plan may have at most 30 steps' }).optional(),
    }),
    response: null as unknown as { started: boolean; reason?: string },
  },
  /** Stops the run: the model request in flight is dropped, the command in progress finishes. */
  'agent:stop': { request: z.strictObject({ runId }), response: null as unknown as { stopped: boolean } },
  /** A correction while the run works: it becomes the agent's next instruction. */
  'agent:correct': { request: z.strictObject({ runId, text }), response: null as unknown as { accepted: boolean } },
  'agent:status': { request: z.strictObject({ runId }), response: null as unknown as AgentRunView },
  /** Answers the run's safety question (password field, payment form). */
  'agent:confirm': { request: z.strictObject({ runId, accept: z.boolean() }), response: null as unknown as { answered: boolean } },
  /** The user's devices for the launcher's picker (sync.url set and this computer paired). */
  'devices:list': { request: z.strictObject({}), response: null as unknown as DeviceList },
  // `satisfies` makes the compiler reject a channel missing here or one not in IPC_CHANNELS.
} as const satisfies Record<IpcChannel, unknown>;

export type IpcRequest<C extends IpcChannel> = z.infer<(typeof IPC)[C]['request']>;
export type IpcResponse<C extends IpcChannel> = (typeof IPC)[C]['response'];

/** What crosses the bridge: either the value or a message for the person. */
/**
 * What every IPC call answers. A failure carries its kind as a code, and — when the request
 * itself was invalid — each bad field, so a form can mark its fields without reading words.
 */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: string; code: ErrorCode; fields?: FieldError[] };

/** `window.api`: one method per channel, named after it ('command:submit' → commandSubmit). */
export type RendererApi = {
  [C in IpcChannel as CamelChannel<C>]: (request: IpcRequest<C>) => Promise<IpcResult<IpcResponse<C>>>;
};

export type { PlannerMode };

/** One handler per channel: what the application layer serves and src/main registers. */
export type IpcHandlers = { [C in IpcChannel]: (request: IpcRequest<C>) => Promise<IpcResponse<C>> };
