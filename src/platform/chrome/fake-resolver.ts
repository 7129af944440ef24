import type { HostLookup } from './host-address';

// For tests only: a resolver that answers from a table, because this machine's DNS cannot be
// told what to answer. A name not in the table does not exist (ENOTFOUND), like the real one.

export const fakeResolver =
  (answers: Record<string, string[]>): HostLookup =>
  async (host) => {
    const found = answers[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found;
  };

/** The error a promise rejects with; fails when it resolves. */
export async function rejectionOf(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}
