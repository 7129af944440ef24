import type { CompanionLink } from './companion';

// What DeskPilot runs inside the companion extension's worker: plain async functions over
// chrome.tabs / chrome.tabGroups / chrome.windows (which needs no permission), sent as source
// with JSON arguments. Per-tab failures come back as strings, so one refused tab does not
// hide what happened to the others.

/** A tab as chrome.tabs describes it (only what DeskPilot uses). */
export interface CompanionTab {
  id: number;
  windowId: number;
  index: number;
  url: string;
  title: string;
  active: boolean;
  pinned: boolean;
  muted: boolean;
  audible: boolean;
  /** -1: in no group. */
  groupId: number;
  /** ms since the epoch (Chrome 121+); null on older browsers. */
  lastAccessed: number | null;
}

export interface CompanionGroup {
  id: number;
  windowId: number;
  title: string;
  color: string;
}

const LIST = `async () => {
  const [tabs, groups] = await Promise.all([chrome.tabs.query({}), chrome.tabGroups.query({})]);
  return {
    tabs: tabs.map((t) => ({
      id: t.id, windowId: t.windowId, index: t.index, url: t.url || t.pendingUrl || '', title: t.title || '',
      active: t.active, pinned: t.pinned, muted: !!(t.mutedInfo && t.mutedInfo.muted), audible: !!t.audible,
      groupId: t.groupId, lastAccessed: typeof t.lastAccessed === 'number' ? t.lastAccessed : null,
    })),
    groups: groups.map((g) => ({ id: g.id, windowId: g.windowId, title: g.title || '', color: g.color })),
  };
}`;

const UPDATE = `async ({ ids, props }) => {
  const out = [];
  for (const id of ids) {
    try { await chrome.tabs.update(id, props); out.push(null); } catch (e) { out.push(String((e && e.message) || e)); }
  }
  return out;
}`;

const GROUP = `async ({ ids, title, color, windowId }) => {
  const existing = (await chrome.tabGroups.query({ windowId })).find((g) => g.title === title);
  const groupId = await chrome.tabs.group(existing ? { tabIds: ids, groupId: existing.id } : { tabIds: ids, createProperties: { windowId } });
  const g = await chrome.tabGroups.update(groupId, color ? { title, color } : { title });
  return { id: g.id, windowId: g.windowId, title: g.title || '', color: g.color };
}`;

const UNGROUP = `async ({ ids }) => { await chrome.tabs.ungroup(ids); return null; }`;

// A group that no longer exists is made again (once per old group) with its title and colour,
// in its old window if that is still open.
const REGROUP = `async ({ entries }) => {
  const out = [];
  const made = new Map();
  const windows = new Set((await chrome.windows.getAll()).map((w) => w.id));
  for (const e of entries) {
    try {
      if (!e.group) { await chrome.tabs.ungroup([e.id]); out.push(null); continue; }
      let gid = made.get(e.group.groupId);
      if (gid === undefined && (await chrome.tabGroups.get(e.group.groupId).then(() => true, () => false))) gid = e.group.groupId;
      if (gid !== undefined) { await chrome.tabs.group({ tabIds: [e.id], groupId: gid }); out.push(null); continue; }
      gid = await chrome.tabs.group(windows.has(e.group.windowId) ? { tabIds: [e.id], createProperties: { windowId: e.group.windowId } } : { tabIds: [e.id] });
      await chrome.tabGroups.update(gid, { title: e.group.title, color: e.group.color });
      made.set(e.group.groupId, gid);
      out.push(null);
    } catch (err) { out.push(String((err && err.message) || err)); }
  }
  return out;
}`;

const MOVE = `async ({ ids, windowId, index }) => {
  if (windowId === null) {
    const w = await chrome.windows.create({ tabId: ids[0] });
    if (ids.length > 1) await chrome.tabs.move(ids.slice(1), { windowId: w.id, index: -1 });
    return w.id;
  }
  await chrome.tabs.move(ids, { windowId, index });
  return windowId;
}`;

// Back to old places, lowest index first. A window that was closed meanwhile is replaced by one
// new window for all the tabs that were in it.
const PLACE = `async ({ entries }) => {
  const windows = new Set((await chrome.windows.getAll()).map((w) => w.id));
  const replaced = new Map();
  const out = [];
  for (const e of entries) {
    try {
      if (windows.has(e.windowId)) await chrome.tabs.move(e.id, { windowId: e.windowId, index: e.index });
      else if (replaced.has(e.windowId)) await chrome.tabs.move(e.id, { windowId: replaced.get(e.windowId), index: -1 });
      else replaced.set(e.windowId, (await chrome.windows.create({ tabId: e.id })).id);
      out.push(null);
    } catch (err) { out.push(String((err && err.message) || err)); }
  }
  return out;
}`;

// Blank tabs at exact places (a window closed meanwhile: the end of the last focused one);
// DeskPilot then navigates each under its DevTools watch. Each new tab's id, or why not.
const CREATE = `async ({ tabs }) => {
  const windows = new Set((await chrome.windows.getAll()).map((w) => w.id));
  const out = [];
  for (const t of tabs) {
    try {
      const props = { url: 'about:blank', active: false, pinned: !!t.pinned };
      if (windows.has(t.windowId)) Object.assign(props, { windowId: t.windowId, index: t.index });
      const tab = await chrome.tabs.create(props);
      out.push({ id: tab.id, windowId: tab.windowId, index: tab.index });
    } catch (err) { out.push({ error: String((err && err.message) || err) }); }
  }
  return out;
}`;

export const companionList = (c: CompanionLink) => c.call<{ tabs: CompanionTab[]; groups: CompanionGroup[] }>(LIST, null, 'list tabs');

export const companionUpdate = (c: CompanionLink, ids: number[], props: { pinned?: boolean; muted?: boolean }, what: string) =>
  c.call<Array<string | null>>(UPDATE, { ids, props }, what);

export const companionGroup = (c: CompanionLink, ids: number[], title: string, color: string | undefined, windowId: number) =>
  c.call<CompanionGroup>(GROUP, { ids, title, color: color ?? null, windowId }, 'group tabs');

export const companionUngroup = (c: CompanionLink, ids: number[]) => c.call<null>(UNGROUP, { ids }, 'ungroup tabs');

export const companionRegroup = (c: CompanionLink, entries: Array<{ id: number; group: { groupId: number; windowId: number; title: string; color: string } | null }>) =>
  c.call<Array<string | null>>(REGROUP, { entries }, 'put tabs back in their groups');

/** windowId null: a new window; index: the first tab's place in the strip, -1 the end. Resolves with the destination window's id. */
export const companionMove = (c: CompanionLink, ids: number[], windowId: number | null, index = -1) => c.call<number>(MOVE, { ids, windowId, index }, 'move tabs');

export const companionPlace = (c: CompanionLink, entries: Array<{ id: number; windowId: number; index: number }>) =>
  c.call<Array<string | null>>(PLACE, { entries }, 'move tabs back');

export const companionCreate = (c: CompanionLink, tabs: Array<{ windowId: number; index: number; pinned: boolean }>) =>
  c.call<Array<{ id: number; windowId: number; index: number } | { error: string }>>(CREATE, { tabs }, 'open tabs');
