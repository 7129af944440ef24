import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// The sync credentials. A user secret S (shown once by `deskpilot devices pair`, never stored)
// is what lets a device join. From it:
//   enroll key E = HMAC-SHA256(S, "deskpilot sync enroll") — sent only when a device pairs;
//   user id      = SHA-256(E) — the name of the user's document, so the server checks E
//                  without keeping anything of S, and S itself never leaves the devices.
// Each paired device gets a random device key K; the server keeps SHA-256(K) per device and
// refuses the device once it is removed. A device stores only its own K (not S, not E), so a
// removed device's files cannot bring it back: pairing again needs S.

const SECRET_PREFIX = 'dps1-';
const B64URL = /^[A-Za-z0-9_-]+$/;
const KEY_BYTES = 32;

const b64url = (b: Buffer) => b.toString('base64url');

export function newUserSecret(): string {
  return SECRET_PREFIX + b64url(randomBytes(KEY_BYTES));
}

export function newDeviceKey(): string {
  return b64url(randomBytes(KEY_BYTES));
}

/** The user secret as typed or pasted (spaces and a trailing newline forgiven), or why it is not one. */
export function parseUserSecret(text: string): { ok: true; secret: string } | { ok: false; message: string } {
  const s = text.trim();
  const body = s.startsWith(SECRET_PREFIX) ? s.slice(SECRET_PREFIX.length) : null;
  if (body === null || !B64URL.test(body) || Buffer.from(body, 'base64url').length !== KEY_BYTES) {
    return { ok: false, message: `a sync secret starts with "${SECRET_PREFIX}" followed by 43 letters, digits, "-" or "_" (as \`deskpilot devices pair\` showed it)` };
  }
  return { ok: true, secret: s };
}

export function enrollKeyOf(secret: string): string {
  return b64url(createHmac('sha256', secret).update('deskpilot sync enroll').digest());
}

export function userIdOf(enrollKey: string): string {
  return b64url(createHash('sha256').update(enrollKey).digest());
}

export function keyHash(deviceKey: string): string {
  return createHash('sha256').update(deviceKey).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** The one document of a user on the sync server. */
export const documentNameFor = (userId: string) => `deskpilot/${userId}`;

export interface SyncToken {
  userId: string;
  deviceId: string;
  deviceKey: string;
  /** Only while pairing. */
  enrollKey?: string;
}

const TOKEN_VERSION = 'dp1';
const DEVICE_ID = /^[\w-]{8,64}$/;

export function formatToken(t: SyncToken): string {
  return [TOKEN_VERSION, t.userId, t.deviceId, t.deviceKey, ...(t.enrollKey ? [t.enrollKey] : [])].join('.');
}

export function parseToken(token: string): SyncToken | null {
  const parts = token.split('.');
  if (parts[0] !== TOKEN_VERSION || (parts.length !== 4 && parts.length !== 5)) return null;
  const [, userId, deviceId, deviceKey, enrollKey] = parts as [string, string, string, string, string | undefined];
  if (!B64URL.test(userId) || !DEVICE_ID.test(deviceId) || !B64URL.test(deviceKey) || (enrollKey !== undefined && !B64URL.test(enrollKey))) return null;
  return { userId, deviceId, deviceKey, ...(enrollKey ? { enrollKey } : {}) };
}
