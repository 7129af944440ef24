import { encode } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { COMMAND_TYPES } from '../../protocol/commands';
import type { ContextSnapshot } from '../../protocol/context';
import { describeOperations } from '../../protocol/describe-protocol';
import type { PlanRequest } from '../ports';
import { systemPrompt, userMessage } from './system-prompt';

const snap: ContextSnapshot = {
  taken_at: '2026-11-26T10:00:00.000Z',
  monitors: [{ id: 'm1', name: 'LEFT', roles: ['main', 'left', 'right'], bounds: [0, 0, 1920, 1080], work_area: [0, 0, 1920, 1050], primary: true, scale: 1 }],
  running_apps: [{ name: 'Google Chrome', pid: 7, windows: [] }],
  installed_apps: [{ name: 'Google Chrome' }],
  tabs: [{ index: 1, title: 'Reddit', url: 'https://reddit.com/', domain: 'reddit.com', content_summary: null, is_active: true, window_index: 1, local_index: 1, target_id: 'T1' }],
  presets: [],
  sources: { windows: { ok: true, message: 'X11' }, chrome: { ok: true, message: 'Chromium' }, presets: { ok: true, message: '' } },
};

const request = (over: Partial<PlanRequest> = {}): PlanRequest => ({ text: 'close reddit', context: snap, turns: [], ...over });

describe('systemPrompt', () => {
  const prompt = systemPrompt();

  it('lists every operation with its description and fields, generated from the protocol', () => {
    for (const op of describeOperations()) {
      expect(prompt).toContain(`- ${op.type}: ${op.description}`);
      for (const f of op.fields) expect(prompt).toContain(`${f.name} (${f.type}${f.required ? '' : ', optional'}): ${f.description}`);
    }
    expect(describeOperations().map((o) => o.type)).toEqual(COMMAND_TYPES);
  });

  it('states the contract: specific indices and names, never filters; ask rather than guess', () => {
    expect(prompt).toMatch(/Never return filters/);
    expect(prompt).toMatch(/switch_tab to the matching open tab\. open_url only for a new tab/);
    expect(prompt).toContain('needs_clarification:true, commands [] (or drafts)');
    expect(prompt).toContain('Which tab: 2 "GitHub - a" or 5 "GitHub - b"?');
    expect(prompt).toMatch(/query command/);
    expect(prompt).toMatch(/recent turns/);
    expect(prompt).toMatch(/→ undo/);
  });

  it('sends named regions to layouts, and gives the bounds arithmetic from the work area for exact sizes', () => {
    expect(prompt).toContain('a named region → layout; another monitor → monitor; an exact size → bounds');
    expect(prompt).toContain('centred WxH [l+(w-W)/2, t+(h-H)/2, l+(w+W)/2, t+(h+H)/2]');
    expect(prompt).toMatch(/outer window frame/);
  });

  it('describes the answer object, so json_object mode (no schema enforcement) knows the shape', () => {
    expect(prompt).toContain('{"commands":[…],"needs_clarification":false,"clarification_reason":null}');
  });

  // 25 operations since the tab manager's joined the first 11 (shared fields are named, not explained, twice),
  // and the window layouts theirs (24 named regions, monitor targets, swap, tile, window states), and
  // window ids theirs (issue 27: window_id on the window commands, window_ids on swap and tile, ~75 tokens;
  // restore_tabs' duplicates, ~20), and browser windows theirs (issue 27: new_window and browser_window_id on
  // open_url, browser_window_id and position on move_tabs, browser_window_id on restore_tabs, ~80).
  it('stays tight: under 2555 tokens, since it goes out with every request', () => {
    expect(encode(prompt).length).toBeLessThan(2555);
  });
});

describe('userMessage', () => {
  it('holds the compact context and the request', () => {
    const text = userMessage(request());
    expect(text).toContain('1* w1 reddit.com "Reddit"');
    expect(text).toContain('LEFT main,left,right bounds [0,0,1920,1080] work [0,0,1920,1050]');
    expect(text.trimEnd().endsWith('Request: "close reddit"')).toBe(true);
  });

  it('shows recent turns, oldest first: what was said → what was done → outcome', () => {
    const turns = [
      { at: 1, text: 'put chrome on the left', envelope: { commands: [{ type: 'place_app', app_name: 'Google Chrome', monitor: 'left' }] }, outcome: 'Moved Google Chrome to LEFT.' },
      { at: 2, text: 'which tabs are open?', envelope: { commands: [], needs_clarification: true }, outcome: 'Asked: which window?' },
    ];
    const text = userMessage(request({ text: 'now the right', turns }));
    const first = text.indexOf('- "put chrome on the left" → [{"type":"place_app","app_name":"Google Chrome","monitor":"left"}] → Moved Google Chrome to LEFT.');
    const second = text.indexOf('- "which tabs are open?" → (no commands) → Asked: which window?');
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(first);
    expect(text.indexOf('Request: "now the right"')).toBeGreaterThan(second);
  });

  it('omits the turns section when there are none, and keeps only the last six', () => {
    expect(userMessage(request())).not.toContain('Recent turns');
    const turns = Array.from({ length: 9 }, (_, i) => ({ at: i, text: `turn ${i}`, envelope: {}, outcome: 'ok' }));
    const text = userMessage(request({ turns }));
    expect(text).not.toContain('"turn 2"');
    expect(text).toContain('"turn 3"');
    expect(text).toContain('"turn 8"');
  });

  it('on a repair round carries the previous answer, the exact errors and the instruction to fix them', () => {
    const previous = '{"commands":[{"type":"switch_tab","tab_index":9}],"needs_clarification":false,"clarification_reason":null}';
    const text = userMessage(request({ repair: { previous, errors: ['commands[0].tab_index: there is no tab 9 (tabs are 1–1)'] } }));
    expect(text).toContain(previous);
    expect(text).toContain('- commands[0].tab_index: there is no tab 9 (tabs are 1–1)');
    expect(text).toMatch(/Fix exactly these errors/);
    expect(userMessage(request())).not.toMatch(/Fix exactly/);
  });
});
