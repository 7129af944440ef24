import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../support/cli';
import { waitFor } from '../support/wait-for';
import { spawnProc, startSyncServerProc, type SyncServerProc } from './sync-rig';

// Pairing end to end through the real CLI and a real `deskpilot sync-server`, as a person does it:
// `devices pair` on the first computer, `devices invite` there (a code and its key's
// fingerprint), `devices pair --join` on the new one with the code on standard input (it shows
// the inviter's fingerprint). No desktop is needed: nothing here touches a desk.

const FINGERPRINT = /[0-9a-f]{4}( [0-9a-f]{4}){15}/;

describe('pairing devices through the CLI', () => {
  let dataDir: string;
  let server: SyncServerProc;
  const dirs: string[] = [];

  const device = (name: string) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-pairing-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ sync: { url: server.url, device_name: name } }));
    const env: NodeJS.ProcessEnv = { ...process.env, DESKPILOT_CONFIG_DIR: dir };
    delete env.XDG_RUNTIME_DIR;
    return {
      dir,
      cli: (args: string[], stdin?: string) => runCli(args, { env, stdin }),
      spawn: (args: string[]) => spawnProc(process.execPath, [CLI, ...args], env),
      trust: () => JSON.parse(readFileSync(path.join(dir, 'sync-trust.json'), 'utf8')),
    };
  };

  const invite = async (d: ReturnType<typeof device>) => {
    const p = d.spawn(['devices', 'invite']);
    const code = await waitFor('the code', () => {
      if (p.child.exitCode !== null) throw new Error(p.output());
      return /dpp1\.[A-Za-z0-9_.-]+/.exec(p.output())?.[0] ?? false;
    });
    return { p, code, fingerprint: FINGERPRINT.exec(p.output())![0] };
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-pairing-srv-'));
    server = await startSyncServerProc({ data: path.join(dataDir, 'sync.sqlite') });
  });

  afterAll(async () => {
    await server?.stop();
    for (const d of [dataDir, ...dirs]) rmSync(d, { recursive: true, force: true });
  });

  it('the joiner shows the inviter\'s fingerprint, both trust each other\'s keys, and a code works once', async () => {
    const a = device('work laptop');
    const b = device('home desktop');
    const c = device('spare laptop');
    const first = await a.cli(['devices', 'pair']);
    expect(first.code, first.stderr).toBe(0);
    const fpA = FINGERPRINT.exec(first.stdout)![0];

    const inv = await invite(a);
    expect(inv.fingerprint).toBe(fpA);
    const joined = await b.cli(['devices', 'pair', '--join'], inv.code + '\n');
    expect(joined.code, joined.stderr).toBe(0);
    expect(joined.stdout).toContain(`Pairing with "work laptop", key ${fpA}`);
    expect(await inv.p.exited).toBe(0);
    const fpB = /This device's key: ([0-9a-f ]+) \(/.exec(joined.stdout)![1]!;
    expect(inv.p.output()).toContain(`"home desktop" answered, key ${fpB}`);

    // Each trusts the other's key, pinned; neither may act on the other without asking.
    const [ta, tb] = [a.trust(), b.trust()];
    const idA = ta.self as string;
    const idB = tb.self as string;
    expect(ta.devices[idB]).toMatchObject({ name: 'home desktop', fingerprint: fpB, act_without_asking: false });
    expect(tb.devices[idA]).toMatchObject({ name: 'work laptop', fingerprint: fpA, act_without_asking: false });
    expect(tb.keys).toEqual(ta.keys);

    // The same code again: refused by the server (used).
    const again = await c.cli(['devices', 'pair', '--join'], inv.code + '\n');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('the pairing code is not valid');

    // Both list both.
    for (const d of [a, b]) {
      const listed = await d.cli(['devices', '--json']);
      expect(listed.json.devices.map((v: { device: { name: string } }) => v.device.name).sort()).toEqual(['home desktop', 'work laptop']);
    }

    // `devices allow` changes this desk's flag for that device only.
    expect((await b.cli(['devices', 'allow', 'work laptop', '--without-asking'])).code).toBe(0);
    expect(b.trust().devices[idA].act_without_asking).toBe(true);
    expect(a.trust().devices[idB].act_without_asking).toBe(false);
    expect((await b.cli(['devices', 'allow', 'work laptop', '--ask'])).code).toBe(0);
    expect(b.trust().devices[idA].act_without_asking).toBe(false);
    const unknown = await b.cli(['devices', 'allow', 'nobody', '--ask']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no device called "nobody" is trusted here');
  });

  it('a code whose fingerprint is not the inviter\'s is refused by the joiner; Ctrl-C on the inviter withdraws the code', async () => {
    const a = device('office');
    const b = device('attic');
    expect((await a.cli(['devices', 'pair'])).code).toBe(0);
    const inv = await invite(a);
    const parts = inv.code.split('.');
    parts[4] = 'A'.repeat(22);
    const wrong = await b.cli(['devices', 'pair', '--join'], parts.join('.') + '\n');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("the inviting device's key does not match the fingerprint in the code");
    expect(wrong.stderr).not.toContain('Pairing with');
    inv.p.kill('SIGINT');
    expect(await inv.p.exited).toBe(3);
    expect(inv.p.output()).toContain('the code was withdrawn');
    const typo = await b.cli(['devices', 'pair', '--join'], 'dpp1.not-a-code\n');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('a pairing code starts with "dpp1."');
    // The attempt that stopped half-way does not keep b out: a fresh code pairs it.
    const again = await invite(a);
    const joined = await b.cli(['devices', 'pair', '--join'], again.code + '\n');
    expect(joined.code, joined.stderr).toBe(0);
    expect(await again.p.exited).toBe(0);
  });

  it('a removed device is no longer trusted, and pairs again with a fresh code under a new key (the old key stays removed)', async () => {
    const a = device('desk one');
    const b = device('desk two');
    expect((await a.cli(['devices', 'pair'])).code).toBe(0);
    const first = await invite(a);
    expect((await b.cli(['devices', 'pair', '--join'], first.code + '\n')).code).toBe(0);
    expect(await first.p.exited).toBe(0);
    const idB = b.trust().self as string;
    const oldKey = a.trust().devices[idB].sign_pub as string;

    const removed = await a.cli(['devices', 'remove', 'desk two']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(a.trust().devices[idB]).toBeUndefined();
    expect(a.trust().removed).toEqual([expect.objectContaining({ id: idB, sign_pub: oldKey })]);
    expect(a.trust().current_epoch).toBe(2);
    const refused = await b.cli(['devices']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('this device was removed');

    const again = await invite(a);
    const joined = await b.cli(['devices', 'pair', '--join'], again.code + '\n');
    expect(joined.code, joined.stderr).toBe(0);
    expect(await again.p.exited).toBe(0);
    const ta = a.trust();
    expect(ta.devices[idB].sign_pub).not.toBe(oldKey);
    expect(ta.removed.map((r: { sign_pub: string }) => r.sign_pub)).toEqual([oldKey]);
    // b has the current document key (epoch 2), and both list each other again.
    expect(b.trust().current_epoch).toBe(2);
    const listed = await b.cli(['devices', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json.devices.filter((v: { device: { removed_at?: number } }) => v.device.removed_at === undefined).map((v: { device: { name: string } }) => v.device.name).sort()).toEqual(['desk one', 'desk two']);
  });
});
