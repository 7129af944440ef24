import { createHash, randomBytes } from 'node:crypto';
import * as Y from 'yjs';
import { Invite, PairingAnswer, PairingWelcome, SealedBlob, DeviceIdentity, type PairingAnswer as Answer } from '../../protocol/sync-trust';
import { shortFingerprint, signWith, verifyWith, type DeviceKeys } from './device-keys';
import { b64, canonical, hkdf, openJson, sealJson, unb64 } from './seal';

// Pairing a new device by a code the user copies from a paired device to the new one. The code
// carries the user id, the invitation's id, a one-time secret T and the inviter's key
// fingerprint. From T: the server ticket (the server stores only its hash, from the invite in
// the document, and lets one device in with it, once, before it expires) and the pairing key
// K_T (never sent), under which the inviter's offer (its identity and keys), the joiner's
// answer (its identity and keys, signed by it) and the inviter's welcome (the document key,
// the devices it trusts) are sealed. The server relays them and can read none; the joiner checks
// the offer's key against the fingerprint in the code, so a stranger cannot pose as the inviter.

export const INVITE_TTL_MS = 10 * 60_000;
const CODE_PREFIX = 'dpp1';
const OFFER_ID = /^[A-Za-z0-9_-]{16}$/;

export interface PairingCode {
  userId: string;
  offerId: string;
  secret: Buffer;
  /** The inviter's fingerprint, 16 bytes in base64url. */
  fingerprint: string;
}

export const serverTicketOf = (secret: Buffer): Buffer => hkdf(secret, 'deskpilot pairing server ticket');
const pairingKeyOf = (secret: Buffer): Buffer => hkdf(secret, 'deskpilot pairing key');
export const ticketHash = (ticket: Buffer): string => createHash('sha256').update(ticket).digest('hex');

export function newPairingCode(userId: string, signPub: string): PairingCode {
  return { userId, offerId: b64(randomBytes(12)), secret: randomBytes(32), fingerprint: shortFingerprint(signPub) };
}

export const formatCode = (c: PairingCode): string => [CODE_PREFIX, c.userId, c.offerId, b64(c.secret), c.fingerprint].join('.');

export function parseCode(text: string): { ok: true; code: PairingCode } | { ok: false; message: string } {
  const parts = text.replace(/\s+/g, '').split('.');
  const bad = { ok: false as const, message: `a pairing code starts with "${CODE_PREFIX}." and has five parts separated by dots (as \`deskpilot devices invite\` showed it)` };
  if (parts.length !== 5 || parts[0] !== CODE_PREFIX) return bad;
  const [, userId, offerId, secret, fingerprint] = parts as [string, string, string, string, string];
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(userId) || !OFFER_ID.test(offerId) || !/^[A-Za-z0-9_-]{43}$/.test(secret) || !/^[A-Za-z0-9_-]{22}$/.test(fingerprint)) return bad;
  return { ok: true, code: { userId, offerId, secret: unb64(secret), fingerprint } };
}

const ad = (offerId: string, what: 'offer' | 'answer' | 'welcome') => canonical('deskpilot pairing v1', [offerId, what]);
const answerSigned = (offerId: string, a: DeviceIdentity) => canonical('deskpilot pairing answer v1', [offerId, a.id, a.name, a.sign_pub, a.box_pub]);

export const pairingMap = (doc: Y.Doc) => doc.getMap<Y.Map<unknown>>('pairing');

function entry(doc: Y.Doc, offerId: string): Y.Map<unknown> | null {
  const m = pairingMap(doc).get(offerId);
  return m instanceof Y.Map ? m : null;
}

/** The inviter writes the invite (for the server) and its sealed offer. */
export function writeInvite(doc: Y.Doc, code: PairingCode, me: DeviceIdentity, now = Date.now()): Invite {
  const invite: Invite = { ticket_hash: ticketHash(serverTicketOf(code.secret)), expires_at: now + INVITE_TTL_MS, by: me.id };
  doc.transact(() => {
    const m = new Y.Map<unknown>();
    m.set('invite', invite);
    m.set('offer', sealJson(pairingKeyOf(code.secret), DeviceIdentity.parse(me), ad(code.offerId, 'offer')));
    pairingMap(doc).set(code.offerId, m);
  });
  return invite;
}

export function withdrawInvite(doc: Y.Doc, offerId: string): void {
  if (pairingMap(doc).has(offerId)) pairingMap(doc).delete(offerId);
}

function openField<T>(doc: Y.Doc, code: PairingCode, what: 'offer' | 'answer' | 'welcome', schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }): T | null {
  const sealed = SealedBlob.safeParse(entry(doc, code.offerId)?.get(what));
  if (!sealed.success) return null;
  const parsed = schema.safeParse(openJson(pairingKeyOf(code.secret), sealed.data, ad(code.offerId, what)));
  return parsed.success ? parsed.data : null;
}

/** The joiner reads the offer: the inviter's identity, when it opens and its key matches the code's fingerprint. */
export function readOffer(doc: Y.Doc, code: PairingCode): { ok: true; inviter: DeviceIdentity } | { ok: false; message: string } | null {
  if (!entry(doc, code.offerId)?.has('offer')) return null;
  const offer = openField(doc, code, 'offer', DeviceIdentity);
  if (!offer) return { ok: false, message: 'the invitation does not open with this code (mistyped, or not written by the inviting device)' };
  if (shortFingerprint(offer.sign_pub) !== code.fingerprint) return { ok: false, message: "the inviting device's key does not match the fingerprint in the code: not pairing" };
  return { ok: true, inviter: offer };
}

export function writeAnswer(doc: Y.Doc, code: PairingCode, me: DeviceIdentity, keys: DeviceKeys): void {
  const answer: Answer = { ...me, sig: signWith(keys, answerSigned(code.offerId, me)) };
  entry(doc, code.offerId)?.set('answer', sealJson(pairingKeyOf(code.secret), answer, ad(code.offerId, 'answer')));
}

/** The inviter reads the answer: the joiner's identity, signed with the key it gives. */
export function readAnswer(doc: Y.Doc, code: PairingCode): { ok: true; joiner: DeviceIdentity } | { ok: false; message: string } | null {
  if (!entry(doc, code.offerId)?.has('answer')) return null;
  const a = openField(doc, code, 'answer', PairingAnswer);
  if (!a) return { ok: false, message: 'the answer does not open with this invitation' };
  const { sig, ...joiner } = a;
  if (!verifyWith(joiner.sign_pub, answerSigned(code.offerId, joiner), sig)) return { ok: false, message: 'the answer is not signed by the key it gives' };
  return { ok: true, joiner };
}

export function writeWelcome(doc: Y.Doc, code: PairingCode, welcome: PairingWelcome): void {
  entry(doc, code.offerId)?.set('welcome', sealJson(pairingKeyOf(code.secret), PairingWelcome.parse(welcome), ad(code.offerId, 'welcome')));
}

export function readWelcome(doc: Y.Doc, code: PairingCode): PairingWelcome | null {
  return openField(doc, code, 'welcome', PairingWelcome);
}

/** Calls `fn` whenever the invitation's entry changes; returns the unsubscribe. */
export function onPairing(doc: Y.Doc, fn: () => void): () => void {
  const map = pairingMap(doc);
  const handler = () => fn();
  map.observeDeep(handler);
  return () => map.unobserveDeep(handler);
}
