import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../tests/support/wait-for';
import { connectSync, transportCheck, type SyncConnection } from './sync-connection';
import { startSyncServer, type RunningSyncServer } from './sync-server';
import { b64 } from './seal';
import { formatCode, newPairingCode, parseCode, serverTicketOf, writeInvite } from './pairing';
import { formatToken, newDeviceKey, newEnrollKey, parseToken, userIdOf } from './sync-secret';

// The real sync server in this process, real providers over loopback websockets.

describe('the sync server checks who connects', () => {
  let dir: string;
  let server: RunningSyncServer;
  const open: SyncConnection[] = [];
  const enrollKey = newEnrollKey();
  const userId = userIdOf(enrollKey);

  const connect = (token: Parameters<typeof connectSync>[0]['token']) => {
    const c = connectSync({ url: server.url, token });
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-syncsrv-unit-'));
    server = await startSyncServer({ port: 0, host: '127.0.0.1', dataFile: path.join(dir, 'sync.sqlite') });
  });

  afterAll(async () => {
    open.forEach((c) => c.close());
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a device pairs with the enroll key, then connects with its own key alone; a wrong key or none is refused', async () => {
    const key = newDeviceKey();
    await connect({ userId, deviceId: 'device-unit-a1', deviceKey: key, enrollKey }).ready;
    await connect({ userId, deviceId: 'device-unit-a1', deviceKey: key }).ready;
    await expect(connect({ userId, deviceId: 'device-unit-a1', deviceKey: newDeviceKey() }).ready).rejects.toThrow('wrong device key');
    await expect(connect({ userId, deviceId: 'device-unit-zz', deviceKey: key }).ready).rejects.toThrow('this device is not paired');
    await expect(connect({ userId, deviceId: 'device-unit-a2', deviceKey: key, enrollKey: newEnrollKey() }).ready).rejects.toThrow('wrong enroll key');
  });

  it('a new device joins with the server ticket of an invite in the document, once, and not after it expired or was withdrawn', async () => {
    const inviter = connect({ userId, deviceId: 'device-unit-i1', deviceKey: newDeviceKey(), enrollKey });
    await inviter.ready;
    const me = { id: 'device-unit-i1', name: 'inviter', sign_pub: 'a'.repeat(43), box_pub: 'b'.repeat(43) };
    const code = newPairingCode(userId, me.sign_pub);
    writeInvite(inviter.ydoc, code, me);
    await inviter.flushed();
    const ticket = b64(serverTicketOf(code.secret));
    // A made-up ticket: refused.
    await expect(connect({ userId, deviceId: 'device-unit-j0', deviceKey: newDeviceKey(), ticket: b64(serverTicketOf(Buffer.alloc(32, 1))) }).ready).rejects.toThrow('the pairing code is not valid');
    const key = newDeviceKey();
    await connect({ userId, deviceId: 'device-unit-j1', deviceKey: key, ticket }).ready;
    // Enrolled: it comes back with its key alone, and finishes pairing (its row in the document).
    const j1 = connect({ userId, deviceId: 'device-unit-j1', deviceKey: key });
    await j1.ready;
    j1.doc.pairDevice({ v: 1, id: 'device-unit-j1', name: 'joiner', platform: 'linux', version: '1', last_seen: Date.now() });
    await j1.flushed();
    // Used once: a second device with the same ticket is refused.
    await expect(connect({ userId, deviceId: 'device-unit-j2', deviceKey: newDeviceKey(), ticket }).ready).rejects.toThrow('the pairing code is not valid');
    // An expired invite (by its own word) is refused.
    const late = newPairingCode(userId, me.sign_pub);
    writeInvite(inviter.ydoc, late, me, Date.now() - 11 * 60_000);
    await inviter.flushed();
    await expect(connect({ userId, deviceId: 'device-unit-j3', deviceKey: newDeviceKey(), ticket: b64(serverTicketOf(late.secret)) }).ready).rejects.toThrow('the pairing code is not valid');
    // A ticket cannot take over the id of a device that finished pairing.
    const third = newPairingCode(userId, me.sign_pub);
    writeInvite(inviter.ydoc, third, me);
    await inviter.flushed();
    await expect(connect({ userId, deviceId: 'device-unit-j1', deviceKey: newDeviceKey(), ticket: b64(serverTicketOf(third.secret)) }).ready).rejects.toThrow('already paired');
    expect(parseCode(formatCode(code))).toEqual({ ok: true, code });
  });

  it('a device removed in the document is disconnected at once and refused from then on; pairing again brings it back', async () => {
    const keyA = newDeviceKey();
    const keyB = newDeviceKey();
    const pairing = connect({ userId, deviceId: 'device-unit-b2', deviceKey: keyB, enrollKey });
    await pairing.ready;
    pairing.close();
    const a = connect({ userId, deviceId: 'device-unit-b1', deviceKey: keyA, enrollKey });
    // Paired, b connects as its worker does: with its own key only.
    const b = connect({ userId, deviceId: 'device-unit-b2', deviceKey: keyB });
    await Promise.all([a.ready, b.ready]);
    b.doc.pairDevice({ v: 1, id: 'device-unit-b2', name: 'b', platform: 'linux', version: '1', last_seen: Date.now() });
    const refused = new Promise<string>((resolve) => b.onRefused(resolve));
    await waitFor('a to see b', () => a.doc.device('device-unit-b2') !== null);
    a.doc.markRemoved('device-unit-b2', Date.now());
    // Kicked off, b reconnects by itself and is refused.
    expect(await refused).toBe('this device was removed');
    await expect(connect({ userId, deviceId: 'device-unit-b2', deviceKey: keyB }).ready).rejects.toThrow('this device was removed');
    const back = connect({ userId, deviceId: 'device-unit-b2', deviceKey: newDeviceKey(), enrollKey });
    await back.ready;
  });

  it('a token for another user\'s document, or not a token at all, is refused', async () => {
    const other = userIdOf(newEnrollKey());
    const key = newDeviceKey();
    await connect({ userId, deviceId: 'device-unit-c1', deviceKey: key, enrollKey }).ready;
    const { HocuspocusProvider, HocuspocusProviderWebsocket } = await import('@hocuspocus/provider');
    const { default: WebSocket } = await import('ws');
    const tryToken = (name: string, token: string) =>
      new Promise<string>((resolve) => {
        const socket = new HocuspocusProviderWebsocket({ url: server.url, WebSocketPolyfill: WebSocket });
        const p = new HocuspocusProvider({ websocketProvider: socket, name, token, onAuthenticationFailed: ({ reason }) => (p.destroy(), socket.destroy(), resolve(reason)) });
        p.attach();
      });
    expect(await tryToken(`deskpilot/${other}`, formatToken({ userId, deviceId: 'device-unit-c1', deviceKey: key }))).toBe('the token is not for this document');
    expect(await tryToken(`deskpilot/${userId}`, 'let me in')).toBe('not a DeskPilot sync token');
  });
});

describe('sync secrets and tokens', () => {
  it('a token reads back as written; anything else is not a token', () => {
    const t = { userId: 'abcDEF_-123', deviceId: 'device-0001', deviceKey: 'k'.repeat(43) };
    expect(parseToken(formatToken(t))).toEqual(t);
    expect(parseToken(formatToken({ ...t, enrollKey: 'e'.repeat(43) }))).toEqual({ ...t, enrollKey: 'e'.repeat(43) });
    expect(parseToken(formatToken({ ...t, ticket: 't'.repeat(43) }))).toEqual({ ...t, ticket: 't'.repeat(43) });
    expect(parseToken('dp1.a.b')).toBeNull();
    expect(parseToken('dp1.user.bad id!.key')).toBeNull();
  });
});

describe('the transport', () => {
  it('wss:// anywhere and ws:// to this computer are used; ws:// to another host is refused unless allowed, then with a warning', () => {
    for (const url of ['wss://sync.example.org', 'ws://127.0.0.1:8766', 'ws://127.5.6.7:1', 'ws://localhost:8766', 'ws://[::1]:8766']) expect(transportCheck(url)).toEqual({ ok: true, warning: null });
    expect(transportCheck('ws://sync.example.org')).toMatchObject({ ok: false, message: expect.stringContaining('ws://sync.example.org is not encrypted') });
    expect(transportCheck('ws://192.168.1.5:8766')).toMatchObject({ ok: false });
    expect(transportCheck('ws://127.0.0.1.evil.example:1')).toMatchObject({ ok: false });
    expect(transportCheck('ws://192.168.1.5:8766', true)).toMatchObject({ ok: true, warning: expect.stringContaining('not encrypted') });
    const token = { userId: 'u'.repeat(43), deviceId: 'device-0001', deviceKey: 'k'.repeat(43) };
    expect(() => connectSync({ url: 'ws://sync.example.org', token })).toThrow('allow_insecure');
  });
});
