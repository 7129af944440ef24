import { describe, expect, it } from 'vitest';
import { curlyQuotes, monogram, siteLabel, siteName, tidyMessage } from './site';

describe('site names', () => {
  it('a loopback address is "this computer", other domains as they are without www', () => {
    expect(siteLabel('127.0.0.1')).toBe('this computer');
    expect(siteLabel('localhost')).toBe('this computer');
    expect(siteLabel('www.reddit.com')).toBe('reddit.com');
  });

  it('spells a site as its titles do, else capitalised; none for loopback', () => {
    expect(siteName('youtube.com', ['Lo-fi beats - YouTube'])).toBe('YouTube');
    expect(siteName('github.com', ['GitHub - deskpilot/issues'])).toBe('GitHub');
    expect(siteName('reddit.com', ['r/node'])).toBe('Reddit');
    expect(siteName('127.0.0.1', ['Hacker News'])).toBeNull();
  });

  it('gives pages of this computer their own letter and colour from the title', () => {
    const a = monogram('127.0.0.1', 'Hacker News');
    const b = monogram('127.0.0.1', 'Rust Docs');
    expect([a.letter, b.letter]).toEqual(['H', 'R']);
    expect(a.hue).not.toBe(b.hue);
    expect(monogram('reddit.com', 'r/node').letter).toBe('R');
  });

  it('drops a loopback host in parentheses from a result line and makes quotes typographic', () => {
    expect(tidyMessage('Switched to tab 3 "Hacker News" (127.0.0.1)')).toBe('Switched to tab 3 “Hacker News”');
    expect(tidyMessage('Closed tab 2 "Docs" (localhost:8080) and tab 3 "x" (reddit.com)')).toBe('Closed tab 2 “Docs” and tab 3 “x” (reddit.com)');
    expect(curlyQuotes(`Typed "rain" into the field, didn't submit`)).toBe('Typed “rain” into the field, didn’t submit');
  });
});
