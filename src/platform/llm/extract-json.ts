// Models wrap JSON in all sorts of things — code fences, <tool_code> blocks, a sentence
// before and after, a <think> section — most of all small local models in json_object mode.
// This finds the JSON the model meant, without ever repairing the JSON itself: a broken
// object is reported, so the engine can ask the model again rather than act on a guess.

export type Extracted = { ok: true; value: unknown } | { ok: false; reason: string };

function tryParse(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/**
 * Each balanced top-level {…} in order, skipping braces inside JSON strings. Braces nested in
 * a candidate are never candidates themselves: an inner command object is not the answer.
 */
function* balancedObjects(text: string): Generator<string> {
  let start = text.indexOf('{');
  while (start !== -1) {
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let i = start; i < text.length && end === -1; i++) {
      const ch = text[i];
      if (inString) {
        if (ch === '\\') i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '{') depth++;
      else if (ch === '}' && --depth === 0) end = i;
    }
    if (end === -1) return; // unclosed: everything after is inside it
    yield text.slice(start, end + 1);
    start = text.indexOf('{', end + 1);
  }
}

function find(text: string, depth: number): { value: unknown } | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const whole = tryParse(trimmed);
  if (whole) return whole;
  if (depth > 2) return undefined;

  for (const [, inner] of trimmed.matchAll(/<tool_code>([\s\S]*?)<\/tool_code>/gi)) {
    const found = find(inner!, depth + 1);
    if (found) return found;
  }
  // An unclosed last fence (output cut short) still counts up to the end of the text.
  for (const [, inner] of trimmed.matchAll(/```[\w-]*[^\S\n]*\n?([\s\S]*?)(?:```|$)/g)) {
    const found = find(inner!, depth + 1);
    if (found) return found;
  }
  for (const candidate of balancedObjects(trimmed)) {
    const found = tryParse(candidate);
    if (found) return found;
  }
  return undefined;
}

export function extractJson(text: string): Extracted {
  // Reasoning models think out loud first; the braces in their thoughts are not the answer.
  const cleaned = text.replace(/^\uFEFF/, '').replace(/<think>[\s\S]*?(<\/think>|$)/gi, '');
  if (!cleaned.trim()) return { ok: false, reason: 'the answer is empty' };
  const found = find(cleaned, 0);
  return found ? { ok: true, value: found.value } : { ok: false, reason: 'the answer holds no complete JSON object' };
}
