import type { Locator, Page } from 'playwright-core';
import type { RendererApi } from '../../src/protocol/ipc';
import type { RendererEvents } from '../../src/protocol/ipc-channels';

// The second Chromium that shows DeskPilot's UI page (not the fixture browser whose tabs the
// commands act on): Debian's Chromium driven by playwright-core (no downloaded browsers here).

export const UI_BROWSER_PATH = '/usr/bin/chromium';
export const UI_BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * What a page.evaluate callback may use: the node tsconfig has no DOM types, so callbacks say
 * `const g = globalThis as unknown as PageGlobals` (a type only; nothing is captured).
 */
export interface PageGlobals {
  api: RendererApi;
  events: RendererEvents;
  // The DOM, loosely: only what the callbacks touch.
  document: {
    querySelector(sel: string): { getAttribute(name: string): string | null } | null;
    visibilityState: string;
  };
  performance: { getEntriesByType(type: string): Array<{ name: string; startTime: number }> };
  atob(data: string): string;
  seen?: string[];
}

/**
 * The command field: a combobox in the launcher (it lists matches while typing), a plain text
 * field in the popover.
 */
export const commandField = (page: Page): Locator => page.getByRole('combobox', { name: 'Command' }).or(page.getByRole('textbox', { name: 'Command' }));
