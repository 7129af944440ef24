import { describe, expect, it } from 'vitest';
import { needsYes, openUrlTarget } from './open-url-target';

describe('openUrlTarget', () => {
  it('opens web addresses as normalised, and the harmless browser pages', () => {
    expect(openUrlTarget('chatgpt', null)).toEqual({ ok: true, url: 'https://chatgpt.com/', domain: 'chatgpt.com', typed: false });
    expect(openUrlTarget('chrome://newtab', null)).toEqual({ ok: true, url: 'chrome://newtab/', domain: '', typed: false });
    expect(openUrlTarget('about:blank', null)).toMatchObject({ ok: true, url: 'about:blank', typed: false });
  });

  it.each([
    ['file:///etc/passwd', 'file', 'it shows files from this computer'],
    ['javascript:alert(1)', 'javascript', 'it runs script'],
    ['data:text/html,<h1>Your bank</h1>', 'data', 'a common phishing trick'],
    ['chrome://settings/passwords', 'chrome', "the browser's own pages"],
    ['devtools://devtools/bundled/inspector.html', 'devtools', 'developer tools'],
  ])('refuses %s unless typed, saying why', (url, scheme, why) => {
    const r = openUrlTarget(url, null);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toMatch(new RegExp(`^uses the "${scheme}:" scheme \\(`));
      expect(r.reason).toContain(why);
      expect(r.reason).toContain('only when you type them in your own request and confirm');
    }
    // The same address in the person's own words: allowed, marked for a yes.
    expect(openUrlTarget(url, `please open ${url} now`)).toEqual({ ok: true, url, domain: '', typed: true });
  });

  it('a planner cannot make one up: the words must hold that exact address', () => {
    expect(openUrlTarget('file:///etc/shadow', 'open file:///etc/passwd').ok).toBe(false);
    expect(openUrlTarget('chrome://settings', 'open my chrome settings').ok).toBe(false);
  });

  it('hidden characters and broken web addresses keep the web reason, typed or not', () => {
    expect(openUrlTarget('file:///x\u200b', 'open file:///x\u200b')).toEqual({ ok: false, reason: 'contains control or invisible characters' });
    expect(openUrlTarget('java\tscript:alert(1)', 'java\tscript:alert(1)').ok).toBe(false);
    expect(openUrlTarget('https://user:pw@evil.com', 'https://user:pw@evil.com')).toEqual({ ok: false, reason: 'contains a user name or password' });
  });

  it('needsYes: anything but a web address or a browser page', () => {
    expect(['https://a.com/', 'http://127.0.0.1:3000/', 'about:blank', 'chrome://newtab/'].map(needsYes)).toEqual([false, false, false, false]);
    expect(['file:///x', 'chrome://settings', 'data:,x'].map(needsYes)).toEqual([true, true, true]);
  });
});
