import { describe, expect, it } from 'vitest';
import { checkUrl, noChangeMessage } from './agent-tab';

describe('noChangeMessage', () => {
  it("uses the seed's wording with the real wait", () => {
    expect(noChangeMessage(15_000)).toBe('Action executed but no DOM change detected within 15 seconds.');
    expect(noChangeMessage(500)).toBe('Action executed but no DOM change detected within 0.5 seconds.');
    expect(noChangeMessage(1000)).toBe('Action executed but no DOM change detected within 1 second.');
  });
});

describe('checkUrl', () => {
  it('resolves relative URLs against the page and allows http(s) only', () => {
    expect(checkUrl('/b?x=1', 'http://127.0.0.1:9/a')).toBe('http://127.0.0.1:9/b?x=1');
    expect(checkUrl('example.com/x', '')).toBe('https://example.com/x');
    expect(checkUrl('about:blank', '')).toBe('about:blank');
    expect(() => checkUrl('javascript:alert(1)', '')).toThrow('only http and https pages are allowed');
    expect(() => checkUrl('file:///etc/passwd', '')).toThrow('only http and https');
    expect(() => checkUrl('chrome://settings', '')).toThrow('only http and https');
  });
});
