import { describe, expect, it } from 'vitest';
import { COMMAND_TYPES } from '../../protocol/commands';
import { LlmEnvelope, fromLlmEnvelope } from '../../protocol/llm-schema';
import { llmResponseFormat } from './response-format';
import { parseInput } from '../../protocol/validation';

type JsonSchema = { [k: string]: unknown };

function walk(node: unknown, visit: (n: JsonSchema) => void): void {
  if (Array.isArray(node)) node.forEach((n) => walk(n, visit));
  else if (node && typeof node === 'object') {
    visit(node as JsonSchema);
    Object.values(node).forEach((n) => walk(n, visit));
  }
}

describe('the strict JSON schema given to an LLM', () => {
  const format = llmResponseFormat();
  const schema = format.json_schema.schema as JsonSchema;

  it('is strict, rooted in an object, and offers all ten command types', () => {
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.strict).toBe(true);
    expect(schema.type).toBe('object');
    const consts: unknown[] = [];
    walk(schema, (n) => {
      const type = (n.properties as JsonSchema | undefined)?.type as JsonSchema | undefined;
      if (type && 'const' in type) consts.push(type.const);
    });
    expect(new Set(consts)).toEqual(new Set(COMMAND_TYPES));
  });

  it('requires every property and forbids extra ones at every level (strict-mode rules)', () => {
    let objects = 0;
    walk(schema, (n) => {
      if (n.type !== 'object' || !n.properties) return;
      objects++;
      expect(n.additionalProperties).toBe(false);
      expect(new Set(n.required as string[])).toEqual(new Set(Object.keys(n.properties as object)));
    });
    expect(objects).toBeGreaterThan(10);
  });

  it('carries the protocol descriptions (one source for prompt and docs)', () => {
    expect(JSON.stringify(schema)).toContain('Global tab index (1-based, across all windows).');
  });

  it('round-trips: an LLM answer with nulls becomes a valid protocol envelope', () => {
    const answer = {
      commands: [
        { type: 'place_app', app_name: 'Google Chrome', window_id: null, monitor: 'left', bounds: null, layout: null, raise: null },
        { type: 'place_app', app_name: 'Cursor', window_id: null, monitor: null, bounds: [1920, 0, 3840, 1080], layout: null, raise: null },
      ],
      needs_clarification: false,
      clarification_reason: null,
      device: null,
    };
    expect(LlmEnvelope.safeParse(answer).success).toBe(true);
    const r = parseInput(fromLlmEnvelope(answer));
    expect(r.ok && r.envelope?.commands).toEqual([
      { type: 'place_app', app_name: 'Google Chrome', monitor: 'left' },
      { type: 'place_app', app_name: 'Cursor', bounds: [1920, 0, 3840, 1080] },
    ]);
  });
});
