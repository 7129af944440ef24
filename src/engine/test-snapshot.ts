import type { TabInfo } from '../protocol/context';

// Test fixtures shared by the engine's unit tests (never imported by product code).

/** A tab of a made-up snapshot: target id `T<index>`, tab 1 active. */
export const fixtureTab = (index: number, domain: string, window_index = 1): TabInfo => ({
  index,
  title: `Tab ${index}`,
  url: `https://${domain}/`,
  domain,
  content_summary: null,
  is_active: index === 1,
  window_index,
  local_index: index,
  target_id: `T${index}`,
});
