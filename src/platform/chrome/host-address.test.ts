import { describe, expect, it } from 'vitest';
import { bareHost, isLoopbackAddress, isThisComputer, systemLookup } from './host-address';

describe('isLoopbackAddress', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::ffff:7f00:1'])('accepts %s', (a) =>
    expect(isLoopbackAddress(a)).toBe(true),
  );
  // Names are never loopback by themselves: only what they resolve to is.
  it.each(['localhost', 'evil.localhost', 'localhost.', '10.0.0.5', '0.0.0.0', '::', '128.0.0.1', '::ffff:10.0.0.1', 'fe80::1'])('rejects %s', (a) =>
    expect(isLoopbackAddress(a)).toBe(false),
  );
});

describe('isThisComputer (a URL host, as Chromium would reach it)', () => {
  const own = () => ['192.168.7.20', 'fe80::abcd'];
  it.each(['127.0.0.1', '127.0.0.2', 'localhost', 'LOCALHOST.', 'evil.localhost', '[::1]', '0.0.0.0', '[::]', '[::ffff:7f00:1]', '192.168.7.20', '[fe80::abcd]'])(
    '%s is this computer',
    (h) => expect(isThisComputer(h, own)).toBe(true),
  );
  it.each(['example.com', 'localhost.example.com', '192.168.7.21', '10.0.0.1', '[fe80::1]'])('%s is not', (h) => expect(isThisComputer(h, own)).toBe(false));
});

it('bareHost strips brackets and a trailing dot', () => {
  expect(bareHost('[::1]')).toBe('::1');
  expect(bareHost('LocalHost.')).toBe('localhost');
});

it('systemLookup resolves localhost to loopback addresses only', async () => {
  const addresses = await systemLookup('localhost');
  expect(addresses.length).toBeGreaterThan(0);
  expect(addresses.every(isLoopbackAddress)).toBe(true);
});
