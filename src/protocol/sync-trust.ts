import { z } from 'zod';
import { DeviceName } from './sync';

// The parts of the sync document that carry trust between desks (their crypto is in
// src/platform/sync/trust-notices.ts and pairing.ts). The sync server reads only the invites.
//  - notices: signed by a device, telling the others that it added a device (after pairing it)
//    or removed one (with the new document key wrapped to each device that stays). A desk
//    applies a notice only when it is signed by a device in its own trust list.
//  - pairing: per invitation, the invite the server checks (the hash of a one-time server
//    ticket, its expiry) and the key exchange sealed under a key the server never sees.

const id = z.string().regex(/^[\w-]{8,64}$/, { error: 'must be 8 to 64 letters, digits, "-" or "_"' });
const raw32 = z.string().regex(/^[A-Za-z0-9_-]{43}$/, { error: 'must be 32 bytes in base64url' });
const b64 = (max: number) => z.string().regex(/^[A-Za-z0-9_-]+$/, { error: 'must be base64url' }).max(max);
const SIG = z.string().regex(/^[A-Za-z0-9_-]{86}$/, { error: 'must be an Ed25519 signature in base64url' });
const Time = z.number().int().nonnegative();

/** A device as desks pin it: its id, the name it was paired with, its public keys. */
export const DeviceIdentity = z.strictObject({ id, name: DeviceName, sign_pub: raw32, box_pub: raw32 });
export type DeviceIdentity = z.infer<typeof DeviceIdentity>;

export const KeyWrap = z.strictObject({ eph: raw32, nonce: b64(16), ct: b64(200) });
export type KeyWrap = z.infer<typeof KeyWrap>;

export const TrustNotice = z.strictObject({
  v: z.literal(1),
  id,
  kind: z.enum(['add', 'remove']),
  /** The signer. */
  by: id,
  at: Time,
  device: DeviceIdentity,
  /** With a removal: the new document key, wrapped to each device that stays. */
  rekey: z.strictObject({ epoch: z.number().int().positive(), wraps: z.record(id, KeyWrap) }).optional(),
  sig: SIG,
});
export type TrustNotice = z.infer<typeof TrustNotice>;

/** What the server reads of an invitation: a device may join with a server ticket hashing to this, once, before expiry. */
export const Invite = z.strictObject({
  ticket_hash: z.string().regex(/^[0-9a-f]{64}$/),
  expires_at: Time,
  by: id,
});
export type Invite = z.infer<typeof Invite>;

export const SealedBlob = z.strictObject({ nonce: b64(16), ct: b64(200_000) });
export type SealedBlob = z.infer<typeof SealedBlob>;

/** The joiner's answer, inside its seal: who it is, signed with its own key (it holds it). */
export const PairingAnswer = DeviceIdentity.extend({ sig: SIG });
export type PairingAnswer = z.infer<typeof PairingAnswer>;

/** The inviter's welcome, inside its seal: the document key and the devices it trusts. */
export const PairingWelcome = z.strictObject({
  epoch: z.number().int().positive(),
  key: raw32,
  devices: z.array(DeviceIdentity).max(200),
  removed: z.array(z.strictObject({ id, sign_pub: raw32, removed_at: Time, removed_by: id })).max(1000),
});
export type PairingWelcome = z.infer<typeof PairingWelcome>;
