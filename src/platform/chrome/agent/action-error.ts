// A recoverable problem inside one in-tab action: it becomes the action's outcome
// `{ ok: false, code, message }`, which the model hears about, never a thrown run.

import { DeskPilotError } from '../../../engine/errors';
import type { ErrorCode } from '../../../protocol/codes';

export class ActionError extends DeskPilotError {
  constructor(code: ErrorCode, message: string) {
    super(message, code);
  }
}

/** The number is not on the page any more (a fresh snapshot has the new ones); the executor model knows this sentence. */
export const notFound = (id: number) => new ActionError('element_not_found', `Element ID ${id} not found.`);

/** The element is there but cannot take the action (disabled, covered, hidden, not a field …). */
export const unusable = (message: string) => new ActionError('element_unusable', message);

const ALLOWED_SCHEMES = new Set(['http:', 'https:']);

/** Resolves a URL against the page's and allows only web pages (no javascript:, file:, chrome:). */
export function checkUrl(raw: string, base: string): string {
  const text = raw.trim();
  if (text === 'about:blank') return text;
  let u: URL;
  try {
    u = /^[a-z][a-z0-9+.-]*:/i.test(text) ? new URL(text) : base && /^https?:/.test(base) ? new URL(text, base) : new URL(`https://${text}`);
  } catch {
    throw new ActionError('url_refused', `"${raw}" is not a valid URL.`);
  }
  if (!ALLOWED_SCHEMES.has(u.protocol)) throw new ActionError('url_refused', `Cannot open "${raw}": only http and https pages are allowed.`);
  return u.toString();
}
