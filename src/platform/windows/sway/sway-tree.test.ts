import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SwayNode, SwayOutputs, SwayWorkspaces, focusedView, toMonitors, toRawWindow, viewsOf } from './sway-tree';

// Replies recorded from a real headless sway 1.7 (two 1920x1080 outputs, a bar on top, three
// foot windows: "third one" tiled, "hello" floating and focused, "foot" (app_id second) minimised
// to the scratchpad after a tiled life).
const fixture = (name: string): unknown => JSON.parse(readFileSync(path.join(__dirname, 'test-fixtures', name), 'utf8'));

describe('sway tree → windows and monitors (recorded replies)', () => {
  const tree = SwayNode.parse(fixture('tree.json'));

  it('lists every view most recently focused first, the scratchpad last, with sway con ids', () => {
    const windows = viewsOf(tree).map(toRawWindow);
    expect(windows.map((w) => [w.id, w.title, w.minimized, w.tiled])).toEqual([
      ['8', 'hello', false, false],
      ['9', 'third one', false, true],
      ['7', 'foot', true, false],
    ]);
  });

  it('takes the outer frame with the title bar above the rect, app ids as app keys, the pid', () => {
    const hello = toRawWindow(viewsOf(tree)[0]!);
    expect(hello.bounds).toEqual([960, 23, 1920, 1080]);
    expect(hello.appKeys).toEqual(['foot']);
    expect(hello.fallbackName).toBe('foot');
    expect(hello.focused).toBe(true);
    expect(hello.fullscreen).toBe(false);
    expect(hello.pid).toBeGreaterThan(0);
    const third = toRawWindow(viewsOf(tree)[1]!);
    expect(third.appKeys).toEqual(['third']);
    // Alone in the tiling layout: the whole work area.
    expect(third.bounds).toEqual([0, 23, 1920, 1080]);
  });

  it('finds the focused view', () => {
    expect(focusedView(tree)?.node.id).toBe(8);
  });

  it('an XWayland window is known by its X class and instance', () => {
    const x = toRawWindow({
      ...viewsOf(tree)[0]!,
      node: {
        ...viewsOf(tree)[0]!.node,
        app_id: null,
        window: 4194307,
        window_properties: { class: 'XTerm', instance: 'xterm', title: 'bash' },
      },
      minimized: false,
    });
    expect(x.appKeys).toEqual(['xterm', 'XTerm']);
    expect(x.fallbackName).toBe('XTerm');
  });

  it('an i3 floating window (a synthetic tree: i3 is not installed here) is floating, its frame the wrapper\'s rect', () => {
    const rect = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });
    const leaf = { id: 42, type: 'con', name: 'bash', rect: rect(102, 222, 796, 576), deco_rect: rect(0, 0, 800, 20), focused: true, focus: [], nodes: [], floating_nodes: [], window: 4194307, window_properties: { class: 'XTerm', instance: 'xterm' } };
    const wrapper = { id: 41, type: 'floating_con', name: null, rect: rect(100, 200, 800, 600), deco_rect: rect(0, 0, 0, 0), focused: false, focus: [42], nodes: [leaf], floating_nodes: [] };
    const ws = { id: 4, type: 'workspace', name: '1', rect: rect(0, 0, 1920, 1080), deco_rect: rect(0, 0, 0, 0), focused: false, focus: [41], nodes: [], floating_nodes: [wrapper] };
    const root = SwayNode.parse({ id: 1, type: 'root', name: 'root', rect: rect(0, 0, 1920, 1080), deco_rect: rect(0, 0, 0, 0), focused: false, focus: [4], nodes: [ws], floating_nodes: [] });
    const [v] = viewsOf(root);
    expect(v).toMatchObject({ floating: true, minimized: false });
    expect(toRawWindow(v!)).toMatchObject({ id: '42', bounds: [100, 200, 900, 800], tiled: false, appKeys: ['xterm', 'XTerm'] });
  });

  it('outputs become monitors whose work area is the current workspace (the output less its bar)', () => {
    const monitors = toMonitors(SwayOutputs.parse(fixture('outputs.json')), SwayWorkspaces.parse(fixture('workspaces.json')));
    expect(monitors).toEqual([
      { id: 'HEADLESS-1', name: 'HEADLESS-1', bounds: [0, 0, 1920, 1080], workArea: [0, 23, 1920, 1080], primary: false, scale: 1 },
      { id: 'HEADLESS-2', name: 'HEADLESS-2', bounds: [1920, 0, 3840, 1080], workArea: [1920, 23, 3840, 1080], primary: false, scale: 1 },
    ]);
  });

  it('a reply of another shape is refused, naming the field', () => {
    const r = SwayNode.safeParse({ id: 1, type: 'root', name: 'root', rect: { x: 0 } });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path.join('.')).toMatch(/rect|deco_rect|focused|focus|nodes/);
  });
});
