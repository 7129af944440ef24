import { describe, expect, it } from 'vitest';
import { ChromeUnavailableError } from '../../engine/errors';
import { hostPort, isLoopbackHost, parseChromeUrl } from './endpoint-url';

describe('isLoopbackHost', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', 'localhost.', 'app.localhost', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])(
    'accepts %s',
    (h) => expect(isLoopbackHost(h)).toBe(true),
  );
  it.each(['10.0.0.5', '192.168.1.2', '0.0.0.0', 'example.com', 'localhost.example.com', '128.0.0.1', '::', '::ffff:10.0.0.1', '[fe80::1]'])(
    'rejects %s',
    (h) => expect(isLoopbackHost(h)).toBe(false),
  );
});

describe('parseChromeUrl', () => {
  it('classifies http and ws endpoints', () => {
    expect(parseChromeUrl('http://127.0.0.1:9222', false).kind).toBe('http');
    expect(parseChromeUrl(' ws://localhost:9222/devtools/browser/abc ', false).kind).toBe('ws');
  });

  it('refuses a non-loopback host with a sentence naming the option, unless allowed', () => {
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
