import { StandInBrowserWindow } from './browser-window';
import { globalShortcutState } from './misc';
import { app } from './app';
import { screen } from './screen';
import { trays } from './tray';
import { uiBrowser } from './runtime';
import { errorMessage } from '../../src/engine/errors';

// The test's handle on the stand-in (over the child process's IPC channel): what main has set
// up — windows, tray, hotkeys — and what a person does to it: press a hotkey, click the tray or
// one of its menu items, move focus away from a window, quit.

export type ControlRequest =
  | { op: 'state' }
  | { op: 'press'; accelerator: string }
  | { op: 'tray-click' }
  | { op: 'tray-menu'; label: string }
  | { op: 'blur'; view: string }
  | { op: 'quit' };

export interface WindowState {
  id: number;
  view: string | null;
  title: string;
  visible: boolean;
  focused: boolean;
  bounds: { x: number; y: number; width: number; height: number };
  loading: boolean;
}

export interface StandInState {
  ready: boolean;
  /** The UI Chromium's DevTools address (connectOverCDP). */
  endpoint: string | null;
  windows: WindowState[];
  tray: { tooltip: string; menu: string[] } | null;
  shortcuts: string[];
  singleInstance: boolean;
}

async function state(): Promise<StandInState> {
  const tray = trays.find((t) => !t.isDestroyed()) ?? null;
  return {
    ready: app.isReady(),
    endpoint: app.isReady() ? (await uiBrowser()).endpoint : null,
    windows: StandInBrowserWindow.getAllWindows().map((w) => ({
      id: w.webContents.id,
      view: w.view(),
      title: w.getTitle(),
      visible: w.isVisible(),
      focused: w.isFocused(),
      bounds: w.getBounds(),
      loading: w.webContents.isLoading(),
    })),
    tray: tray && { tooltip: tray.tooltip, menu: (tray.contextMenu?.items ?? []).map((i) => i.label ?? `(${i.type ?? 'item'})`) },
    shortcuts: [...globalShortcutState.registered.keys()],
    singleInstance: app.hasSingleInstanceLock(),
  };
}

function windowOf(view: string): StandInBrowserWindow {
  const w = StandInBrowserWindow.getAllWindows().find((x) => x.view() === view);
  if (!w) throw new Error(`no window shows the ${view} view`);
  return w;
}

async function handle(req: ControlRequest): Promise<unknown> {
  switch (req.op) {
    case 'state':
      return state();
    case 'press': {
      const run = globalShortcutState.registered.get(req.accelerator);
      if (!run) throw new Error(`${req.accelerator} is not registered (registered: ${[...globalShortcutState.registered.keys()].join(', ') || 'none'})`);
      run();
      return null;
    }
    case 'tray-click': {
      const tray = trays.find((t) => !t.isDestroyed());
      if (!tray) throw new Error('there is no tray icon');
      tray.click(screen.getCursorScreenPoint());
      return null;
    }
    case 'tray-menu': {
      const menu = trays.find((t) => !t.isDestroyed())?.contextMenu;
      if (!menu) throw new Error('the tray icon has no menu');
      menu.item(req.label);
      // Answered first: the item may quit the app.
      setImmediate(() => menu.click(req.label));
      return null;
    }
    case 'blur': {
      // The person was in the window and clicked elsewhere: it has focus, then loses it.
      const w = windowOf(req.view);
      w.focus();
      w.blur();
      return null;
    }
    case 'quit':
      // Answered first: quitting ends the process.
      setImmediate(() => app.quit());
      return null;
  }
}

/** Serves the test's requests on the IPC channel (launch.ts forks the stand-in with one). */
export function serveControl(): void {
  process.on('message', (m: { id: number; req: ControlRequest }) => {
    if (!m || typeof m.id !== 'number') return;
    handle(m.req).then(
      (value) => process.send?.({ kind: 'reply', id: m.id, ok: true, value }),
      (e: unknown) => process.send?.({ kind: 'reply', id: m.id, ok: false, error: errorMessage(e) }),
    );
  });
}
