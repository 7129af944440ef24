import { PageCommand } from '../../protocol/agent';
import { echo } from '../../protocol/echo';
import { jsonSyntaxReason } from '../../protocol/json-syntax';
import { formatFieldError, zodErrors } from '../../protocol/validation';

// The executor's answer → exactly one PageCommand. Three forms are accepted:
//   1. structured output: the whole answer is JSON — `{"command": {…}}` (strict mode, where
//      null stands for an absent field) or the command object itself;
//   2. `<tool_code>{…}</tool_code>` anywhere in the text (preferred in prose answers);
//   3. a legacy ```json fenced block whose object carries a "tool" property
//      (`{"tool": "click", "inputs": {"id": 3}}` or `{"tool": "click", "id": 3}`).
// Nothing else counts: JSON in prose, or a fenced block without "tool", is not a command —
// so an answer that merely quotes something is never executed. More than one command in
// one answer is refused (one command per turn).

export type ParsedCommand = { ok: true; command: PageCommand } | { ok: false; error: string };

const ACTIONS = PageCommand.options.map((o) => o.shape.action.value);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const fail = (error: string): ParsedCommand => ({ ok: false, error });

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: jsonSyntaxReason(e) };
  }
}

/** The inside of a <tool_code> block, which some models fence once more. */
function unfence(text: string): string {
  const m = /^\s*```[\w-]*[^\S\n]*\n?([\s\S]*?)(?:```\s*)?$/.exec(text);
  return (m ? m[1]! : text).trim();
}

export function parseExecutorAnswer(raw: string): ParsedCommand {
  const text = raw.replace(/^\uFEFF/, '').replace(/<think>[\s\S]*?(<\/think>|$)/gi, '').trim();
  if (!text) return fail('the answer is empty');

  // 1. <tool_code> blocks (an unclosed last one, cut off by the length limit, counts to the end).
  const blocks = [...text.matchAll(/<tool_code>([\s\S]*?)(?:<\/tool_code>|$)/gi)].map((m) => m[1]!);
  if (blocks.length > 1) return fail(`the answer holds ${blocks.length} <tool_code> blocks; give exactly one command per answer`);
  if (blocks.length === 1) {
    const parsed = parseJson(unfence(blocks[0]!));
    if (!parsed.ok) return fail(`the <tool_code> block is not valid JSON (${parsed.error})`);
    return toCommand(parsed.value);
  }

  // 2. The whole answer is JSON: structured output.
  const whole = parseJson(text);
  if (whole.ok) return toCommand(whole.value);

  // 3. Legacy fenced JSON, only with a "tool" property.
  const fenced: unknown[] = [];
  let fencedWithoutTool = false;
  for (const [, inner] of text.matchAll(/```[\w-]*[^\S\n]*\n?([\s\S]*?)(?:```|$)/g)) {
    const parsed = parseJson(inner!.trim());
    if (!parsed.ok) continue;
    if (isRecord(parsed.value) && typeof parsed.value.tool === 'string') fenced.push(parsed.value);
    else fencedWithoutTool = true;
  }
  if (fenced.length > 1) return fail(`the answer holds ${fenced.length} fenced commands; give exactly one command per answer`);
  if (fenced.length === 1) return toCommand(fenced[0]);
  if (fencedWithoutTool) {
    return fail('a fenced JSON block counts only with a "tool" property; write the command as <tool_code>{"action": …}</tool_code>');
  }
  return fail('the answer holds no command; write exactly one command as <tool_code>{"action": …}</tool_code>');
}

/** A parsed JSON value → a validated command, with every problem said in `path: reason` form. */
export function toCommand(value: unknown): ParsedCommand {
  let candidate = value;
  if (Array.isArray(candidate)) return fail('the answer holds a list; give exactly one command per answer');
  if (isRecord(candidate) && !('action' in candidate) && !('tool' in candidate) && 'command' in candidate) {
    candidate = candidate.command; // the structured-output wrapper
    if (Array.isArray(candidate)) return fail('"command" holds a list; give exactly one command per answer');
  }
  if (!isRecord(candidate)) return fail('the command must be a JSON object with an "action"');
  // A legacy call: "tool" names it (its "action" field, if any, belongs to navigate/manageTabs).
  if (typeof candidate.tool === 'string' && !ACTIONS.includes(candidate.action as never)) {
    const mapped = fromLegacy(candidate);
    if (!mapped.ok) return fail(mapped.error);
    candidate = mapped.value;
  }
  // Strict structured output has no optional fields: null stands for "absent".
  const cleaned = Object.fromEntries(Object.entries(candidate as Record<string, unknown>).filter(([, v]) => v !== null && v !== undefined));
  if (typeof cleaned.action !== 'string' || !ACTIONS.includes(cleaned.action as never)) {
    const got = cleaned.action === undefined ? 'is required' : `${echo(JSON.stringify(cleaned.action) ?? String(cleaned.action))} is not one`;
    return fail(`action: ${got}; it must be one of ${ACTIONS.join(', ')}`);
  }
  const parsed = PageCommand.safeParse(cleaned);
  if (!parsed.success) return fail(zodErrors(parsed.error, cleaned).map(formatFieldError).join('; '));
  return { ok: true, command: parsed.data };
}

// ---- legacy tool calls (`{ "tool": "clickElement", "inputs": { … } }`, as older agent prompts asked) ----

type Fields = Record<string, unknown>;
const first = (f: Fields, ...keys: string[]) => keys.map((k) => f[k]).find((v) => v !== undefined && v !== null);
const num = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v);
const elementOf = (f: Fields) => num(first(f, 'id', 'elementId', 'element_id', 'element'));

const LEGACY: Record<string, (f: Fields) => Fields> = {
  click: (f) => {
    const how = first(f, 'clickType', 'click_type');
    return { action: 'click', id: elementOf(f), count: how === 'double' ? 2 : f.count, button: how === 'right' ? 'right' : f.button };
  },
  type: (f) => ({ action: 'type', id: elementOf(f), value: first(f, 'value', 'text'), mode: f.mode, submit: f.submit }),
  select: (f) => {
    const option = first(f, 'option', 'value');
    const by = first(f, 'by');
    return {
      action: 'select',
      id: elementOf(f),
      option: isRecord(option) ? option : by === 'text' ? { text: option } : by === 'index' ? { index: num(option) } : { value: option },
    };
  },
  press_key: (f) => ({ action: 'press_key', key: first(f, 'key', 'keys'), id: elementOf(f) }),
  scroll: (f) => ({ action: 'scroll', direction: f.direction, id: elementOf(f) ?? num(f.target), amount: f.amount }),
  navigate: (f) => {
    const how = first(f, 'action', 'direction');
    const url = first(f, 'url');
    return { action: 'navigate', to: f.to ?? (how === 'back' || how === 'forward' || how === 'reload' ? how : url !== undefined ? { url } : undefined) };
  },
  wait_for: (f) => {
    const kind = String(first(f, 'waitType', 'wait_type', 'condition') ?? '').toLowerCase().replace(/[^a-z]/g, '');
    const text = first(f, 'text');
    const selector = first(f, 'selector');
    const condition =
      kind === 'navigation' ? 'navigation' : kind === 'networkidle' ? 'network_idle' : selector !== undefined ? { selector } : text !== undefined ? { text } : f.condition;
    return { action: 'wait_for', condition, timeout_ms: first(f, 'timeout_ms', 'timeout', 'timeoutMs') };
  },
  read_page: (f) => ({ action: 'read_page', id: elementOf(f), max_chars: first(f, 'max_chars', 'maxChars') }),
  get_html: (f) => ({ action: 'get_html', id: elementOf(f), max_chars: first(f, 'max_chars', 'maxChars') }),
  open_tab: (f) => ({ action: 'open_tab', url: f.url }),
  open_tool: (f) => ({ action: 'open_tool', name: first(f, 'name', 'tool_name', 'toolName') }),
  switch_tab: (f) => ({ action: 'switch_tab', tab: num(first(f, 'tab', 'tabId', 'tab_id')) }),
  close_tab: (f) => ({ action: 'close_tab', tab: num(first(f, 'tab', 'tabId', 'tab_id')) }),
  list_tabs: () => ({ action: 'list_tabs' }),
  done: (f) => ({ action: 'done', answer: first(f, 'answer', 'text', 'message', 'result') }),
};

const LEGACY_NAMES: Record<string, keyof typeof LEGACY> = {
  click: 'click',
  clickelement: 'click',
  type: 'type',
  typetext: 'type',
  fill: 'type',
  select: 'select',
  selectoption: 'select',
  presskey: 'press_key',
  press: 'press_key',
  scroll: 'scroll',
  navigate: 'navigate',
  goto: 'navigate',
  waitfor: 'wait_for',
  wait: 'wait_for',
  readpage: 'read_page',
  gethtml: 'get_html',
  gettext: 'read_page',
  opentab: 'open_tab',
  openurl: 'open_tab',
  opentool: 'open_tool',
  switchtab: 'switch_tab',
  closetab: 'close_tab',
  listtabs: 'list_tabs',
  done: 'done',
  finish: 'done',
};

function fromLegacy(call: Record<string, unknown>): { ok: true; value: Fields } | { ok: false; error: string } {
  const name = String(call.tool).toLowerCase().replace(/[^a-z]/g, '');
  const { tool: _tool, inputs, parameters, arguments: args, ...rest } = call;
  const nested = [inputs, parameters, args].find(isRecord);
  const fields: Fields = nested ? { ...rest, ...nested } : rest;
  if ('selector' in fields && elementOf(fields) === undefined && LEGACY_NAMES[name] !== 'wait_for') {
    return { ok: false, error: 'CSS selectors are not supported; address elements by their number ("id") from the latest snapshot' };
  }
  let target = LEGACY_NAMES[name];
  if (name === 'managetabs') {
    const how = String(fields.action ?? '');
    target = how === 'open' ? 'open_tab' : how === 'close' ? 'close_tab' : how === 'switch' ? 'switch_tab' : how === 'list' ? 'list_tabs' : undefined;
    delete fields.action;
  }
  if (!target) return { ok: false, error: `tool: unknown tool ${echo(JSON.stringify(call.tool) ?? String(call.tool))}; use an action: ${ACTIONS.join(', ')}` };
  const mapped = LEGACY[target]!(fields);
  return { ok: true, value: Object.fromEntries(Object.entries(mapped).filter(([, v]) => v !== undefined)) };
}
