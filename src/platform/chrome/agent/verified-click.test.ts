import { describe, expect, it } from 'vitest';
import { CdpTimeoutError } from '../cdp-connection';
import type { FrameSession, World } from './frames';
import { verifiedClick, type ClickPort } from './verified-click';

// The decisions of a verified click on a fake port (the real one, in real Chromium, is covered
// in tests/agent/agent-browser.test.ts): what an unanswered probe means.

const fs = { parent: null, worlds: new Map(), rootFrameId: 'f' } as unknown as FrameSession;
const w = {} as World;

function fakePort(answers: { probed: () => Promise<unknown>; pressed?: () => Promise<unknown> }): ClickPort & { presses: number } {
  const port = {
    presses: 0,
    worlds: () => [{ fs, w }],
    call: async <T>(_fs: FrameSession, _w: World, fn: string): Promise<T> => {
      if (fn === 'arm') return true as T;
      if (fn === 'probed') return (await answers.probed()) as T;
      if (fn === 'pressed') return (await (answers.pressed ?? (async () => false))()) as T;
      return undefined as T;
    },
    frames: async () => undefined,
    mouse: async (type: string) => {
      if (type === 'mousePressed') port.presses++;
    },
  };
  return port;
}

const aim = async () => ({ x: 10, y: 10 });

describe('verifiedClick (fake port)', () => {
  it('a probe that reached the element is a click', async () => {
    const port = fakePort({ probed: async () => ({ got: 'hit', what: '<button>' }) });
    expect(await verifiedClick(port, { fs, w, local: 1 }, aim, 'left', 1)).toEqual({ kind: 'clicked' });
    expect(port.presses).toBe(1);
  });

  it('a document gone with the press (a link) is a click', async () => {
    const port = fakePort({ probed: async () => Promise.reject(new Error('Cannot find context with specified id')) });
    expect(await verifiedClick(port, { fs, w, local: 1 }, aim, 'left', 1)).toEqual({ kind: 'clicked' });
  });

  it('a probe that timed out fails the click: it is neither reported done nor pressed again', async () => {
    const port = fakePort({ probed: async () => Promise.reject(new CdpTimeoutError('Runtime.evaluate', 5000)) });
    await expect(verifiedClick(port, { fs, w, local: 1 }, aim, 'left', 1)).rejects.toBeInstanceOf(CdpTimeoutError);
    expect(port.presses).toBe(1);
  });

  it('nobody saw the press and the :active check timed out: the click fails the same way', async () => {
    const port = fakePort({ probed: async () => ({ got: null, what: '' }), pressed: async () => Promise.reject(new CdpTimeoutError('Runtime.evaluate', 5000)) });
    await expect(verifiedClick(port, { fs, w, local: 1 }, aim, 'left', 1)).rejects.toBeInstanceOf(CdpTimeoutError);
    expect(port.presses).toBe(1);
  });

  it('nobody saw the press and the element is not pressed: it is tried again', async () => {
    let n = 0;
    const port = fakePort({ probed: async () => (++n < 2 ? { got: null, what: '' } : { got: 'hit', what: '<button>' }) });
    expect(await verifiedClick(port, { fs, w, local: 1 }, aim, 'left', 1)).toEqual({ kind: 'clicked' });
    expect(port.presses).toBe(2);
  });
});
