import { z } from 'zod';
import type { RawMonitor, RawWindow, Rect4 } from '../../../engine/ports';

// The shapes of sway's (and i3's) IPC replies that DeskPilot reads, and how a tree becomes the
// window port's windows and monitors. Pure, so recorded replies of a real sway test it.

const Rect = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
type Rect = z.infer<typeof Rect>;

export interface SwayNode {
  id: number;
  type: string;
  name: string | null;
  rect: Rect;
  deco_rect: Rect;
  focused: boolean;
  focus: number[];
  nodes: SwayNode[];
  floating_nodes: SwayNode[];
  fullscreen_mode?: number;
  pid?: number | null;
  /** sway: the Wayland app id; null for an XWayland window. Absent under i3. */
  app_id?: string | null;
  /** The X11 window (i3, XWayland), else null. */
  window?: number | null;
  window_properties?: { class?: string | null; instance?: string | null; title?: string | null };
  marks?: string[];
}

export const SwayNode: z.ZodType<SwayNode> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    type: z.string(),
    name: z.string().nullable(),
    rect: Rect,
    deco_rect: Rect,
    focused: z.boolean(),
    focus: z.array(z.number().int()),
    nodes: z.array(SwayNode),
    floating_nodes: z.array(SwayNode).default([]),
    fullscreen_mode: z.number().int().optional(),
    pid: z.number().int().nullable().optional(),
    app_id: z.string().nullable().optional(),
    window: z.number().int().nullable().optional(),
    window_properties: z.object({ class: z.string().nullish(), instance: z.string().nullish(), title: z.string().nullish() }).optional(),
    marks: z.array(z.string()).optional(),
  }),
);

export const SwayOutputs = z.array(
  z.object({
    name: z.string(),
    active: z.boolean(),
    primary: z.boolean().optional(),
    rect: Rect,
    scale: z.number().optional(),
    current_workspace: z.string().nullable().optional(),
  }),
);
export type SwayOutputs = z.infer<typeof SwayOutputs>;

export const SwayWorkspaces = z.array(z.object({ name: z.string(), output: z.string(), rect: Rect }));
export type SwayWorkspaces = z.infer<typeof SwayWorkspaces>;

export const SwayVersion = z.object({ human_readable: z.string(), variant: z.string().optional() });

/** What a RUN_COMMAND answers: one outcome per command of the list. */
export const SwayCommandReply = z.array(z.object({ success: z.boolean(), error: z.string().optional() }));

/** The scratchpad's workspace: windows there are hidden, which is what sway has for minimised. */
export const SCRATCHPAD = '__i3_scratch';

export const rect4 = (r: Rect): Rect4 => [r.x, r.y, r.x + r.width, r.y + r.height];

/** A window's outer frame: `rect` holds the borders, the title bar (`deco_rect`) sits above it. */
export const outerFrame = (n: SwayNode): Rect4 => [n.rect.x, n.rect.y - n.deco_rect.height, n.rect.x + n.rect.width, n.rect.y + n.rect.height];

/** A view (a client window), not a split container, workspace or output. */
const isView = (n: SwayNode): boolean =>
  (n.type === 'con' || n.type === 'floating_con') && n.nodes.length === 0 && (n.app_id !== undefined || (n.window ?? null) !== null || (n.pid ?? null) !== null);

/** Children in focus order (most recently focused first), then any the focus list does not name. */
function byFocus(n: SwayNode): SwayNode[] {
  const all = [...n.nodes, ...n.floating_nodes];
  const rank = new Map(n.focus.map((id, i) => [id, i]));
  return all.sort((a, b) => (rank.get(a.id) ?? Infinity) - (rank.get(b.id) ?? Infinity));
}

export interface FoundView {
  node: SwayNode;
  /** In the scratchpad (hidden). */
  minimized: boolean;
  /** Floating: sway marks the view itself floating_con; i3 wraps it in one (whose rect is the frame). */
  floating: boolean;
  /** i3's floating wrapper, whose rect is the window's outer frame; null under sway. */
  wrapper: SwayNode | null;
}

/** Every view, most recently focused first (sway keeps no stacking order across workspaces); the scratchpad's last. */
export function viewsOf(root: SwayNode): FoundView[] {
  const shown: FoundView[] = [];
  const hidden: FoundView[] = [];
  const walk = (n: SwayNode, scratch: boolean, parent: SwayNode | null) => {
    if (isView(n)) {
      const wrapper = parent?.type === 'floating_con' ? parent : null;
      (scratch ? hidden : shown).push({ node: n, minimized: scratch, floating: n.type === 'floating_con' || wrapper !== null, wrapper });
    }
    for (const c of byFocus(n)) walk(c, scratch || (c.type === 'workspace' && c.name === SCRATCHPAD), n);
  };
  walk(root, false, null);
  return [...shown, ...hidden];
}

export function findView(root: SwayNode, conId: number): FoundView | null {
  return viewsOf(root).find((v) => v.node.id === conId) ?? null;
}

/**
 * The views beside a tiled window in its container (before and after it), by con id: where undo
 * puts it back. A neighbour that is a split container, not a view, is no reference (null).
 */
export function tiledNeighbours(root: SwayNode, conId: number): { before: number | null; after: number | null } {
  const parent = findParent(root, conId);
  if (!parent) return { before: null, after: null };
  const i = parent.nodes.findIndex((c) => c.id === conId);
  const viewAt = (j: number) => {
    const n = parent.nodes[j];
    return n && isView(n) ? n.id : null;
  };
  return { before: viewAt(i - 1), after: viewAt(i + 1) };
}

function findParent(n: SwayNode, conId: number): SwayNode | null {
  if (n.nodes.some((c) => c.id === conId)) return n;
  for (const c of [...n.nodes, ...n.floating_nodes]) {
    const p = findParent(c, conId);
    if (p) return p;
  }
  return null;
}

/** The container carrying this mark (marks are unique in sway), or null. */
export function markedBy(root: SwayNode, mark: string): SwayNode | null {
  if (root.marks?.includes(mark)) return root;
  for (const c of [...root.nodes, ...root.floating_nodes]) {
    const m = markedBy(c, mark);
    if (m) return m;
  }
  return null;
}

/** A view's outer frame: i3's floating wrapper holds the decorations; otherwise the view's own (outerFrame). */
export const frameOf = (v: FoundView): Rect4 => (v.wrapper ? rect4(v.wrapper.rect) : outerFrame(v.node));

export function toRawWindow(v: FoundView): RawWindow {
  const { node: n, minimized } = v;
  const props = n.window_properties ?? {};
  const keys = [n.app_id, props.instance, props.class].filter((k): k is string => typeof k === 'string' && k !== '');
  const fullscreen = (n.fullscreen_mode ?? 0) !== 0;
  return {
    id: String(n.id),
    pid: n.pid && n.pid > 0 ? n.pid : null,
    appKeys: [...new Set(keys)],
    fallbackName: props.class || n.app_id || n.name || 'window',
    title: n.name ?? props.title ?? '',
    bounds: frameOf(v),
    focused: n.focused,
    minimized,
    fullscreen,
    // In the tiling layout: its frame is the layout's, and placing it makes it floating first.
    tiled: !v.floating && !minimized,
  };
}

export function focusedView(root: SwayNode): FoundView | null {
  return viewsOf(root).find((v) => v.node.focused) ?? null;
}

/**
 * Outputs as monitors; the work area is the output's current workspace's rect (the output less
 * its bars). sway marks no output primary: the engine then takes the first one as main.
 */
export function toMonitors(outputs: SwayOutputs, workspaces: SwayWorkspaces): RawMonitor[] {
  return outputs
    .filter((o) => o.active)
    .map((o) => {
      const ws = workspaces.find((w) => w.name === o.current_workspace && w.output === o.name);
      return { id: o.name, name: o.name, bounds: rect4(o.rect), workArea: rect4(ws?.rect ?? o.rect), primary: o.primary === true, scale: o.scale ?? 1 };
    });
}
