// Window ids cross the engine boundary as strings in the form xprop/wmctrl print ("0x1a00003"),
// so people and tools can match them.

export function formatWindowId(xid: number): string {
  return `0x${(xid >>> 0).toString(16)}`;
}

/** The X id, or null for a string that cannot name an X window. */
export function parseWindowId(id: string): number | null {
  const text = id.trim();
  const value = /^0x[0-9a-f]{1,8}$/i.test(text) ? Number.parseInt(text.slice(2), 16) : /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  // 0 is None; X ids use 29 bits at most.
  return Number.isInteger(value) && value > 0 && value < 2 ** 29 ? value : null;
}
