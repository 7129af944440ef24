import { CONFIRM_TOKEN_TTL_MS, type HeldConfirm, type HeldToken } from '../protocol/confirm-token';

// The batches shown to a user and waiting for their yes, by confirm_token (issue 29.2). Kept by
// the warm service when one runs (its socket's confirm.hold / confirm.take), else by the MCP
// process. A token is random (the caller cannot guess another's) and ends with a digest of the
// batch it names, checked when it is taken; it works once and for CONFIRM_TOKEN_TTL_MS.

/** Where the MCP server keeps tokens: this store, or the warm service's (over its socket). */
export interface ConfirmTokens {
  hold(entry: HeldConfirm): Promise<HeldToken>;
  /** The entry, once; null when unknown, used, expired or not matching its content. */
  take(token: string): Promise<HeldConfirm | null>;
}

const MAX_HELD = 200;

export class ConfirmTokenStore implements ConfirmTokens {
  private readonly held = new Map<string, { entry: HeldConfirm; until: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async hold(entry: HeldConfirm): Promise<HeldToken> {
    this.expire();
    // A runaway client cannot make the store grow without end: the oldest go first.
    while (this.held.size >= MAX_HELD) this.held.delete(this.held.keys().next().value!);
    const token = `ct_${randomPart()}.${await contentDigest(entry)}`;
    const until = this.now() + CONFIRM_TOKEN_TTL_MS;
    this.held.set(token, { entry, until });
    return { token, expires_at: new Date(until).toISOString() };
  }

  async take(token: string): Promise<HeldConfirm | null> {
    this.expire();
    const found = this.held.get(token);
    this.held.delete(token);
    if (!found) return null;
    return token.endsWith(`.${await contentDigest(found.entry)}`) ? found.entry : null;
  }

  private expire(): void {
    const now = this.now();
    for (const [token, h] of this.held) if (now > h.until) this.held.delete(token);
  }
}

function randomPart(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** 12 hex digits of SHA-256 over what the token names: the batch and what it was prepared for. */
async function contentDigest(entry: HeldConfirm): Promise<string> {
  const text = JSON.stringify([entry.tool, entry.args, entry.device?.id ?? null, entry.batch]);
  const hash = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(hash).slice(0, 6)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
