import { describe, expect, it } from 'vitest';
import type { ResolvedCommand } from '../protocol/prepared-batch';
import { checkOwnEndpoints } from './desk-checks';

const open = (url: string): ResolvedCommand => ({ type: 'open_url', command: { type: 'open_url', url }, url, domain: '' });
const own = [{ url: 'ws://127.0.0.1:8766', what: "DeskPilot's sync server" }];

describe('open_url never goes to DeskPilot\'s own listeners', () => {
  it('refuses the sync server under any name of this computer, with the url field named', () => {
    for (const url of ['http://127.0.0.1:8766/', 'http://localhost:8766/x', 'http://[::1]:8766/', 'http://0.0.0.0:8766', 'http://app.localhost:8766/']) {
      expect(checkOwnEndpoints([open('https://example.com/'), open(url)], own)).toEqual({
        ok: false,
        unavailable: false,
        errors: [{ path: 'commands[1].url', message: `refused: ${url} is DeskPilot's sync server; a page opened there could talk to DeskPilot itself` }],
      });
    }
  });

  it('leaves other ports and hosts alone (a dev server on localhost is a web address like any other)', () => {
    expect(checkOwnEndpoints([open('http://localhost:3000/'), open('http://example.com:8766/'), open('https://127.0.0.1/')], own)).toEqual({ ok: true });
    expect(checkOwnEndpoints([open('http://127.0.0.1:8766/')], [])).toEqual({ ok: true });
  });

  it('a sync server elsewhere is refused by its own host and port', () => {
    const remote = [{ url: 'wss://sync.example.org', what: "DeskPilot's sync server" }];
    expect(checkOwnEndpoints([open('https://sync.example.org/')], remote).ok).toBe(false);
    expect(checkOwnEndpoints([open('https://www.example.org/')], remote).ok).toBe(true);
  });
});
