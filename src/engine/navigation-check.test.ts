import { describe, expect, it } from 'vitest';
import type { ResolvedCommand } from '../protocol/prepared-batch';
import { ChromeUnavailableError } from './errors';
import { checkNavigations } from './navigation-check';
import type { ChromeBackend } from './ports';

// The Chrome port is a fake here (the real one is tested against Chromium in tests/chrome):
// only navigationRefusal is asked, and it refuses one address.

const REFUSED = 'http://127.0.0.1:9222/json/close/T1';
function fakeChrome(calls: string[]): () => Promise<ChromeBackend> {
  const port = {
    navigationRefusal: async (url: string) => {
      calls.push(url);
      return url === REFUSED ? `refused: ${url} is DeskPilot's own DevTools endpoint; opening it would let a page control the browser` : null;
    },
  } as Partial<ChromeBackend> as ChromeBackend;
  return async () => port;
}

const open = (url: string): ResolvedCommand => ({ type: 'open_url', command: { type: 'open_url', url }, url, domain: '' });
const list: ResolvedCommand = { type: 'list_tabs', command: { type: 'list_tabs' } };

describe('checkNavigations (fake Chrome port)', () => {
  it('asks about every address a batch opens and reports each refusal on its field', async () => {
    const calls: string[] = [];
    const r = await checkNavigations([list, open('https://a.com/'), open(REFUSED)], fakeChrome(calls));
    expect(calls).toEqual(['https://a.com/', REFUSED]);
    expect(r).toEqual({ ok: false, unavailable: false, errors: [{ path: 'commands[2].url', message: expect.stringMatching(/^refused: .* DevTools endpoint/) }] });
  });

  it('does not touch Chrome for a batch that opens nothing', async () => {
    const chrome = async (): Promise<ChromeBackend> => {
      throw new Error('must not be asked');
    };
    expect(await checkNavigations([list], chrome)).toEqual({ ok: true });
  });

  it('a Chrome that cannot be asked makes the batch unavailable, not run', async () => {
    const chrome = async (): Promise<ChromeBackend> => {
      throw new ChromeUnavailableError('Chrome is not reachable: start it with `deskpilot chrome launch`.');
    };
    expect(await checkNavigations([open('https://a.com/')], chrome)).toEqual({
      ok: false,
      unavailable: true,
      errors: [{ path: 'commands[0]', message: 'Chrome is not reachable: start it with `deskpilot chrome launch`.' }],
    });
  });

  it('a batch from elsewhere must have asked about a non-web address it opens', async () => {
    const calls: string[] = [];
    const unasked = await checkNavigations([open('file:///etc/passwd')], fakeChrome(calls), []);
    expect(unasked).toMatchObject({ ok: false, errors: [{ path: 'commands[0].url', message: 'file:///etc/passwd is not a web address and the batch does not ask about it, so it is not opened' }] });
    const asked = await checkNavigations([open('file:///etc/passwd')], fakeChrome(calls), [{ index: 0, kind: 'open_url', summary: 'open file:///etc/passwd', targets: [] }]);
    expect(asked).toEqual({ ok: true });
  });
});
