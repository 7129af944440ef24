import type { DeskIndex, LauncherAction, LauncherItemRef, PlanPreview } from '../../../protocol/launcher';
import { describePlan, unknownLine, type PlanLine } from './describe-plan';
import { queryOf, rank, type LiveEntity, type PreparedIndex } from './match';

// The launcher's list for one state of the field: the plan row (what Enter does with the
// words) and the matching tabs, apps (a row per window when an app has several) and presets,
// each with what it can do. Pure.

export interface ItemAction {
  action: LauncherAction;
  label: string;
  /** Closing and quitting are marked; they still ask first when the settings say so. */
  destructive?: boolean;
}

export type LiveRow =
  | { kind: 'plan'; key: 'plan'; text: string; line: PlanLine; settled: boolean }
  | {
      kind: 'item';
      key: string;
      entity: LiveEntity;
      ref: LauncherItemRef;
      title: string;
      subtitle: string;
      /** "Tab", "Pinned tab · window 2", "App · left monitor", "Preset". */
      accessory: string;
      /** What Enter does on it ("Switch", "Open", "Apply"): the first of `actions`. */
      actions: ItemAction[];
    };

/**
 * At most this many items: with the plan row, as many as the launcher shows without scrolling
 * (⌘1…⌘9 reach the first nine rows); the rest are counted ("12 more matches"). Rows nobody
 * sees are not built or drawn on a key press.
 */
export const MAX_ITEMS = 10;

export interface LiveList {
  rows: LiveRow[];
  /** Matches beyond MAX_ITEMS. */
  more: number;
}

export function buildRows(text: string, index: DeskIndex | null, prepared: PreparedIndex | null, preview: PlanPreview | null): LiveList {
  if (text.trim() === '') return { rows: [], more: 0 };
  const ranked = index && prepared && prepared.id === index.id ? rank(prepared, text, MAX_ITEMS + 200) : [];
  const items = ranked.slice(0, MAX_ITEMS).map((r) => rowFor(r.entity, index!));
  // The service reads the words trimmed (as every request's text is).
  const settled = !!preview && preview.text === text.trim() && !!index && preview.index === index.id;
  // Until these words' preview arrives: when the matcher did not know the previous words and
  // these still look like a name, it will most likely not know these either, so the list is
  // drawn as it will be (matches first, the plan row's note) and the preview usually changes
  // nothing visible. Otherwise every key of a name ("githu", "github", "github i") moved the
  // plan row and the highlight down and back up again and re-rendered every row twice.
  const guessUnknown = !settled && !!preview && !!index && preview.kind === 'unknown' && preview.index === index.id && looksLikeName(preview.text);
  const unknown = settled ? preview!.kind === 'unknown' : guessUnknown;
  const line = !settled && guessUnknown && looksLikeName(text) ? unknownLine(text.trim(), index!) : describePlan(text, preview, index);
  const plan: LiveRow = { kind: 'plan', key: 'plan', text, line, settled };
  // A name the matcher does not know, with things it names: those come first (Enter on
  // "typescr" switches to the tab rather than asking what "typescr" means). A sentence keeps
  // the plan row first: Enter sends it through the planners.
  const planLast = unknown && items.length > 0 && looksLikeName(text);
  return { rows: planLast ? [...items, plan] : [plan, ...items], more: Math.max(0, ranked.length - MAX_ITEMS) };
}

/** A few words and none of them a command word: something looked up by name, not said. */
function looksLikeName(text: string): boolean {
  const q = queryOf(text);
  return q.optional.length === 0 && q.tokens.length <= 3;
}

function monitorWord(index: DeskIndex, monitor: string | null): string | null {
  if (!monitor || index.monitors.length < 2) return null;
  const roles = index.monitors.find((m) => m.name === monitor)?.roles ?? [];
  const role = roles.includes('left') ? 'left' : roles.includes('right') ? 'right' : roles.includes('main') ? 'main' : null;
  return role ? `${role} monitor` : monitor;
}

/** Left and right moves make sense only with two monitors that answer to those names. */
const canMove = (index: DeskIndex) => index.monitors.some((m) => m.roles.includes('left')) && index.monitors.some((m) => m.roles.includes('right')) && index.monitors.length > 1;

/**
 * An item's row depends only on the item and its index: built once per index and the same
 * object on every key press, so the list re-renders only the rows that moved or changed.
 */
const rowCache = new WeakMap<DeskIndex, { windows: number; rows: Map<string, LiveRow> }>();

function rowFor(entity: LiveEntity, index: DeskIndex): LiveRow {
  let cache = rowCache.get(index);
  if (!cache) {
    cache = { windows: new Set(index.tabs.map((x) => x.window)).size, rows: new Map() };
    rowCache.set(index, cache);
  }
  let row = cache.rows.get(entity.key);
  if (!row) {
    row = itemRow(entity, index, cache.windows);
    cache.rows.set(entity.key, row);
  }
  return row;
}

/** `windows`: how many Chrome windows the index's tabs are in. */
function itemRow(entity: LiveEntity, index: DeskIndex, windows: number): LiveRow {
  switch (entity.kind) {
    case 'tab': {
      const t = entity.tab;
      const actions: ItemAction[] = [
        { action: 'open', label: 'Switch to tab' },
        { action: 'close', label: 'Close tab', destructive: true },
      ];
      if (index.actions.pin) actions.push({ action: 'pin', label: t.pinned ? 'Unpin tab' : 'Pin tab' });
      const kind = t.pinned ? 'Pinned tab' : t.active ? 'Active tab' : 'Tab';
      return {
        kind: 'item',
        key: entity.key,
        entity,
        ref: { kind: 'tab', index: t.index },
        title: t.title || t.url,
        subtitle: entity.site,
        accessory: windows > 1 ? `${kind} · window ${t.window}` : kind,
        actions,
      };
    }
    case 'app': {
      const a = entity.app;
      const front = a.windows[0];
      const actions: ItemAction[] = a.running
        ? [
            { action: 'open', label: 'Bring to front' },
            ...(canMove(index) && front
              ? [
                  { action: 'move_left' as const, label: 'Move to the left monitor' },
                  { action: 'move_right' as const, label: 'Move to the right monitor' },
                ]
              : []),
            { action: 'close', label: `Quit ${a.name}`, destructive: true },
          ]
        : [{ action: 'open', label: `Open ${a.name}` }];
      const where = front ? monitorWord(index, front.monitor) : null;
      const count = a.windows.length > 1 ? `${a.windows.length} windows` : null;
      return {
        kind: 'item',
        key: entity.key,
        entity,
        ref: { kind: 'app', name: a.name },
        title: a.name,
        subtitle: a.running ? (front?.title && front.title !== a.name ? front.title : 'Running') : 'Not running — opens it',
        accessory: ['App', count, where].filter(Boolean).join(' · '),
        actions,
      };
    }
    case 'window': {
      const { app, window: w } = entity;
      const actions: ItemAction[] = [
        { action: 'open', label: 'Bring to front' },
        ...(canMove(index)
          ? [
              { action: 'move_left' as const, label: 'Move to the left monitor' },
              { action: 'move_right' as const, label: 'Move to the right monitor' },
            ]
          : []),
      ];
      return {
        kind: 'item',
        key: entity.key,
        entity,
        ref: { kind: 'window', app: app.name, id: w.id },
        title: w.title || `${app.name} window`,
        subtitle: app.name,
        accessory: ['Window', w.minimized ? 'minimised' : null, monitorWord(index, w.monitor)].filter(Boolean).join(' · '),
        actions,
      };
    }
    case 'preset':
      return {
        kind: 'item',
        key: entity.key,
        entity,
        ref: { kind: 'preset', name: entity.name },
        title: entity.name,
        subtitle: 'Window layout',
        accessory: 'Preset',
        actions: [{ action: 'open', label: 'Apply preset' }],
      };
  }
}

/** How the run of a row is remembered in Recent: "Switch to tab: Rust Docs". */
export function actionLabel(row: Extract<LiveRow, { kind: 'item' }>, action: ItemAction): string {
  return `${action.label}: ${row.title}`;
}
