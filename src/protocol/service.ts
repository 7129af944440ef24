import { z } from 'zod';
import { Envelope } from './commands';
import { HeldConfirm, HeldToken } from './confirm-token';
import { ContextSnapshot } from './context';
import { PreparedBatch, ResolvedCommand } from './prepared-batch';
import { Preset } from './preset';
import { ConsentRequest } from './remote-consent';
import { ExecReportSchema } from './report';
import { MAX_SERVICE_LINE } from './service-wire';
import { TurnSchema } from './turn';

// The warm service's socket protocol: newline-delimited JSON, one request → one response
// (matched by id), plus events the service pushes to subscribers and, while it runs the CLI
// for the thin client, that call's output and questions (src/protocol/service-wire.ts). It
// carries the same typed things as the IPC, the MCP tools and the queue rows — words to plan,
// input to prepare, a PreparedBatch to run, a report back — and both ends check what they receive.

export const SERVICE_PROTOCOL_VERSION = 1;
export { MAX_SERVICE_LINE };

const PlannerModeSchema = z.enum(['auto', 'local', 'llm']);
const Frontmost = z.strictObject({ app: z.string().max(256), title: z.string().max(2000) }).nullable();

const req = <M extends string, P extends z.ZodType>(method: M, params: P) =>
  z.strictObject({ id: z.number().int().nonnegative(), method: z.literal(method), params });
const none = z.strictObject({});

export const ServiceRequest = z.discriminatedUnion('method', [
  req('hello', none),
  req('health', none),
  req('snapshot', z.strictObject({ summaries: z.boolean() })),
  req('plan', z.strictObject({ text: z.string().min(1).max(4000), mode: PlannerModeSchema, snapshot: ContextSnapshot.optional(), frontmost: Frontmost.optional() })),
  req('prepare', z.strictObject({ input: z.unknown(), snapshot: ContextSnapshot.optional() })),
  req('run', z.strictObject({ batch: z.unknown() })),
  req('exec', z.strictObject({ input: z.unknown(), dry_run: z.boolean(), snapshot: ContextSnapshot.optional() })),
  req('remember', z.strictObject({ turn: TurnSchema })),
  req('presets.list', none),
  req('presets.save', z.strictObject({ name: z.string(), apps: z.array(z.string()).optional() })),
  req('presets.delete', z.strictObject({ name: z.string() })),
  req('subscribe', z.strictObject({ topics: z.array(z.enum(['desk'])).min(1) })),
  // The thin CLI client: the service runs the CLI's own main(argv) for it. Relative paths in
  // argv resolve against `cwd`; `interactive` and `columns` are the client's terminal; `build`
  // is the client's build: a service of another build refuses before running anything (so the
  // client need not ask hello first).
  req(
    'cli',
    z.strictObject({
      build: z.string().min(1).max(100).optional(),
      argv: z.array(z.string()).max(1000),
      cwd: z.string().min(1).max(4096),
      interactive: z.boolean(),
      columns: z.strictObject({ out: z.number().int().positive().optional(), err: z.number().int().positive().optional() }).optional(),
    }),
  ),
  /** The line the client's user typed for the question (`ask`) of the running `cli` call `call`. */
  req('cli.answer', z.strictObject({ call: z.number().int().nonnegative(), line: z.string().max(100_000) })),
  /** Other devices' requests to close things on this desk, waiting for this desk's user (`deskpilot devices requests`). */
  req('consent.list', none),
  /** This desk's user answers one (`deskpilot devices approve|deny ID`). */
  req('consent.answer', z.strictObject({ id: ConsentRequest.shape.id, yes: z.boolean() })),
  /** A batch shown to a user, held until their yes comes back with its confirm_token (any MCP process may bring it). */
  req('confirm.hold', z.strictObject({ entry: HeldConfirm })),
  /** The batch a confirm_token names, once. */
  req('confirm.take', z.strictObject({ token: z.string().min(1).max(200) })),
]);
export type ServiceRequest = z.infer<typeof ServiceRequest>;
export type ServiceMethod = ServiceRequest['method'];
export type ServiceParams<M extends ServiceMethod> = Extract<ServiceRequest, { method: M }>['params'];

export const Hello = z.strictObject({
  service: z.literal('deskpilot'),
  protocol: z.number().int(),
  version: z.string(),
  pid: z.number().int(),
  device_id: z.string(),
  started_at: z.string(),
  config_dir: z.string(),
  /** Present when this host runs the CLI for thin clients: the build of the CLI it runs (a client of another build runs its own). */
  build: z.string().optional(),
});
export type Hello = z.infer<typeof Hello>;

/** Cheap status: what is connected, without listing every tab and window. */
export const Health = z.strictObject({
  chrome: z.strictObject({ ok: z.boolean(), message: z.string() }),
  windows: z.strictObject({ ok: z.boolean(), message: z.string() }),
  planner: z.strictObject({ kind: z.enum(['local', 'llm']), description: z.string() }),
  /** From a service: the requests it answered since it started, by method (how a client can tell it was used). */
  served: z.record(z.string(), z.number().int().nonnegative()).optional(),
});
export type Health = z.infer<typeof Health>;

const Candidate = z.strictObject({ label: z.string(), envelope: Envelope, resolved: z.array(ResolvedCommand) });

export const PlanOutcomeSchema = z.strictObject({
  envelope: Envelope,
  resolved: z.array(ResolvedCommand),
  planner: z.enum(['local', 'llm']),
  plannerDescription: z.string(),
  confidence: z.number(),
  timings: z.strictObject({ plan_ms: z.number(), repaired: z.boolean() }),
  usage: z.strictObject({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullable(),
  candidates: z.array(Candidate),
  note: z.string().optional(),
  backendDown: z.boolean().optional(),
});

export const PlanResultSchema = z.strictObject({
  outcome: PlanOutcomeSchema,
  snapshot: ContextSnapshot,
  turns: z.array(TurnSchema),
  batch: PreparedBatch.nullable(),
  choices: z.array(z.strictObject({ label: z.string(), batch: PreparedBatch })),
});

export const PreparedSchema = z.union([
  z.strictObject({ ok: z.literal(true), batch: PreparedBatch }),
  z.strictObject({ ok: z.literal(false), report: ExecReportSchema }),
]);


/** What each method answers; the client checks the answer with it. */
export const SERVICE_RESULTS = {
  hello: Hello,
  health: Health,
  snapshot: ContextSnapshot,
  plan: PlanResultSchema,
  prepare: PreparedSchema,
  run: ExecReportSchema,
  exec: ExecReportSchema,
  remember: z.strictObject({ ok: z.literal(true) }),
  'presets.list': z.array(Preset),
  'presets.save': Preset,
  'presets.delete': z.strictObject({ deleted: z.boolean() }),
  subscribe: z.strictObject({ topics: z.array(z.string()) }),
  cli: z.strictObject({ exit_code: z.number().int() }),
  'cli.answer': z.strictObject({ ok: z.literal(true) }),
  'consent.list': z.strictObject({ requests: z.array(ConsentRequest) }),
  'consent.answer': z.strictObject({ ok: z.literal(true) }),
  'confirm.hold': HeldToken,
  'confirm.take': z.strictObject({ entry: HeldConfirm.nullable() }),
} as const satisfies Record<ServiceMethod, z.ZodType>;

export const ServiceError = z.strictObject({ code: z.string(), message: z.string() });
export type ServiceError = z.infer<typeof ServiceError>;

export const ServiceResponse = z.union([
  z.strictObject({ id: z.number().int(), ok: z.literal(true), result: z.unknown() }),
  z.strictObject({ id: z.number().int(), ok: z.literal(false), error: ServiceError }),
]);
export type ServiceResponse = z.infer<typeof ServiceResponse>;

/** Pushed to subscribers: the desk changed (tabs or windows); `at` is the service's clock. */
export const ServiceEvent = z.strictObject({ event: z.literal('desk.changed'), data: z.strictObject({ at: z.number(), what: z.array(z.enum(['tabs', 'windows'])) }) });
export type ServiceEvent = z.infer<typeof ServiceEvent>;
