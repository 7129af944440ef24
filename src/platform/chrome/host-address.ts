import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import os from 'node:os';

// Whether a host is "this computer" is decided by address, never by name: a name such as
// evil.localhost or localhost. is whatever the resolver says it is.

/** Every address a host name resolves to, in the resolver's order. */
export type HostLookup = (hostname: string) => Promise<string[]>;

export const systemLookup: HostLookup = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** "[::1]" → "::1", "localhost." → "localhost", lower case. */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

// Connecting to 0.0.0.0 (or ::) reaches this computer's own listeners.
const UNSPECIFIED = new BlockList();
UNSPECIFIED.addSubnet('0.0.0.0', 8, 'ipv4');
UNSPECIFIED.addAddress('::', 'ipv6');

const family = (ip: string) => (isIP(ip) === 4 ? 'ipv4' : 'ipv6');

/** 127.0.0.0/8, ::1, and their IPv4-mapped IPv6 forms (::ffff:127.0.0.1). */
export function isLoopbackAddress(address: string): boolean {
  const ip = bareHost(address);
  return isIP(ip) !== 0 && LOOPBACK.check(ip, family(ip));
}

/**
 * Whether a URL host reaches this computer without asking a name server: loopback and
 * unspecified addresses, the addresses of this computer's own interfaces, and localhost and
 * *.localhost, which Chromium answers with loopback itself.
 */
export function isThisComputer(hostname: string, interfaceAddresses: () => string[] = ownAddresses): boolean {
  const host = bareHost(hostname);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 0) return false;
  if (LOOPBACK.check(host, family(host)) || UNSPECIFIED.check(host, family(host))) return true;
  const own = new BlockList();
  for (const a of interfaceAddresses()) if (isIP(a)) own.addAddress(a, family(a));
  return own.check(host, family(host));
}

function ownAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((i) => i.address.replace(/%.*$/, ''));
}
