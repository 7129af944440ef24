import { describe, expect, it } from 'vitest';
import { ChromeUnavailableError } from '../../engine/errors';
import { hostPort, loopbackAddresses, parseChromeUrl } from './endpoint-url';
import { fakeResolver, rejectionOf } from './fake-resolver';

describe('parseChromeUrl', () => {
  it('classifies http and ws endpoints', () => {
    expect(parseChromeUrl('http://127.0.0.1:9222', false).kind).toBe('http');
    expect(parseChromeUrl(' ws://localhost:9222/devtools/browser/abc ', false).kind).toBe('ws');
  });

  it('refuses a non-loopback address with a sentence naming the option, unless allowed', () => {
    const err = (() => {
      try {
        parseChromeUrl('http://10.1.2.3:9222', false);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ChromeUnavailableError);
    expect((err as Error).message).toMatch(/10\.1\.2\.3 is not this computer/);
    expect((err as Error).message).toMatch(/chrome\.allow_remote/);
    expect(parseChromeUrl('http://10.1.2.3:9222', true).kind).toBe('http');
  });

  it('rejects garbage, other schemes and page websockets', () => {
    expect(() => parseChromeUrl('not a url', false)).toThrow(/is not a URL/);
    expect(() => parseChromeUrl('ftp://127.0.0.1:9222', false)).toThrow(/only http\(s\):\/\/ or ws\(s\):\/\//);
    expect(() => parseChromeUrl('ws://127.0.0.1:9222/devtools/page/ABC', false)).toThrow(/not a browser websocket/);
  });

  it('hostPort shows host and port', () => {
    expect(hostPort('ws://127.0.0.1:41234/devtools/browser/x')).toBe('127.0.0.1:41234');
  });
});

describe('loopbackAddresses: "this computer" is decided by the resolved address', () => {
  it('keeps a loopback address as it is and refuses any other address', async () => {
    expect((await loopbackAddresses(new URL('http://127.0.0.1:9222'), false)).map(String)).toEqual(['http://127.0.0.1:9222/']);
    expect((await loopbackAddresses(new URL('http://[::1]:9222'), false)).map(String)).toEqual(['http://[::1]:9222/']);
    expect((await rejectionOf(loopbackAddresses(new URL('http://0.0.0.0:9222'), false))).message).toMatch(/0\.0\.0\.0 is not this computer/);
  });

  it('connects to the addresses a loopback name resolves to, never to the name', async () => {
    const dns = fakeResolver({ localhost: ['127.0.0.1', '::1'] });
    expect((await loopbackAddresses(new URL('ws://localhost:9222/devtools/browser/x'), false, undefined, dns)).map(String)).toEqual([
      'ws://127.0.0.1:9222/devtools/browser/x',
      'ws://[::1]:9222/devtools/browser/x',
    ]);
  });

  it.each([
    ['http://evil.localhost:9222', { 'evil.localhost': ['93.184.216.34'] }, /evil\.localhost is not this computer \(it resolves to 93\.184\.216\.34\)/],
    ['http://localhost.:9222', { 'localhost.': ['203.0.113.9', '127.0.0.1'] }, /localhost\. is not this computer \(it resolves to 203\.0\.113\.9, 127\.0\.0\.1\)/],
    ['ws://evil.localhost:9222/devtools/browser/x', {}, /the name evil\.localhost does not resolve to an address on this computer \(ENOTFOUND\)/],
  ])('refuses %s when the resolver does not answer with loopback only (fake DNS)', async (url, answers, message) => {
    const err = await rejectionOf(loopbackAddresses(new URL(url), false, url, fakeResolver(answers)));
    expect(err).toBeInstanceOf(ChromeUnavailableError);
    expect(err.message).toMatch(message);
    expect(err.message).toContain(`Refusing to connect to Chrome at ${url}`);
  });

  it('with --allow-remote-chrome uses the endpoint as configured', async () => {
    const dns = fakeResolver({});
    expect((await loopbackAddresses(new URL('http://devbox.example:9222'), true, undefined, dns)).map(String)).toEqual(['http://devbox.example:9222/']);
  });
});
