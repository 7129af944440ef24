import type { Command } from '../../protocol/commands';

// "… on all my computers", "… on every device", "across my machines": a read that answers from
// every device's desk at once (seed 003's read tools, issue 29.4). The words are taken off and
// the rest is planned as usual against this desk; only a plan that only reads (list, search by
// words, count per site, list apps and windows) is answered across devices — acting on every
// device at once is not offered (each device acts on its own command, after its own yes).

const NOUN = '(?:computer|device|machine|desk|desktop|laptop)';
const ON = '\\b(?:on|across|from|over|in)\\s+';
const EVERY_DEVICE = new RegExp(
  [
    // on all of my computers, on each of the machines
    `${ON}(?:all|each|every one)\\s+of\\s+(?:my|the|our)\\s+${NOUN}s\\b`,
    // on all my computers, on all devices, on every device, on each machine
    `${ON}(?:all|every|each)\\s+(?:(?:my|the|our)\\s+)?${NOUN}s?\\b`,
    // across my devices, on my computers (plural: "on my laptop" names one)
    `${ON}(?:my|the|our)\\s+${NOUN}s\\b`,
    '\\beverywhere\\b',
  ].join('|'),
  'i',
);

/** The words without their "on all my computers" part, or null when they say no such thing. */
export function splitEveryDevice(text: string): string | null {
  const m = EVERY_DEVICE.exec(text);
  if (!m) return null;
  return `${text.slice(0, m.index)} ${text.slice(m.index + m[0].length)}`.replace(/\s+/g, ' ').replace(/\s+([?.!,])/g, '$1').trim();
}

/**
 * Commands that read and can be answered from the devices' published desks: listing tabs or
 * apps, searching tabs by words (not page text or age: those need the device itself), counting
 * tabs per site.
 */
export function readsAcrossDevices(commands: readonly Command[]): boolean {
  return (
    commands.length > 0 &&
    commands.every((c) => {
      if (c.type === 'list_tabs' || c.type === 'count_tabs_by_domain' || c.type === 'list_apps') return true;
      if (c.type !== 'search_tabs') return false;
      const { type: _t, query, ...rest } = c as { type: string; query?: string } & Record<string, unknown>;
      return typeof query === 'string' && Object.values(rest).every((v) => v === undefined || v === false);
    })
  );
}
