import type { TabInfo } from '../protocol/context';
import { titleShows } from './browser-windows';
import type { WindowBackend } from './ports';
import { sleep } from './sleep';
import type { WindowOpsPorts } from './window-ops';

// switch_tab on a Wayland desktop: the tab is activated over CDP, but the browser cannot take
// the focus from another app there (the compositor moves it only for an activation token), so
// "switch to reddit" would change a tab nobody sees. Where the window backend says so, the
// browser's window — the one whose title now shows that tab, and no other — is focused through
// the backend. The title follows the activation a moment later, so it is looked for briefly;
// a window that cannot be told for certain is left alone (never another app's window).

const LOOK_FOR_MS = 2_000;
const LOOK_EVERY_MS = 50;

/** Focuses the window showing `tab` where apps cannot focus themselves; returns how to do it again, or null. */
export async function focusBrowserWindow(tab: Pick<TabInfo, 'title'>, ports: Pick<WindowOpsPorts, 'windows'>): Promise<(() => Promise<void>) | null> {
  if (!ports.windows || !tab.title) return null;
  const backend = await ports.windows().catch(() => null);
  if (!backend?.appsCannotTakeFocus) return null;
  const id = await windowShowing(backend, tab.title);
  if (id === null) return null;
  const focus = () => backend.focus(id);
  await focus();
  return focus;
}

async function windowShowing(backend: WindowBackend, title: string): Promise<string | null> {
  const deadline = Date.now() + LOOK_FOR_MS;
  for (;;) {
    const showing = (await backend.listWindows()).filter((w) => titleShows(w.title, title));
    if (showing.length === 1) return showing[0]!.focused ? null : showing[0]!.id;
    if (Date.now() >= deadline) return null;
    await sleep(LOOK_EVERY_MS);
  }
}
