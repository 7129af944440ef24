import { createHash, createPrivateKey, createPublicKey, diffieHellman, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { writeStateText } from '../storage/state-file';
import { readPrivateJson } from './private-json';
import { aeadOpen, aeadSeal, b64, hkdf, unb64, type Sealed } from './seal';

// This device's own key pairs, from node:crypto: Ed25519 to sign what it writes to the sync
// document (rows, results, notices), X25519 to receive document keys wrapped to it. Public keys
// travel as their raw 32 bytes in base64url; the private keys stay in a 0600 file in the config
// directory (the directory is a parameter) or, for the app, behind another DeviceKeyStore.
// A device's fingerprint is the SHA-256 of its raw public signing key, in groups of hex, for
// people to compare.

export const DEVICE_KEYS_FILE = 'sync-device-keys.json';

const RAW_KEY = /^[A-Za-z0-9_-]{43}$/;
export const PublicKeyText = z.string().regex(RAW_KEY, { error: 'must be a 32-byte key in base64url' });

export interface DeviceKeys {
  signKey: KeyObject;
  boxKey: KeyObject;
  /** Raw Ed25519 public key, base64url. */
  signPub: string;
  /** Raw X25519 public key, base64url. */
  boxPub: string;
}

export const StoredDeviceKeys = z.strictObject({
  v: z.literal(1),
  device_id: z.string().regex(/^[\w-]{8,64}$/),
  /** PKCS#8 DER, base64url. */
  sign_key: z.string().regex(/^[A-Za-z0-9_-]{40,200}$/),
  box_key: z.string().regex(/^[A-Za-z0-9_-]{40,200}$/),
});
export type StoredDeviceKeys = z.infer<typeof StoredDeviceKeys>;

export interface DeviceKeyStore {
  readonly where: string;
  read(): Promise<StoredDeviceKeys | null>;
  write(k: StoredDeviceKeys): Promise<void>;
  remove(): Promise<void>;
}

export function deviceKeyFile(dir: string): DeviceKeyStore {
  const file = path.join(dir, DEVICE_KEYS_FILE);
  return {
    where: file,
    read: () => readPrivateJson(file, StoredDeviceKeys, "this device's signing key may be known; remove this device (`deskpilot devices remove` on another one) and pair it again"),
    write: (k) => writeStateText(file, JSON.stringify(StoredDeviceKeys.parse(k), null, 2) + '\n', 0o600),
    remove: async () => {
      await rm(file, { force: true });
    },
  };
}

const rawPublic = (key: KeyObject): string => createPublicKey(key).export({ format: 'jwk' }).x as string;

function keysOf(signKey: KeyObject, boxKey: KeyObject): DeviceKeys {
  return { signKey, boxKey, signPub: rawPublic(signKey), boxPub: rawPublic(boxKey) };
}

export function newDeviceKeys(): DeviceKeys {
  return keysOf(generateKeyPairSync('ed25519').privateKey, generateKeyPairSync('x25519').privateKey);
}

export function storedKeys(deviceId: string, k: DeviceKeys): StoredDeviceKeys {
  const der = (key: KeyObject) => b64(key.export({ format: 'der', type: 'pkcs8' }));
  return { v: 1, device_id: deviceId, sign_key: der(k.signKey), box_key: der(k.boxKey) };
}

export function loadKeys(s: StoredDeviceKeys): DeviceKeys {
  const priv = (text: string, type: string) => {
    const key = createPrivateKey({ key: unb64(text), format: 'der', type: 'pkcs8' });
    if (key.asymmetricKeyType !== type) throw new Error(`not an ${type} key`);
    return key;
  };
  return keysOf(priv(s.sign_key, 'ed25519'), priv(s.box_key, 'x25519'));
}

function publicKey(raw: string, crv: 'Ed25519' | 'X25519'): KeyObject | null {
  if (!RAW_KEY.test(raw)) return null;
  try {
    return createPublicKey({ key: { kty: 'OKP', crv, x: raw }, format: 'jwk' });
  } catch {
    return null;
  }
}

/** An Ed25519 signature (base64url) over `data`. */
export function signWith(k: DeviceKeys, data: Buffer): string {
  return b64(sign(null, data, k.signKey));
}

/** Whether `sig` is the signature of the key `signPub` over `data`; anything malformed is false. */
export function verifyWith(signPub: string, data: Buffer, sig: string): boolean {
  const key = publicKey(signPub, 'Ed25519');
  if (!key || !/^[A-Za-z0-9_-]{86}$/.test(sig)) return false;
  try {
    return verify(null, data, key, unb64(sig));
  } catch {
    return false;
  }
}

/** SHA-256 of the raw public signing key as 16 groups of 4 hex digits ("3f9a 12c0 …"). */
export function fingerprintOf(signPub: string): string {
  const hex = createHash('sha256').update(unb64(signPub)).digest('hex');
  return hex.match(/.{4}/g)!.join(' ');
}

/** The same fingerprint in the 22 characters a pairing code carries (its first 16 bytes). */
export function shortFingerprint(signPub: string): string {
  return b64(createHash('sha256').update(unb64(signPub)).digest().subarray(0, 16));
}

export interface Wrapped extends Sealed {
  /** The sender's one-time X25519 public key, base64url. */
  eph: string;
}

const WRAP_INFO = 'deskpilot key wrap v1';

/** Seals `plaintext` to one device's X25519 key: ephemeral ECDH, HKDF over both public keys, AES-256-GCM. */
export function wrapTo(boxPub: string, plaintext: Buffer, ad: Buffer): Wrapped {
  const recipient = publicKey(boxPub, 'X25519');
  if (!recipient) throw new Error('not an X25519 public key');
  const eph = generateKeyPairSync('x25519').privateKey;
  const ephPub = rawPublic(eph);
  const key = hkdf(diffieHellman({ privateKey: eph, publicKey: recipient }), WRAP_INFO, Buffer.concat([unb64(ephPub), unb64(boxPub)]));
  return { eph: ephPub, ...aeadSeal(key, plaintext, ad) };
}

/** Opens what was wrapped to this device, or null. */
export function unwrapWith(k: DeviceKeys, w: Wrapped, ad: Buffer): Buffer | null {
  const eph = publicKey(w.eph, 'X25519');
  if (!eph) return null;
  try {
    const key = hkdf(diffieHellman({ privateKey: k.boxKey, publicKey: eph }), WRAP_INFO, Buffer.concat([unb64(w.eph), unb64(k.boxPub)]));
    return aeadOpen(key, w, ad);
  } catch {
    return null;
  }
}
