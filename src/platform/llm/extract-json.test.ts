import { describe, expect, it } from 'vitest';
import { extractJson } from './extract-json';

const env = { commands: [{ type: 'switch_tab', tab_index: 3 }], needs_clarification: false, clarification_reason: null };
const text = JSON.stringify(env);
const value = (s: string) => {
  const r = extractJson(s);
  return r.ok ? r.value : r.reason;
};

describe('extractJson', () => {
  it('reads plain JSON, with whitespace or a BOM around it', () => {
    expect(value(text)).toEqual(env);
    expect(value(`\n\n  ${JSON.stringify(env, null, 2)}  \n`)).toEqual(env);
    expect(value(`\uFEFF${text}`)).toEqual(env);
  });

  it('reads JSON inside ``` and ```json fences, also when prose surrounds them', () => {
    expect(value('```json\n' + text + '\n```')).toEqual(env);
    expect(value('```\n' + text + '\n```')).toEqual(env);
    expect(value('Sure! Here is the plan:\n```json\n' + text + '\n```\nLet me know if you need more.')).toEqual(env);
  });

  it('skips a fence that holds no JSON and takes the next one', () => {
    expect(value('```bash\nls -la\n```\nand\n```json\n' + text + '\n```')).toEqual(env);
  });

  it('reads JSON inside <tool_code>…</tool_code>, fenced or not', () => {
    expect(value(`<tool_code>${text}</tool_code>`)).toEqual(env);
    expect(value('<tool_code>\n```json\n' + text + '\n```\n</tool_code>')).toEqual(env);
  });

  it('finds the first balanced top-level object in prose, ignoring braces inside strings', () => {
    const tricky = { commands: [{ type: 'query', question: 'what is in {curly} "quotes" \\ here?' }], needs_clarification: false, clarification_reason: null };
    expect(value(`I will do this: ${JSON.stringify(tricky)} — done.`)).toEqual(tricky);
    expect(value(`Plan {not json} then ${text} and {"other": 1}`)).toEqual(env);
  });

  it('ignores a <think> section, braces and all', () => {
    expect(value(`<think>maybe {"commands": []} or tab {3}?</think>\n${text}`)).toEqual(env);
  });

  it('reads an unclosed fence (answer cut after the JSON)', () => {
    expect(value('```json\n' + text)).toEqual(env);
  });

  it('reports, never repairs, text without a complete JSON object', () => {
    expect(extractJson('I cannot help with that.')).toEqual({ ok: false, reason: 'the answer holds no complete JSON object' });
    expect(extractJson('{"commands": [{"type": "switch_tab", "tab_index": 3}')).toMatchObject({ ok: false });
    expect(extractJson('   ')).toEqual({ ok: false, reason: 'the answer is empty' });
  });
});
