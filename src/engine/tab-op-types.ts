import type { ResolvedCommand } from '../protocol/prepared-batch';

// The tab manager's operations, named once for resolution, description and execution.

export const TAB_OP_TYPES = [
  'search_tabs',
  'count_tabs_by_domain',
  'reload_tabs',
  'move_tabs',
  'close_duplicate_tabs',
  'save_tabs',
  'restore_tabs',
  'pin_tabs',
  'mute_tabs',
  'group_tabs',
  'ungroup_tabs',
] as const;
export type TabOpType = (typeof TAB_OP_TYPES)[number];

/** A resolved tab-manager operation. */
export type TabOp = Extract<ResolvedCommand, { type: TabOpType }>;

const TYPES: ReadonlySet<string> = new Set(TAB_OP_TYPES);
export const isTabOp = (cmd: ResolvedCommand): cmd is TabOp => TYPES.has(cmd.type);
