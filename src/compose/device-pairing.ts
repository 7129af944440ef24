import { DeskPilotError } from '../engine/errors';
import type { DeviceIdentity, PairingWelcome } from '../protocol/sync-trust';
import type { Config } from '../platform/config/load-config';
import { PACKAGE_VERSION } from '../platform/package-version';
import { credentialFile } from '../platform/sync/credential-file';
import { deviceKeyFile, fingerprintOf, newDeviceKeys, storedKeys, type DeviceKeys } from '../platform/sync/device-keys';
import { formatCode, newPairingCode, onPairing, parseCode, readAnswer, readOffer, readWelcome, serverTicketOf, withdrawInvite, writeAnswer, writeInvite, writeWelcome, type PairingCode } from '../platform/sync/pairing';
import { b64, newSymmetricKey } from '../platform/sync/seal';
import { connectSync, type SyncConnection } from '../platform/sync/sync-connection';
import { newDeviceKey, newEnrollKey, userIdOf } from '../platform/sync/sync-secret';
import { addNotice, identityOf, noticesOf, removalNotice } from '../platform/sync/trust-notices';
import { trustFile, type TrustedDevice, type TrustFile } from '../platform/sync/trust-store';
import { loadDeviceId } from '../platform/storage/device-id';
import { notConfigured, openSync, warnIfInsecure } from './device-sync';

// Pairing and removing devices (the flows; the crypto is in src/platform/sync). Trust comes only
// from the pairing code's key exchange, which the user carries from one desk to the other: the
// first device makes the user (`pair`), a paired device invites (`invite`: it shows a code and its
// key's fingerprint, then waits for the new device), and the new device joins with the code
// (`pair --join`). Each side asks its user once whether the other may act without asking.

/** How the flows talk to the person (a terminal here; tests answer for them). */
export interface PairingUi {
  say(line: string): void;
  /** A yes/no question; false when nobody can answer. */
  yes(question: string): Promise<boolean>;
}

const ANSWER_WAIT_MS = 120_000;
const ACK_WAIT_MS = 30_000;

function trusted(d: DeviceIdentity, by: string, actWithoutAsking: boolean, now: number): TrustedDevice {
  return { name: d.name, sign_pub: d.sign_pub, box_pub: d.box_pub, fingerprint: fingerprintOf(d.sign_pub), act_without_asking: actWithoutAsking, added_at: now, added_by: by };
}

async function connected(conn: SyncConnection): Promise<SyncConnection> {
  try {
    await conn.ready;
    return conn;
  } catch (e) {
    conn.close();
    throw e;
  }
}

/** Resolves when `check` gives a value (checked now and on every change of the pairing entry); rejects at `ms` or on `signal`. */
function until<T>(conn: SyncConnection, check: () => T | null, ms: number, what: string, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let off = () => {};
    const done = () => {
      clearTimeout(timer);
      off();
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(new DeskPilotError('cancelled', 'cancelled'));
    };
    const timer = setTimeout(() => {
      done();
      reject(new DeskPilotError(`${what} did not come within ${Math.round(ms / 1000)} s`, 'expired'));
    }, ms);
    const look = () => {
      const v = check();
      if (v !== null) {
        done();
        resolve(v);
      }
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    off = onPairing(conn.ydoc, look);
    look();
  });
}

async function writeDeviceFiles(config: Config, deviceId: string, keys: DeviceKeys, trust: TrustFile, cred: { userId: string; deviceKey: string }): Promise<void> {
  const dir = config.configDir.value;
  await deviceKeyFile(dir).write(storedKeys(deviceId, keys));
  await trustFile(dir).create(trust);
  // Last: the credential is what says this device is paired.
  await credentialFile(dir).write({ v: 1, user_id: cred.userId, device_id: deviceId, device_key: cred.deviceKey, paired_at: new Date().toISOString() });
}

const deviceRow = (id: string, name: string) => ({ v: 1 as const, id, name, platform: process.platform, version: PACKAGE_VERSION, last_seen: Date.now() });

/** The first device: a new user, this device's keys, document key epoch 1, a trust list with itself. */
export async function pairFirst(config: Config): Promise<{ fingerprint: string; where: string }> {
  const sync = config.sync;
  if (!sync) throw notConfigured();
  const deviceId = await loadDeviceId(config.configDir.value);
  const keys = newDeviceKeys();
  const enrollKey = newEnrollKey();
  const userId = userIdOf(enrollKey);
  const deviceKey = newDeviceKey();
  const conn = await connected(connectSync({ url: sync.url.value, allowInsecure: warnIfInsecure(sync), token: { userId, deviceId, deviceKey, enrollKey } }));
  try {
    conn.doc.pairDevice(deviceRow(deviceId, sync.deviceName.value));
    await conn.flushed();
  } finally {
    conn.close();
  }
  const now = Date.now();
  const me = { id: deviceId, name: sync.deviceName.value, sign_pub: keys.signPub, box_pub: keys.boxPub };
  const trust: TrustFile = {
    v: 1,
    user_id: userId,
    self: deviceId,
    devices: { [deviceId]: trusted(me, deviceId, true, now) },
    removed: [],
    keys: [{ epoch: 1, key: b64(newSymmetricKey()), retired_at: null }],
    current_epoch: 1,
  };
  await writeDeviceFiles(config, deviceId, keys, trust, { userId, deviceKey });
  return { fingerprint: fingerprintOf(keys.signPub), where: config.configDir.value };
}

export interface Invited {
  code: string;
  fingerprint: string;
  expiresAt: number;
}

/**
 * On a paired device: writes an invitation, gives its code to `shown`, waits for the new device's
 * answer (until the invitation expires or `signal`: then it is withdrawn), trusts the new device,
 * welcomes it with the document key and this desk's trusted devices, and tells the other desks.
 */
export async function inviteDevice(config: Config, ui: PairingUi, shown: (i: Invited) => void, signal?: AbortSignal): Promise<DeviceIdentity> {
  const s = await openSync(config);
  let code: PairingCode | null = null;
  try {
    const t = s.trust.get();
    const me = identityOf(t, s.deviceId);
    code = newPairingCode(t.user_id, me.sign_pub);
    const invite = writeInvite(s.conn.ydoc, code, me);
    await s.conn.flushed();
    shown({ code: formatCode(code), fingerprint: fingerprintOf(me.sign_pub), expiresAt: invite.expires_at });
    const c = code;
    const answer = await until(s.conn, () => readAnswer(s.conn.ydoc, c), invite.expires_at - Date.now(), 'the new device', signal);
    if (!answer.ok) throw new DeskPilotError(`not paired: ${answer.message}`, 'refused');
    const { joiner } = answer;
    const known = t.devices[joiner.id];
    if (joiner.id === s.deviceId || (known && known.sign_pub !== joiner.sign_pub)) throw new DeskPilotError(`not paired: device ${joiner.id} is already paired with another key (remove it first)`, 'refused');
    ui.say(`"${joiner.name}" answered, key ${fingerprintOf(joiner.sign_pub)}`);
    const allow = await ui.yes(`May "${joiner.name}" close tabs, quit apps and undo here without asking you each time? [y/N] `);
    const now = Date.now();
    const after = await s.trust.update((cur) => ({ ...cur, devices: { ...cur.devices, [joiner.id]: trusted(joiner, s.deviceId, allow, now) } }));
    const current = after.keys.find((k) => k.epoch === after.current_epoch)!;
    const welcome: PairingWelcome = {
      epoch: after.current_epoch,
      key: current.key,
      devices: Object.keys(after.devices)
        .filter((id) => id !== joiner.id && id !== s.deviceId)
        .map((id) => identityOf(after, id)),
      removed: after.removed,
    };
    writeWelcome(s.conn.ydoc, c, welcome);
    const notice = addNotice(s.ring.keys, s.deviceId, joiner, now);
    noticesOf(s.conn.ydoc).set(notice.id, notice);
    await s.conn.flushed();
    // The new device deletes the invitation once it has read the welcome.
    await until(s.conn, () => (s.conn.ydoc.getMap('pairing').has(c.offerId) ? null : true), ACK_WAIT_MS, 'the new device’s acknowledgement').catch(() => undefined);
    return joiner;
  } finally {
    if (code) withdrawInvite(s.conn.ydoc, code.offerId);
    await s.close();
  }
}

/** On the new device: joins with the code the user typed (never argv); the inviter must be waiting. */
export async function joinWithCode(config: Config, codeText: string, ui: PairingUi): Promise<{ inviter: DeviceIdentity; fingerprint: string }> {
  const sync = config.sync;
  if (!sync) throw notConfigured();
  const parsed = parseCode(codeText);
  if (!parsed.ok) throw new DeskPilotError(parsed.message, 'invalid_input');
  const { code } = parsed;
  const deviceId = await loadDeviceId(config.configDir.value);
  const keys = newDeviceKeys();
  const deviceKey = newDeviceKey();
  const conn = await connected(connectSync({ url: sync.url.value, allowInsecure: warnIfInsecure(sync), token: { userId: code.userId, deviceId, deviceKey, ticket: b64(serverTicketOf(code.secret)) } }));
  try {
    const offer = await until(conn, () => readOffer(conn.ydoc, code), 15_000, 'the invitation');
    if (!offer.ok) throw new DeskPilotError(offer.message, 'refused');
    const { inviter } = offer;
    ui.say(`Pairing with "${inviter.name}", key ${fingerprintOf(inviter.sign_pub)}`);
    const me = { id: deviceId, name: sync.deviceName.value, sign_pub: keys.signPub, box_pub: keys.boxPub };
    writeAnswer(conn.ydoc, code, me, keys);
    await conn.flushed();
    const welcome = await until(conn, () => readWelcome(conn.ydoc, code), ANSWER_WAIT_MS, `the welcome from "${inviter.name}"`);
    const now = Date.now();
    const devices: Record<string, TrustedDevice> = { [deviceId]: trusted(me, deviceId, true, now) };
    for (const d of [inviter, ...welcome.devices]) {
      if (d.id === deviceId || welcome.removed.some((r) => r.sign_pub === d.sign_pub)) continue;
      const allow = await ui.yes(`May "${d.name}" close tabs, quit apps and undo here without asking you each time? [y/N] `);
      devices[d.id] = trusted(d, d.id === inviter.id ? deviceId : inviter.id, allow, now);
    }
    const trust: TrustFile = { v: 1, user_id: code.userId, self: deviceId, devices, removed: welcome.removed, keys: [{ epoch: welcome.epoch, key: welcome.key, retired_at: null }], current_epoch: welcome.epoch };
    await writeDeviceFiles(config, deviceId, keys, trust, { userId: code.userId, deviceKey });
    conn.doc.pairDevice(deviceRow(deviceId, sync.deviceName.value));
    withdrawInvite(conn.ydoc, code.offerId);
    await conn.flushed();
    return { inviter, fingerprint: fingerprintOf(keys.signPub) };
  } finally {
    conn.close();
  }
}

/**
 * Removes a device from this desk's trust list for good, tells the other desks (a signed notice
 * carrying a new document key for the devices that stay) and the server (which then refuses it).
 * Removing this device itself forgets its keys here.
 */
export async function removeDevice(config: Config, nameOrId: string): Promise<{ name: string; self: boolean; epoch: number }> {
  const s = await openSync(config);
  try {
    const found = s.remote.find(nameOrId);
    if (!found.ok) throw new DeskPilotError(found.message, 'invalid_input');
    const { device } = found;
    const now = Date.now();
    let epoch = s.trust.get().current_epoch;
    if (device.id === s.deviceId) {
      const t = s.trust.get();
      const { notice } = removalNotice(s.ring.keys, t, identityOf(t, device.id), now);
      noticesOf(s.conn.ydoc).set(notice.id, notice);
    } else {
      let notice = null as ReturnType<typeof removalNotice>['notice'] | null;
      const after = await s.trust.update((t) => {
        const r = removalNotice(s.ring.keys, t, identityOf(t, device.id), now);
        notice = r.notice;
        return r.trust;
      });
      epoch = after.current_epoch;
      noticesOf(s.conn.ydoc).set(notice!.id, notice!);
    }
    s.conn.doc.markRemoved(device.id, now);
    await s.conn.flushed();
    if (device.id === s.deviceId) {
      const dir = config.configDir.value;
      await credentialFile(dir).remove();
      await deviceKeyFile(dir).remove();
    }
    return { name: device.name, self: device.id === s.deviceId, epoch };
  } finally {
    await s.close();
  }
}

/** Whether `nameOrId` (a device this desk trusts) may act here without asking. Local only. */
export async function allowDevice(config: Config, nameOrId: string, withoutAsking: boolean): Promise<{ name: string }> {
  const store = trustFile(config.configDir.value);
  const t = store.get();
  const want = nameOrId.trim().toLowerCase();
  const ids = Object.keys(t.devices).filter((id) => id !== t.self && (t.devices[id]!.name.toLowerCase() === want || id === nameOrId.trim()));
  if (ids.length !== 1) {
    const names = Object.entries(t.devices).filter(([id]) => id !== t.self).map(([, d]) => `"${d.name}"`).join(', ') || 'none';
    throw new DeskPilotError(ids.length ? `"${nameOrId}" names ${ids.length} devices: use its id` : `no device called "${nameOrId}" is trusted here (trusted: ${names})`, 'invalid_input');
  }
  const id = ids[0]!;
  await store.update((cur) => ({ ...cur, devices: { ...cur.devices, [id]: { ...cur.devices[id]!, act_without_asking: withoutAsking } } }));
  return { name: t.devices[id]!.name };
}
