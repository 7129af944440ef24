// Input quoted back in an error message is bounded: a 1 MB field name or setting must not turn
// the message (and the JSON report, and the terminal) into a megabyte. Pure, for every layer.

/** How much of a piece of input an error message repeats. */
export const ECHO_CHARS = 80;

/** `text` itself when short; otherwise its first ECHO_CHARS characters, an ellipsis and its length. */
export function echo(text: string, max = ECHO_CHARS): string {
  if (text.length <= max) return text;
  // Never end on half of a surrogate pair (an emoji cut in two prints as garbage).
  const cut = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, cut)}… (${text.length} characters)`;
}
