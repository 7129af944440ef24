import { z } from 'zod';

// Agent mode: page commands inside a tab, and the split between a planner model (plain-English
// steps) and an executor model (one command per turn). Elements are addressed by the numbers of
// the latest page snapshot.

const elementId = z
  .number({ error: 'must be an element number from the latest snapshot' })
  .int({ error: 'must be an element number from the latest snapshot' })
  .min(1, { error: 'must be an element number from the latest snapshot' });
const shortText = (max: number) => z.string({ error: 'must be a string' }).max(max, { error: `must be at most ${max} characters` });

export const Click = z
  .strictObject({ action: z.literal('click'), id: elementId, button: z.enum(['left', 'right']).optional(), count: z.union([z.literal(1), z.literal(2)]).optional() })
  .describe('Click an element at its centre (count 2 = double click, button right = context click).');
export const TypeText = z
  .strictObject({
    action: z.literal('type'),
    id: elementId,
    value: shortText(5000),
    mode: z.enum(['replace', 'append']).optional().describe('replace (default) clears the field first'),
    submit: z.boolean().optional().describe('press Enter afterwards'),
  })
  .describe('Type into an input, textarea or contenteditable element.');
export const Select = z
  .strictObject({
    action: z.literal('select'),
    id: elementId,
    option: z.union([
      z.strictObject({ value: shortText(500) }),
      z.strictObject({ text: shortText(500) }),
      z.strictObject({ index: z.number().int().min(0) }),
    ]),
  })
  .describe('Choose an option of a <select> by value, visible text or 0-based index.');
export const PressKey = z
  .strictObject({ action: z.literal('press_key'), key: shortText(50).min(1).describe('e.g. "Enter", "Escape", "Control+A"'), id: elementId.optional() })
  .describe('Press a key or combination, optionally focusing an element first.');
export const Scroll = z
  .strictObject({
    action: z.literal('scroll'),
    direction: z.enum(['up', 'down', 'top', 'bottom', 'toElement']),
    id: elementId.optional().describe('scroll this element instead of the page; with toElement, the element to bring into view'),
    amount: z.number().int().min(1).max(20_000).optional().describe('pixels; default one screen'),
  })
  .describe('Scroll the page or an element, or (toElement) bring element id into view.');
export const Navigate = z
  .strictObject({ action: z.literal('navigate'), to: z.union([z.literal('back'), z.literal('forward'), z.literal('reload'), z.strictObject({ url: shortText(8192).min(1) })]) })
  .describe('Go to a URL in the current tab, or back/forward/reload.');
export const WaitFor = z
  .strictObject({
    action: z.literal('wait_for'),
    condition: z.union([
      z.strictObject({ text: shortText(500).min(1) }),
      z.strictObject({ selector: shortText(500).min(1).describe('CSS selector of an element that must become visible') }),
      z.literal('navigation'),
      z.literal('network_idle'),
    ]),
    timeout_ms: z.number().int().min(100).max(30_000).optional(),
  })
  .describe('Wait (bounded) for text or a visible element to appear, a navigation, or the network to go idle.');
export const ReadPage = z
  .strictObject({ action: z.literal('read_page'), id: elementId.optional(), max_chars: z.number().int().min(100).max(20_000).optional() })
  .describe('Read the visible text of the page or of one element (bounded).');
export const GetHtml = z
  .strictObject({ action: z.literal('get_html'), id: elementId.optional(), max_chars: z.number().int().min(100).max(20_000).optional() })
  .describe('Read the HTML of the page or of one element, for extraction (bounded; scripts, styles and password values left out).');
export const OpenTab = z.strictObject({ action: z.literal('open_tab'), url: shortText(8192).min(1) }).describe('Open a URL in a new background target tab.');
export const OpenTool = z.strictObject({ action: z.literal('open_tool'), name: shortText(200).min(1) }).describe('Open a saved Tool (a named site) by name.');
export const SwitchTabAction = z
  .strictObject({ action: z.literal('switch_tab'), tab: z.number().int().min(1).describe('target tab number from the snapshot') })
  .describe('Make another target tab the current one.');
export const CloseTabAction = z.strictObject({ action: z.literal('close_tab'), tab: z.number().int().min(1) }).describe('Close a target tab.');
export const ListTabs = z
  .strictObject({ action: z.literal('list_tabs') })
  .describe("List the target tabs (number, title, URL) and the user's other open tabs (read-only: they cannot be switched to, read or acted on).");
export const Done = z.strictObject({ action: z.literal('done'), answer: shortText(8000) }).describe('The goal is reached (or cannot be): the answer for the user.');

export const PageCommand = z.discriminatedUnion('action', [
  Click,
  TypeText,
  Select,
  PressKey,
  Scroll,
  Navigate,
  WaitFor,
  ReadPage,
  GetHtml,
  OpenTab,
  OpenTool,
  SwitchTabAction,
  CloseTabAction,
  ListTabs,
  Done,
]);
export type PageCommand = z.infer<typeof PageCommand>;
export type PageAction = PageCommand['action'];

/**
 * The planner model's answer: plain-English steps and a one-line message for the user — or, when
 * the question is about the page already shown (`needs_steps: false`), no steps and the answer
 * itself as the message. Left out, needs_steps means true.
 */
export const AgentPlan = z
  .strictObject({
    needs_steps: z.boolean({ error: 'must be true or false' }).optional(),
    steps: z.array(shortText(500).min(1)).max(30),
    message: shortText(8000),
  })
  .superRefine((p, ctx) => {
    if (p.needs_steps === false) {
      if (p.steps.length > 0) ctx.addIssue({ code: 'custom', path: ['steps'], message: 'must be empty when needs_steps is false (the message is the answer)' });
      if (!p.message.trim()) ctx.addIssue({ code: 'custom', path: ['message'], message: 'must hold the answer when needs_steps is false' });
    } else {
      if (p.steps.length === 0) ctx.addIssue({ code: 'custom', path: ['steps'], message: 'must list at least one step (or set needs_steps to false and answer in message)' });
      if (p.message.length > 500) ctx.addIssue({ code: 'custom', path: ['message'], message: 'must be at most 500 characters' });
    }
  });
export type AgentPlan = z.infer<typeof AgentPlan>;

/** A plan that asks for no steps: the planner answered from the page it was shown. */
export const isDirectAnswer = (p: AgentPlan) => p.needs_steps === false;

/** A saved Tool: a named site the agent can open by name. */
export const AgentTool = z.strictObject({ name: shortText(200).min(1), url: shortText(8192).min(1) });
export type AgentTool = z.infer<typeof AgentTool>;
