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
