import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// The server's connection credentials (they grant connecting, nothing on a desk: trust is each
// desk's own, see trust-store.ts). The first device makes a random enroll key E, used once and
// kept nowhere; the user id = SHA-256(E) names the user's document, so the server checks E
// without keeping it. Each paired device gets a random device key K; the server keeps SHA-256(K)
// per device and refuses the device once it is removed. Later devices join with a one-time
// server ticket from a pairing code (pairing.ts): the server lets in a device whose ticket
// hashes to an unexpired, unused invite in the document, once.

const B64URL = /^[A-Za-z0-9_-]+$/;
const KEY_BYTES = 32;

const b64url = (b: Buffer) => b.toString('base64url');

export function newDeviceKey(): string {
  return b64url(randomBytes(KEY_BYTES));
}

/** A new user's enroll key: used once by the first device, kept nowhere. */
export const newEnrollKey = newDeviceKey;

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
  /** Only while pairing the first device. */
  enrollKey?: string;
  /** Only while joining: the server ticket of a pairing code, base64url. */
  ticket?: string;
}

const TOKEN_VERSION = 'dp1';
const TICKET_TOKEN = 'dp2';
const DEVICE_ID = /^[\w-]{8,64}$/;

export function formatToken(t: SyncToken): string {
  if (t.ticket) return [TICKET_TOKEN, t.userId, t.deviceId, t.deviceKey, t.ticket].join('.');
  return [TOKEN_VERSION, t.userId, t.deviceId, t.deviceKey, ...(t.enrollKey ? [t.enrollKey] : [])].join('.');
}

export function parseToken(token: string): SyncToken | null {
  const parts = token.split('.');
  if (parts[0] === TICKET_TOKEN && parts.length === 5) {
    const [, userId, deviceId, deviceKey, ticket] = parts as [string, string, string, string, string];
    if (!B64URL.test(userId) || !DEVICE_ID.test(deviceId) || !B64URL.test(deviceKey) || !/^[A-Za-z0-9_-]{43}$/.test(ticket)) return null;
    return { userId, deviceId, deviceKey, ticket };
  }
  if (parts[0] !== TOKEN_VERSION || (parts.length !== 4 && parts.length !== 5)) return null;
  const [, userId, deviceId, deviceKey, enrollKey] = parts as [string, string, string, string, string | undefined];
  if (!B64URL.test(userId) || !DEVICE_ID.test(deviceId) || !B64URL.test(deviceKey) || (enrollKey !== undefined && !B64URL.test(enrollKey))) return null;
  return { userId, deviceId, deviceKey, ...(enrollKey ? { enrollKey } : {}) };
}
