import { CommandRow, RowBody, RowResultSchema, ROW_VERSION, WireRow, type CommandAction } from '../../protocol/sync';
import { formatFieldError, zodErrors } from '../../protocol/validation';
import { signWith, verifyWith, type DeviceKeys } from './device-keys';
import { canonical, openJson, sealJson, type Canon, type Sealed } from './seal';
import { currentKeyIn, isRemoved, type TrustFile } from './trust-store';

// Sealing and opening command rows (the crypto of the queue; the document layout is sync-doc.ts).
// A row is sign-after-encrypt: the body is AES-256-GCM under the document key of its epoch with
// the header as additional data, and the sender's Ed25519 signature covers the header, the
// nonce and the ciphertext. `taken` and `result` are the target's, bound to the row by its
// signature. Opening checks, in this order: the shape, the sender in this desk's trust list
// (and not removed), the signature, the epoch (current here), then decrypts. The TTL and
// "addressed to me" are the worker's to check (it knows its clock and its id).

export interface Keyring {
  /** This device's id. */
  readonly self: string;
  readonly keys: DeviceKeys;
  /** This desk's trust list (throws when it cannot be read). */
  trust(): TrustFile;
}

const header = (w: Pick<WireRow, 'v' | 'id' | 'to' | 'from' | 'created_at' | 'epoch'>): Canon => [w.v, w.id, w.to, w.from, w.created_at, w.epoch];
const rowAd = (w: WireRow | Omit<WireRow, 'nonce' | 'ct' | 'sig'>) => canonical('deskpilot row v2', header(w));
const rowSigned = (w: Omit<WireRow, 'sig'>) => canonical('deskpilot row v2 signed', [...header(w), w.nonce, w.ct]);
const takenSigned = (w: WireRow, at: number) => canonical('deskpilot taken v2', [...header(w), w.sig, at]);
const resultAd = (w: WireRow) => canonical('deskpilot result v2', [...header(w), w.sig]);
const resultSigned = (w: WireRow, r: Sealed) => canonical('deskpilot result v2 signed', [...header(w), w.sig, r.nonce, r.ct]);

/** The row as written to the document, sealed with the current document key and signed by this device. */
export function sealRow(k: Keyring, row: CommandRow): WireRow {
  const checked = CommandRow.parse(row);
  if (checked.from !== k.self) throw new Error(`a row is written as this device (${k.self}), not as ${checked.from}`);
  const t = k.trust();
  const key = currentKeyIn(t, t.current_epoch);
  if (!key) throw new Error('this desk has no current document key');
  const head = { v: ROW_VERSION, id: checked.id, to: checked.deviceId, from: checked.from, created_at: checked.createdAt, epoch: t.current_epoch };
  const body: RowBody = checked.action === 'run' ? { action: 'run', batch: checked.batch, asked_by: checked.asked_by ?? null } : { action: 'publish' };
  const sealed = sealJson(key, body, rowAd(head));
  const unsigned = { ...head, ...sealed };
  return { ...unsigned, sig: signWith(k.keys, rowSigned(unsigned)) };
}

export function signTaken(k: Keyring, w: WireRow, at: number): NonNullable<WireRow['taken']> {
  return { at, sig: signWith(k.keys, takenSigned(w, at)) };
}

export function sealResult(k: Keyring, w: WireRow, result: unknown): NonNullable<WireRow['result']> {
  const key = currentKeyIn(k.trust(), w.epoch);
  if (!key) throw new Error(`the document key of epoch ${w.epoch} is retired here`);
  const sealed = sealJson(key, result, resultAd(w));
  return { ...sealed, sig: signWith(k.keys, resultSigned(w, sealed)) };
}

export type OpenedRow =
  | {
      ok: true;
      row: CommandRow;
      /** The document says the row was taken, but not with the target's signature (it may or may not have been). */
      takenUnverified: boolean;
      /** A result is there that this desk does not believe (why), so `row.result` is absent. */
      resultProblem: string | null;
    }
  | { ok: false; id: string; deviceId: string | null; from: string | null; createdAt: number | null; problem: string };

const claimed = (raw: unknown, field: string): unknown => (typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)[field] : undefined);

/** Verifies and decrypts one row read from the document; never throws. */
export function openRow(k: Keyring, id: string, raw: unknown): OpenedRow {
  // The target it claims, for the worker to know whether to drop it (version 1 said `deviceId`).
  const to = claimed(raw, 'to') ?? claimed(raw, 'deviceId');
  const from = claimed(raw, 'from');
  const at = claimed(raw, 'created_at') ?? claimed(raw, 'createdAt');
  const refused = (problem: string): OpenedRow => ({
    ok: false,
    id,
    deviceId: typeof to === 'string' ? to : null,
    from: typeof from === 'string' ? from : null,
    createdAt: typeof at === 'number' ? at : null,
    problem,
  });
  const parsed = WireRow.safeParse(raw);
  if (!parsed.success) {
    const v = claimed(raw, 'v');
    if (v !== ROW_VERSION) return refused(v === 1 ? 'unsigned (a version-1 row)' : `not a signed row of this version (v ${JSON.stringify(v) ?? 'missing'})`);
    return refused(zodErrors(parsed.error, raw, ['row']).slice(0, 3).map(formatFieldError).join('; '));
  }
  const w = parsed.data;
  if (w.id !== id) return refused(`its id (${w.id}) is not its key in the document`);
  let t: TrustFile;
  try {
    t = k.trust();
  } catch (e) {
    return refused(`this desk's trust list cannot be read (${e instanceof Error ? e.message : String(e)})`);
  }
  const sender = t.devices[w.from];
  if (!sender) return refused(t.removed.some((r) => r.id === w.from) ? `sent as device ${w.from}, which was removed` : `sent as device ${w.from}, which this desk does not trust`);
  if (isRemoved(t, w.from, sender.sign_pub)) return refused(`sent as "${sender.name}", which was removed`);
  if (!verifyWith(sender.sign_pub, rowSigned(w), w.sig)) return refused(`its signature is not "${sender.name}"'s`);
  const key = currentKeyIn(t, w.epoch);
  if (!key) return refused(`it is sealed with document key epoch ${w.epoch}, which is ${w.epoch < t.current_epoch ? 'retired' : 'unknown'} here (current: ${t.current_epoch})`);
  const body = RowBody.safeParse(openJson(key, w, rowAd(w)));
  if (!body.success) return refused('it cannot be decrypted with the document key (or its content is not a command of this version)');
  const target = t.devices[w.to];
  const targetPub = target && !isRemoved(t, w.to, target.sign_pub) ? target.sign_pub : null;
  const takenOk = w.taken !== undefined && targetPub !== null && verifyWith(targetPub, takenSigned(w, w.taken.at), w.taken.sig);
  let result: unknown;
  let resultProblem: string | null = null;
  if (w.result) {
    const r = w.result;
    if (targetPub === null) resultProblem = `answered as device ${w.to}, which this desk does not trust`;
    else if (!verifyWith(targetPub, resultSigned(w, r), r.sig)) resultProblem = `its answer is not signed by "${target!.name}"`;
    else {
      const opened = RowResultSchema[body.data.action as CommandAction].safeParse(openJson(key, r, resultAd(w)));
      if (opened.success) result = opened.data;
      else resultProblem = 'its answer cannot be decrypted (or is not an answer of this version)';
    }
  }
  const row = {
    v: ROW_VERSION,
    id: w.id,
    deviceId: w.to,
    from: w.from,
    createdAt: w.created_at,
    ...(takenOk ? { taken: { at: w.taken!.at } } : {}),
    ...body.data,
    ...(result !== undefined ? { result } : {}),
  } as CommandRow;
  return { ok: true, row, takenUnverified: w.taken !== undefined && !takenOk, resultProblem };
}
