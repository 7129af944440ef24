import { describe, expect, it } from 'vitest';
import { CONFIRM_TOKEN_TTL_MS, ConfirmToken, type HeldConfirm } from '../protocol/confirm-token';
import { ConfirmTokenStore } from './confirm-tokens';

// The store behind confirm_token: a token works once, until its TTL, and only for the batch it names.

const entry = (id: string): HeldConfirm => ({
  tool: 'close_tabs',
  args: 'digest',
  device: null,
  batch: { v: 1, id, device_id: 'here', prepared_at: '2026-11-28T00:00:00.000Z', snapshot_taken_at: '2026-11-28T00:00:00.000Z', commands: [{ type: 'list_apps', command: { type: 'list_apps' } }], plan: [], confirm: [] },
});

describe('ConfirmTokenStore', () => {
  it('gives a token of the documented shape that returns its batch once', async () => {
    const store = new ConfirmTokenStore();
    const { token } = await store.hold(entry('b1'));
    expect(ConfirmToken.safeParse(token).success).toBe(true);
    expect((await store.take(token))?.batch.id).toBe('b1');
    expect(await store.take(token)).toBeNull();
  });

  it('forgets a token after its TTL', async () => {
    let now = 1_000;
    const store = new ConfirmTokenStore(() => now);
    const { token, expires_at } = await store.hold(entry('b2'));
    expect(expires_at).toBe(new Date(1_000 + CONFIRM_TOKEN_TTL_MS).toISOString());
    now += CONFIRM_TOKEN_TTL_MS + 1;
    expect(await store.take(token)).toBeNull();
  });

  it('a token whose digest names another batch finds nothing', async () => {
    const store = new ConfirmTokenStore();
    const a = await store.hold(entry('b3'));
    const b = await store.hold(entry('b4'));
    const forged = `${a.token.split('.')[0]}.${b.token.split('.')[1]}`;
    expect(await store.take(forged)).toBeNull();
    expect(await store.take(b.token)).not.toBeNull();
  });
});
