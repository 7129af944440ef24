import { describe, expect, it } from 'vitest';
import type { RunningApp } from '../protocol/context';
import { FrontmostTracker, focusedWindow } from './frontmost';

const win = (title: string, focused: boolean) => ({ id: title, title, bounds: [0, 0, 10, 10] as [number, number, number, number], monitor: null, focused, minimized: false });
const apps = (...list: RunningApp[]) => ({ running_apps: list });

describe('frontmost window', () => {
  it("is the focused window's app and title", () => {
    const s = apps({ name: 'Terminal', pid: 10, windows: [win('bash', false)] }, { name: 'Google Chrome', pid: 20, windows: [win('Inbox', false), win('GitHub', true)] });
    expect(focusedWindow(s, 1)).toEqual({ app: 'Google Chrome', title: 'GitHub' });
  });

  it("skips DeskPilot's own windows and reports nothing when nothing else has focus", () => {
    expect(focusedWindow(apps({ name: 'DeskPilot', pid: 1, windows: [win('DeskPilot', true)] }), 1)).toBeNull();
  });

  it('waits for the snapshot at most the given time, and a late answer still counts', async () => {
    let resolve!: (v: ReturnType<typeof apps>) => void;
    const t = new FrontmostTracker(() => new Promise((r) => (resolve = r)), 1, 20);
    const started = Date.now();
    await t.capture();
    expect(Date.now() - started).toBeLessThan(500);
    expect(t.current()).toBeNull();
    resolve(apps({ name: 'Cursor', pid: 5, windows: [win('main.ts', true)] }));
    await new Promise((r) => setTimeout(r, 0));
    expect(t.current()).toEqual({ app: 'Cursor', title: 'main.ts' });
  });

  it('a newer capture wins over an older late one; a failed read forgets the old window', async () => {
    const answers: Array<(v: ReturnType<typeof apps>) => void> = [];
    const t = new FrontmostTracker(() => new Promise((r) => answers.push(r)), 1, 5);
    await t.capture();
    await t.capture();
    answers[1]!(apps({ name: 'New', pid: 2, windows: [win('n', true)] }));
    answers[0]!(apps({ name: 'Old', pid: 3, windows: [win('o', true)] }));
    await new Promise((r) => setTimeout(r, 0));
    expect(t.current()).toEqual({ app: 'New', title: 'n' });
    const failing = new FrontmostTracker(() => Promise.reject(new Error('no X display')), 1, 50);
    await failing.capture();
    expect(failing.current()).toBeNull();
  });
});
