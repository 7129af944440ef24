// Reading an agent snapshot in tests: the element line a pattern picks out, and its number.

export function lineFor(text: string, pattern: RegExp): string | undefined {
  return text.split('\n').find((l) => pattern.test(l));
}

export function idFor(text: string, pattern: RegExp): number {
  const line = lineFor(text, pattern);
  if (!line) throw new Error(`no element matching ${pattern} in:\n${text}`);
  return Number(/ id="(\d+)"/.exec(line)![1]);
}
