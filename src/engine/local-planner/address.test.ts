import { describe, expect, it } from 'vitest';
import { isAddress } from './address';

describe('isAddress', () => {
  it.each(['github.com', 'github.com/vercel', 'linear.app', 'localhost', 'localhost:3000', 'https://x.com/home', 'npmjs.com/package/zod', '192.168.1.1'])('%s is an address', (a) =>
    expect(isAddress(a)).toBe(true),
  );
  it.each(['next.js', 'node.js', 'reddit', 'hacker news', ''])('%j is a name', (a) => expect(isAddress(a)).toBe(false));
});
