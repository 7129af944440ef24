import { lstatSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseJsonOf } from '../../protocol/json-syntax';
import { DeviceName } from '../../protocol/sync';
import { formatFieldError, zodErrors } from '../../protocol/validation';
import { withFileLock } from '../storage/file-lock';
import { reasonOf, StateFileError, writeStateText } from '../storage/state-file';
import { PublicKeyText } from './device-keys';

// This desk's trust list, in its own 0600 file, never in the shared document: the devices whose
// signed rows it will look at (with their public keys, pinned at pairing), whether each may act
// here without asking, the devices removed (by id and key: nothing in the document can trust
// them again), and the document keys by epoch (the current one; retired ones refuse rows).
// A file that cannot be read or does not match is an error, never silently replaced: it is the
// only record of whom this desk trusts. Other processes of this desk (the CLI, the service)
// change it too, so it is read again whenever the file changed.

export const TRUST_FILE = 'sync-trust.json';

const Id = z.string().regex(/^[\w-]{8,64}$/, { error: 'must be 8 to 64 letters, digits, "-" or "_"' });
const Time = z.number().int().nonnegative();

export const TrustedDevice = z.strictObject({
  name: DeviceName,
  sign_pub: PublicKeyText,
  box_pub: PublicKeyText,
  fingerprint: z.string().regex(/^[0-9a-f]{4}( [0-9a-f]{4}){15}$/),
  /** Whether this device may run destructive commands here without this desk's user saying yes. */
  act_without_asking: z.boolean(),
  added_at: Time,
  /** The device that vouched for it: this one (paired here), or a trusted one (its signed notice). */
  added_by: Id,
});
export type TrustedDevice = z.infer<typeof TrustedDevice>;

export const RemovedDevice = z.strictObject({ id: Id, sign_pub: PublicKeyText, removed_at: Time, removed_by: Id });
export type RemovedDevice = z.infer<typeof RemovedDevice>;

export const DocumentKey = z.strictObject({
  epoch: z.number().int().positive(),
  key: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  retired_at: Time.nullable(),
});
export type DocumentKey = z.infer<typeof DocumentKey>;

export const TrustFile = z.strictObject({
  v: z.literal(1),
  user_id: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/),
  /** This device's id (it is in `devices` too). */
  self: Id,
  devices: z.record(Id, TrustedDevice),
  removed: z.array(RemovedDevice),
  keys: z.array(DocumentKey).min(1),
  current_epoch: z.number().int().positive(),
});
export type TrustFile = z.infer<typeof TrustFile>;

/** What the remote gate needs to know about a verified sender. */
export interface TrustedSender {
  id: string;
  name: string;
  actWithoutAsking: boolean;
}

export function trustedSenderIn(t: TrustFile, id: string): TrustedSender | null {
  const d = t.devices[id];
  if (!d || isRemoved(t, id, d.sign_pub)) return null;
  return { id, name: d.name, actWithoutAsking: d.act_without_asking };
}

/** Removal goes by key: a device removed and paired again under the same id has a new key, which is trusted. */
export function isRemoved(t: TrustFile, _id: string, signPub: string): boolean {
  return t.removed.some((r) => r.sign_pub === signPub);
}

/** The key of `epoch` when it is current (rows, snapshots); null when retired or unknown. */
export function currentKeyIn(t: TrustFile, epoch: number): Buffer | null {
  if (epoch !== t.current_epoch) return null;
  const k = t.keys.find((x) => x.epoch === epoch && x.retired_at === null);
  return k ? Buffer.from(k.key, 'base64url') : null;
}

export interface TrustStore {
  readonly where: string;
  /** The trust list now (read again when the file changed); null when this desk has none (not paired). Throws StateFileError. */
  read(): TrustFile | null;
  /** Like read, but a missing file is an error saying how to pair. */
  get(): TrustFile;
  /** Read-modify-write under the file's lock, across processes. */
  update(fn: (t: TrustFile) => TrustFile): Promise<TrustFile>;
  /**
   * What read() gives in this process from now on, until the file is written or changes: a
   * change (a notice applied) takes effect at once, before it reaches the file.
   */
  stage(t: TrustFile): void;
  /** Writes a new trust list (pairing); an existing file that cannot be read is never replaced. */
  create(t: TrustFile): Promise<void>;
}

export function trustFile(dir: string): TrustStore {
  const file = path.join(dir, TRUST_FILE);
  let cached: { stamp: string; value: TrustFile } | null = null;
  let staged: { stamp: string | null; value: TrustFile } | null = null;
  const stampOf = () => {
    try {
      const s = statSync(file);
      return `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StateFileError(`${file}: cannot be read (${reasonOf(e)})`);
    }
  };
  const read = (): TrustFile | null => {
    const stamp = stampOf();
    if (staged && staged.stamp === stamp) return staged.value;
    staged = null;
    if (stamp === null) return (cached = null);
    if (cached?.stamp === stamp) return cached.value;
    const value = readTrust(file);
    cached = { stamp, value };
    return value;
  };
  const write = async (t: TrustFile) => {
    const checked = TrustFile.parse(t);
    await writeStateText(file, JSON.stringify(checked, null, 2) + '\n', 0o600);
    cached = null;
    staged = null;
  };
  const get = () => {
    const t = read();
    if (!t) throw new StateFileError(`${file}: missing — this device has no trust list yet: pair it (\`deskpilot devices pair\` on the first device, \`deskpilot devices pair --join\` on the others)`);
    return t;
  };
  return {
    where: file,
    read,
    get,
    stage: (t) => void (staged = { stamp: stampOf(), value: TrustFile.parse(t) }),
    update: (fn) =>
      withFileLock(file, async () => {
        cached = null;
        staged = null;
        const next = fn(get());
        await write(next);
        return next;
      }),
    create: (t) =>
      withFileLock(file, async () => {
        cached = null;
        read(); // throws when a file is there that cannot be read
        await write(t);
      }),
  };
}

function readTrust(file: string): TrustFile {
  let text: string;
  try {
    if (process.platform !== 'win32') {
      const mode = lstatSync(file).mode;
      if ((mode & 0o077) !== 0) {
        throw new StateFileError(`${file}: others can read it (mode ${(mode & 0o777).toString(8)}), so this desk's document keys may be known; fix its mode (chmod 600) only if you are sure nobody read it, else remove and pair the devices again`);
      }
    }
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof StateFileError) throw e;
    throw new StateFileError(`${file}: cannot be read (${reasonOf(e)})`);
  }
  const json = parseJsonOf(file, text);
  if (!json.ok) throw new StateFileError(`${json.error} — this desk's trust list is damaged; it is left as it is`);
  const parsed = TrustFile.safeParse(json.value);
  if (!parsed.success) throw new StateFileError(`${file}: ${zodErrors(parsed.error, json.value).map(formatFieldError).join('; ')} — this desk's trust list is damaged; it is left as it is`);
  return parsed.data;
}
