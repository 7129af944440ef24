// What JSON.parse says about bad JSON, said once. V8's messages quote the start of the input and
// then repeat "is not valid JSON" ("Unexpected token 'x', "{"type": x}" is not valid JSON"), which
// reads twice over after our own "… is not valid JSON (…)" and echoes the input. Pure.

/** `Unexpected token 'x', "…" is not valid JSON` → `Unexpected token 'x'`; other messages unchanged. */
export function jsonSyntaxReason(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '');
}

/** JSON.parse, with its error said as "<what>: is not valid JSON (<reason>)". */
export function parseJsonOf(what: string, text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: `${what}: is not valid JSON (${jsonSyntaxReason(e)})` };
  }
}
