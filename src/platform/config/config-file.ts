import { z } from 'zod';
import { AgentConfigFile } from './agent-config';
import { DEFAULT_LLM_TIMEOUT_MS, LLM_TIMEOUT_MAX_MS, LLM_TIMEOUT_MIN_MS, LLM_TIMEOUT_RULE } from './llm-timeout';

/** The window backends `windows.backend` may name; "auto" picks one from the session (compose/window-backend-choice.ts). */
export const WINDOWS_BACKENDS = ['auto', 'x11', 'sway', 'kwin', 'gnome'] as const;
export type WindowsBackendSetting = (typeof WINDOWS_BACKENDS)[number];
export const WINDOWS_BACKEND_RULE = `must be one of ${WINDOWS_BACKENDS.map((b) => `"${b}"`).join(', ')}`;

// config.json in the config dir. Every field is optional; unknown fields are errors so a
// typo ("chrome_url") is reported instead of silently ignored.
export const ConfigFile = z.strictObject({
  chrome: z
    .strictObject({
      url: z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' }).optional().describe('Explicit DevTools endpoint: http://127.0.0.1:9222 or ws://…'),
      allow_remote: z.boolean({ error: 'must be true or false' }).optional().describe('Allow a non-loopback DevTools endpoint.'),
      path: z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' }).optional().describe('Chrome executable for `deskpilot chrome launch`.'),
    })
    .optional(),
  llm: z
    .strictObject({
      base_url: z.string({ error: 'must be a string' }).trim().url({ error: 'must be a URL such as http://localhost:11434/v1' }).optional().describe('OpenAI-compatible endpoint, e.g. http://localhost:11434/v1'),
      model: z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' }).optional(),
      api_key: z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' }).optional().describe('Prefer DESKPILOT_LLM_API_KEY; a key here is stored in plain text.'),
      mode: z.enum(['strict', 'json_object'], { error: 'must be "strict" or "json_object"' }).optional().describe('json_object for servers/models without strict JSON schemas.'),
      timeout_ms: z
        .number({ error: LLM_TIMEOUT_RULE })
        .int({ error: LLM_TIMEOUT_RULE })
        .min(LLM_TIMEOUT_MIN_MS, { error: LLM_TIMEOUT_RULE })
        .max(LLM_TIMEOUT_MAX_MS, { error: LLM_TIMEOUT_RULE })
        .optional()
        .describe(`Timeout of one LLM request, retries included (default ${DEFAULT_LLM_TIMEOUT_MS}).`),
    })
    .optional(),
  /** Agent mode (deskpilot agent): models, limits, domain lists, saved Tools, secret names. */
  agent: AgentConfigFile.optional(),
  /** Cross-device sync: the server every device of this user connects to, and this device's name there. */
  sync: z
    .strictObject({
      url: z
        .string({ error: 'must be a string' })
        .trim()
        .regex(/^wss?:\/\/[^\s]+$/, { error: 'must be a ws:// or wss:// URL such as wss://sync.example.org' })
        .optional()
        .describe('The DeskPilot sync server (`deskpilot sync-server`), e.g. wss://sync.example.org'),
      device_name: z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' }).max(60, { error: 'must be at most 60 characters' }).optional().describe('What this device is called on the others (default: the host name).'),
      allow_insecure: z
        .boolean({ error: 'must be true or false' })
        .optional()
        .describe('Allow a ws:// (unencrypted) sync.url to a host other than this computer (default: refused; use wss://).'),
    })
    .optional(),
  /** Window placement: which backend (default "auto": from the session, see `deskpilot doctor`). */
  windows: z
    .strictObject({
      backend: z.enum(WINDOWS_BACKENDS, { error: WINDOWS_BACKEND_RULE }).optional().describe('auto (default), x11, sway (also i3), kwin or gnome.'),
    })
    .optional(),
  /** The app's own settings; the CLI ignores them. */
  ui: z
    .strictObject({
      hotkeys: z.strictObject({ launcher: z.string().trim().min(1).max(100).optional(), voice: z.string().trim().min(1).max(100).optional() }).optional(),
      confirm: z.strictObject({ close_tab: z.boolean().optional(), close_app: z.boolean().optional() }).optional(),
      launch_at_login: z.boolean({ error: 'must be true or false' }).optional(),
    })
    .optional(),
  voice: z
    .strictObject({
      enabled: z.boolean({ error: 'must be true or false' }).optional(),
      base_url: z.string().trim().url({ error: 'must be a URL such as https://api.openai.com/v1' }).optional(),
      model: z.string().trim().min(1).max(200).optional(),
    })
    .optional(),
});
export type ConfigFile = z.infer<typeof ConfigFile>;
