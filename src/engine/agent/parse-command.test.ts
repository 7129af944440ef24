import { describe, expect, it } from 'vitest';
import { parseExecutorAnswer } from './parse-command';

const cmd = (raw: string) => {
  const r = parseExecutorAnswer(raw);
  return r.ok ? r.command : r.error;
};

describe('parseExecutorAnswer', () => {
  it('reads <tool_code> blocks, with prose, a fence inside, a <think> section or cut off at the end', () => {
    expect(cmd('<tool_code>{"action": "click", "id": 12}</tool_code>')).toEqual({ action: 'click', id: 12 });
    expect(cmd('I will click.\n<tool_code>\n  {"action":"click","id":3}\n</tool_code>\n[END:x]')).toEqual({ action: 'click', id: 3 });
    expect(cmd('<tool_code>\n```json\n{"action":"read_page"}\n```\n</tool_code>')).toEqual({ action: 'read_page' });
    expect(cmd('<think>maybe <tool_code>{"action":"close_tab","tab":1}</tool_code>?</think><tool_code>{"action":"scroll","direction":"down"}</tool_code>')).toEqual({
      action: 'scroll',
      direction: 'down',
    });
    expect(cmd('<tool_code>{"action":"done","answer":"x"}')).toEqual({ action: 'done', answer: 'x' });
  });

  it('reads structured output: the {"command": …} wrapper with nulls for absent fields, or a bare command', () => {
    expect(cmd('{"command":{"action":"press_key","key":"Enter","id":null}}')).toEqual({ action: 'press_key', key: 'Enter' });
    expect(cmd('{"action":"navigate","to":"back"}')).toEqual({ action: 'navigate', to: 'back' });
    expect(cmd('  {"command":{"action":"select","id":4,"option":{"text":"Blue"}}}\n')).toEqual({ action: 'select', id: 4, option: { text: 'Blue' } });
  });

  it('maps legacy fenced tool calls ({tool, inputs} or flat) to actions', () => {
    const legacy = (o: object) => cmd('```json\n' + JSON.stringify(o) + '\n```');
    expect(legacy({ tool: 'openTab', inputs: { url: 'https://a.com' } })).toEqual({ action: 'open_tab', url: 'https://a.com' });
    expect(legacy({ tool: 'clickElement', inputs: { id: '5', clickType: 'right' } })).toEqual({ action: 'click', id: 5, button: 'right' });
    expect(legacy({ tool: 'type', inputs: { id: 2, text: 'cats', submit: true } })).toEqual({ action: 'type', id: 2, value: 'cats', submit: true });
    expect(legacy({ tool: 'select', id: 3, option: 'Two', by: 'text' })).toEqual({ action: 'select', id: 3, option: { text: 'Two' } });
    expect(legacy({ tool: 'select', id: 3, option: '1', by: 'index' })).toEqual({ action: 'select', id: 3, option: { index: 1 } });
    expect(legacy({ tool: 'pressKey', inputs: { key: 'Escape' } })).toEqual({ action: 'press_key', key: 'Escape' });
    expect(legacy({ tool: 'navigate', inputs: { action: 'goto', url: 'https://b.com' } })).toEqual({ action: 'navigate', to: { url: 'https://b.com' } });
    expect(legacy({ tool: 'navigate', action: 'back' })).toEqual({ action: 'navigate', to: 'back' });
    expect(legacy({ tool: 'waitFor', inputs: { waitType: 'networkIdle', timeout: 3000 } })).toEqual({ action: 'wait_for', condition: 'network_idle', timeout_ms: 3000 });
    expect(legacy({ tool: 'getHTML', inputs: {} })).toEqual({ action: 'get_html' });
    expect(legacy({ tool: 'waitFor', inputs: { waitType: 'element', selector: '#results li' } })).toEqual({ action: 'wait_for', condition: { selector: '#results li' } });
    expect(legacy({ tool: 'manageTabs', inputs: { action: 'switch', tabId: 2 } })).toEqual({ action: 'switch_tab', tab: 2 });
    expect(legacy({ tool: 'manageTabs', inputs: { action: 'list' } })).toEqual({ action: 'list_tabs' });
    expect(legacy({ tool: 'open_tool', name: 'Gmail' })).toEqual({ action: 'open_tool', name: 'Gmail' });
    expect(legacy({ tool: 'done', inputs: { answer: 'ok' } })).toEqual({ action: 'done', answer: 'ok' });
    expect(legacy({ tool: 'clickElement', inputs: { selector: '.result a' } })).toBe(
      'CSS selectors are not supported; address elements by their number ("id") from the latest snapshot',
    );
    expect(legacy({ tool: 'teleport' })).toMatch(/^tool: unknown tool "teleport"; use an action: click, type, /);
  });

  it('refuses what is not exactly one command, saying why', () => {
    expect(cmd('')).toBe('the answer is empty');
    expect(cmd('I would click the button.')).toBe('the answer holds no command; write exactly one command as <tool_code>{"action": …}</tool_code>');
    // JSON in prose, or fenced without "tool", is not a command (it may be quoted page text).
    expect(cmd('The page says {"action":"close_tab","tab":1}.')).toBe('the answer holds no command; write exactly one command as <tool_code>{"action": …}</tool_code>');
    expect(cmd('```json\n{"action":"click","id":1}\n```')).toBe(
      'a fenced JSON block counts only with a "tool" property; write the command as <tool_code>{"action": …}</tool_code>',
    );
    expect(cmd('<tool_code>{"action":"click","id":1}</tool_code><tool_code>{"action":"click","id":2}</tool_code>')).toBe(
      'the answer holds 2 <tool_code> blocks; give exactly one command per answer',
    );
    expect(cmd('[{"action":"click","id":1},{"action":"click","id":2}]')).toBe('the answer holds a list; give exactly one command per answer');
    // Node 22's V8 adds " (line 1 column 20)" after the position; Node 20's does not.
    expect(cmd('<tool_code>{"action":"click", id: 1}</tool_code>')).toMatch(
      /^the <tool_code> block is not valid JSON \(Expected double-quoted property name in JSON at position 19(?: \(line 1 column 20\))?\)$/,
    );
    expect(cmd('<tool_code>{"action": x}</tool_code>')).toBe("the <tool_code> block is not valid JSON (Unexpected token 'x')");
    expect(cmd(`<tool_code>{"action":"${'f'.repeat(5000)}"}</tool_code>`)).toBe(
      `action: "${'f'.repeat(79)}… (5002 characters) is not one; it must be one of ${['click', 'type', 'select', 'press_key', 'scroll', 'navigate', 'wait_for', 'read_page', 'get_html', 'open_tab', 'open_tool', 'switch_tab', 'close_tab', 'list_tabs', 'done'].join(', ')}`,
    );
    expect(cmd('<tool_code>{"action":"fly"}</tool_code>')).toMatch(/^action: "fly" is not one; it must be one of click, type, select, press_key, /);
    expect(cmd('<tool_code>{"id":1}</tool_code>')).toMatch(/^action: is required; it must be one of /);
    expect(cmd('<tool_code>{"action":"click","id":0,"x":1}</tool_code>')).toBe('id: must be an element number from the latest snapshot; x: unknown field');
    expect(cmd('<tool_code>{"action":"type","id":2}</tool_code>')).toBe('value: is required');
  });
});
