import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// The symmetric half of the sync document's protection, all from node:crypto: AES-256-GCM with
// a random 96-bit nonce per message (the 16-byte tag appended to the ciphertext), HKDF-SHA256
// for derived keys, and one canonical encoding for what is signed or bound as additional data
// (a domain line, then the JSON of a fixed-order array), so no two kinds of message can be
// taken for one another.

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_BYTES = 32;

export const b64 = (b: Buffer | Uint8Array): string => Buffer.from(b).toString('base64url');
export const unb64 = (s: string): Buffer => Buffer.from(s, 'base64url');

export type Canon = ReadonlyArray<string | number | boolean | null | Canon>;

/** What a signature or an AEAD binds: `domain` names the kind of message and its version. */
export function canonical(domain: string, fields: Canon): Buffer {
  return Buffer.from(`${domain}\n${JSON.stringify(fields)}`, 'utf8');
}

export interface Sealed {
  /** base64url, 12 bytes. */
  nonce: string;
  /** base64url: ciphertext then the 16-byte GCM tag. */
  ct: string;
}

export function newSymmetricKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

export function aeadSeal(key: Buffer, plaintext: Buffer, ad: Buffer): Sealed {
  const nonce = randomBytes(NONCE_BYTES);
  const c = createCipheriv('aes-256-gcm', key, nonce);
  c.setAAD(ad);
  const body = Buffer.concat([c.update(plaintext), c.final(), c.getAuthTag()]);
  return { nonce: b64(nonce), ct: b64(body) };
}

/** The plaintext, or null when the key, the nonce, the ciphertext or the additional data is not the sealed one. */
export function aeadOpen(key: Buffer, sealed: Sealed, ad: Buffer): Buffer | null {
  const nonce = unb64(sealed.nonce);
  const body = unb64(sealed.ct);
  if (key.length !== KEY_BYTES || nonce.length !== NONCE_BYTES || body.length < TAG_BYTES) return null;
  try {
    const d = createDecipheriv('aes-256-gcm', key, nonce);
    d.setAAD(ad);
    d.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([d.update(body.subarray(0, body.length - TAG_BYTES)), d.final()]);
  } catch {
    return null;
  }
}

export function sealJson(key: Buffer, value: unknown, ad: Buffer): Sealed {
  return aeadSeal(key, Buffer.from(JSON.stringify(value), 'utf8'), ad);
}

/** The parsed plaintext, or undefined when it does not open (or is not JSON). */
export function openJson(key: Buffer, sealed: Sealed, ad: Buffer): unknown {
  const plain = aeadOpen(key, sealed, ad);
  if (plain === null) return undefined;
  try {
    return JSON.parse(plain.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** HKDF-SHA256; `info` names what the key is for. */
export function hkdf(ikm: Buffer, info: string, salt: Buffer = Buffer.alloc(0), length = KEY_BYTES): Buffer {
  return Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from(info, 'utf8'), length));
}
