import { describe, expect, it } from 'vitest';
import { jsonSyntaxReason, parseJsonOf } from './json-syntax';

const reasonFor = (text: string) => {
  try {
    JSON.parse(text);
  } catch (e) {
    return jsonSyntaxReason(e);
  }
  throw new Error('parsed');
};

describe('JSON syntax errors said once', () => {
  it('drops V8\'s quoted input and its own "is not valid JSON", keeps the rest', () => {
    expect(reasonFor('{"type": x}')).toBe("Unexpected token 'x'");
    expect(reasonFor('x'.repeat(1000))).toBe("Unexpected token 'x'");
    // Node 22's V8 adds " (line 1 column 11)" after the position; Node 20's does not.
    expect(reasonFor('{"a": "b" x')).toMatch(/^Expected ',' or '\}' after property value in JSON at position 10(?: \(line 1 column 11\))?$/);
    expect(reasonFor('{"type":')).toBe('Unexpected end of JSON input');
  });

  it('parseJsonOf names what was read', () => {
    expect(parseJsonOf('input', '[1]')).toEqual({ ok: true, value: [1] });
    const bad = parseJsonOf('input', `{"type": ${'x'.repeat(100_000)}}`);
    expect(bad).toEqual({ ok: false, error: "input: is not valid JSON (Unexpected token 'x')" });
  });
});
