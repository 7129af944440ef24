import { describe, expect, it } from 'vitest';
import { checkUrl } from './action-error';

describe('checkUrl', () => {
  it('resolves relative URLs against the page and allows http(s) only', () => {
    expect(checkUrl('/b?x=1', 'http://127.0.0.1:9/a')).toBe('http://127.0.0.1:9/b?x=1');
    expect(checkUrl('example.com/x', '')).toBe('https://example.com/x');
    expect(checkUrl('about:blank', '')).toBe('about:blank');
    expect(() => checkUrl('javascript:alert(1)', '')).toThrow('only http and https pages are allowed');
    expect(() => checkUrl('http://', '')).toThrow(expect.objectContaining({ code: 'url_refused' }));
    expect(() => checkUrl('file:///etc/passwd', '')).toThrow('only http and https');
    expect(() => checkUrl('chrome://settings', '')).toThrow('only http and https');
  });
});
