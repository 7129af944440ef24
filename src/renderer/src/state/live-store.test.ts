import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RendererApi } from '../../../protocol/ipc';
import type { PlanPreview } from '../../../protocol/launcher';
import { INITIAL_KEYS } from '../live/keyboard';
import { tab, testIndex } from '../live/test-index';
import { useCommandStore } from './command-store';
import { useInputStore } from './input-store';
import { useLiveStore } from './live-store';

// The launcher's live list against a fake of the preload bridge (window.api): Electron's IPC
// does not exist in a unit test. Previews are answered when the test says, to order events.

const index = testIndex();
const preview = (text: string, p: Partial<PlanPreview> = {}): PlanPreview => ({ text, index: index.id, kind: 'act', commands: [], question: null, choices: [], newer: null, ...p });

let calls: Array<[string, unknown]>;
let previews: Array<{ text: string; answer: (p: PlanPreview) => void }>;

/** Lets answered requests and what they start run to the end (cleanup only; tests wait on conditions). */
const settle = () => new Promise<void>((r) => setTimeout(r, 0));
const WAIT = { timeout: 10_000 };

beforeEach(() => {
  calls = [];
  previews = [];
  const api = new Proxy(
    {},
    {
      get: (_t, method: string) => (req: unknown) => {
        calls.push([method, req]);
        if (method === 'launcherPreview') {
          return new Promise((resolve) => previews.push({ text: (req as { text: string }).text, answer: (p) => resolve({ ok: true, value: p }) }));
        }
        if (method === 'launcherIndex') return Promise.resolve({ ok: true, value: index });
        return new Promise(() => {}); // commands: the test only looks at what was sent
      },
    },
  );
  vi.stubGlobal('window', { api: api as RendererApi });
  useCommandStore.setState({ phase: { kind: 'idle' } });
  useLiveStore.setState({ listFor: null, preview: null, enterWaiting: null, keys: INITIAL_KEYS });
  useLiveStore.getState().receiveIndex(index);
});

afterEach(async () => {
  vi.useRealTimers();
  // Answer whatever is still asked, so no request stays in flight into the next test.
  for (let i = 0; i < 5 && previews.length; i++) {
    previews.splice(0).forEach((p) => p.answer(preview(p.text)));
    await settle();
  }
  vi.unstubAllGlobals();
});

/** The person types `text`: the field and the list both see it, as the command input does. */
function type(text: string): void {
  useInputStore.setState({ text });
  useLiveStore.getState().typed(text);
}

describe('live list (fake bridge)', () => {
  it('lists matches on the key press itself, before any preview', () => {
    type('youtube');
    const rows = useLiveStore.getState().list.rows;
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.filter((r) => r.kind === 'item').map((r) => (r.kind === 'item' ? r.title : ''))).toEqual(expect.arrayContaining(['Lo-fi beats - YouTube', 'Cats compilation - YouTube']));
  });

  it('asks for the preview after the key press, not during it: keys typed before then are asked about once, for the newest words', async () => {
    vi.useFakeTimers();
    type('c');
    type('cl');
    type('clo');
    // Nothing went out while the keys were handled: the rows are drawn first.
    expect(previews).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(previews.map((p) => p.text)).toEqual(['clo']);
  });

  it('asks for one preview at a time, next only for the newest words, and never twice for the same words', async () => {
    vi.useFakeTimers();
    type('c');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(previews.map((p) => p.text)).toEqual(['c']);
    type('cl');
    type('clo');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(previews.map((p) => p.text)).toEqual(['c']);
    previews[0]!.answer(preview('c'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(previews.map((p) => p.text)).toEqual(['c', 'clo']);
    previews[1]!.answer(preview('clo'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(previews.map((p) => p.text)).toEqual(['c', 'clo']);
  });

  it('Enter before the preview arrives waits for it, then runs the plan row', async () => {
    type('close youtube');
    useLiveStore.getState().key({ key: 'Enter' });
    expect(useLiveStore.getState().enterWaiting).toBe('close youtube');
    expect(calls.some(([m]) => m === 'commandSubmit')).toBe(false);
    previews[0]!.answer(preview('close youtube', { commands: [{ type: 'close_tab', tab_indices: [4, 6] }] }));
    await vi.waitFor(() => expect(calls.filter(([m]) => m === 'commandSubmit').map(([, r]) => r)).toEqual([{ text: 'close youtube' }]), WAIT);
    expect(useLiveStore.getState().listFor).toBeNull();
  });

  it('a preview planned on a newer desk brings its index: the list takes it without asking main for another snapshot', async () => {
    type('rust');
    await vi.waitFor(() => expect(previews.map((p) => p.text)).toEqual(['rust']), WAIT);
    // The request says which index the list is drawn from.
    expect(calls.find(([m]) => m === 'launcherPreview')?.[1]).toEqual({ text: 'rust', index: 'd1' });
    const newer = testIndex({ id: 'd2', tabs: [tab(1, 'Rust Book', 'doc.rust-lang.org', { active: true })] });
    previews[0]!.answer(preview('rust', { index: 'd2', newer }));
    await vi.waitFor(() => expect(useLiveStore.getState().index?.id).toBe('d2'), WAIT);
    const titles = useLiveStore.getState().list.rows.flatMap((r) => (r.kind === 'item' ? [r.title] : []));
    expect(titles).toEqual(['Rust Book']);
    await settle();
    expect(calls.filter(([m]) => m === 'launcherIndex')).toEqual([]);
    // Planned on the index the list now shows: nothing more is asked about these words.
    expect(previews).toHaveLength(1);
  });

  it('text put in the field from elsewhere (↑, voice) takes the list away', () => {
    type('reddit');
    expect(useLiveStore.getState().listFor).toBe('reddit');
    useInputStore.setState({ text: 'close reddit' });
    expect(useLiveStore.getState().listFor).toBeNull();
    expect(useLiveStore.getState().list.rows).toEqual([]);
  });

  it('words for the agent are not matched against the desk', () => {
    type('agent: find cats');
    expect(useLiveStore.getState().listFor).toBeNull();
    expect(previews).toEqual([]);
  });
});
