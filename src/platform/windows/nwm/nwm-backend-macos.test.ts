import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { WindowGoneError, WindowsUnavailableError } from '../../../engine/errors';
import type { RawMonitor } from '../../../engine/ports';
import { createNwmWindowBackend, type NwmBackendOptions, type NwmWindowBackend } from './nwm-backend';
import { FakeDesktop, runningHelpers, type FakeWindow, type Scenario } from './test-fixtures/fake-desktop';

// The macOS side of the backend against a fake node-window-manager addon (node-window-manager
// cannot run on Linux). The helper process it runs in, the IPC and the timeouts are real.

const BIG = { x: 0, y: 0, width: 2560, height: 1440 };
const SMALL = { x: 2560, y: 0, width: 1280, height: 800 };
const DISPLAYS: RawMonitor[] = [
  { id: '1', name: 'Studio Display', bounds: [0, 0, 2560, 1440], workArea: [0, 25, 2560, 1440], primary: true, scale: 2 },
  { id: '2', name: 'Side', bounds: [2560, 0, 3840, 800], workArea: [2560, 0, 3840, 800], primary: false, scale: 1 },
];

const opened: Array<{ fake: FakeDesktop; backend: NwmWindowBackend }> = [];

function open(build: (apps: string) => Scenario, options: NwmBackendOptions = {}) {
  const fake = new FakeDesktop({ platform: 'darwin', windows: [] });
  fake.write(build(path.join(fake.dir, 'Applications')));
  const backend = createNwmWindowBackend({ platform: 'darwin', addonModule: fake.modulePath, ...options });
  opened.push({ fake, backend });
  return { fake, backend };
}

function bundle(apps: string, name: string, plist: string | null): string {
  const dir = path.join(apps, `${name}.app`);
  mkdirSync(path.join(dir, 'Contents'), { recursive: true });
  if (plist !== null) writeFileSync(path.join(dir, 'Contents', 'Info.plist'), plist);
  return dir;
}

const xmlPlist = (id: string, exe: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>CFBundleIdentifier</key><string>${id}</string><key>CFBundleExecutable</key><string>${exe}</string></dict></plist>\n`;

const win = (handle: number, appPath: string, ownerName: string, extra: Partial<FakeWindow> = {}): FakeWindow => ({
  handle,
  pid: 500 + handle,
  path: appPath,
  ownerName,
  title: `real title of ${handle}`,
  bounds: { x: 100, y: 100, width: 800, height: 600 },
  ...extra,
});

afterEach(async () => {
  for (const { fake, backend } of opened.splice(0)) {
    await backend.dispose();
    fake.cleanup();
  }
});

afterAll(() => {
  expect(runningHelpers()).toEqual([]);
});

describe('macOS listing (fake node-window-manager addon)', () => {
  it('lists app windows titled with the app name, keyed by bundle id, name and path', async () => {
    const { backend } = open((apps) => {
      const mail = bundle(apps, 'Mail', xmlPlist('com.apple.mail', 'Mail'));
      const code = bundle(apps, 'Visual Studio Code', xmlPlist('com.microsoft.VSCode', 'Electron'));
      const safari = bundle(apps, 'Safari', 'bplist00…binary');
      const dropbox = bundle(apps, 'Dropbox', null);
      const dock = bundle(apps, 'Dock', null);
      return {
        platform: 'darwin',
        trusted: true,
        activePid: 521,
        windows: [
          // The active app's menu-bar status item is its frontmost on-screen window.
          win(21, dropbox, 'Dropbox', { pid: 521, bounds: { x: 1800, y: 0, width: 30, height: 24 } }),
          win(20, dropbox, 'Dropbox', { pid: 521, bounds: { x: 300, y: 200, width: 700, height: 500 } }),
          win(1, mail, 'Mail', { title: 'Inbox – 3 messages' }),
          win(2, code, 'Code'),
          win(3, safari, 'Safari', { minimized: true }),
          win(4, dock, 'Dock', { bounds: { x: 0, y: 1340, width: 2560, height: 100 } }),
        ],
      };
    });

    const windows = await backend.listWindows();

    expect(windows.map((w) => w.id)).toEqual(['20', '1', '2']);
    expect(windows[0]).toMatchObject({ focused: true, appKeys: ['Dropbox', expect.stringMatching(/Dropbox\.app$/)] });
    expect(windows[1]).toEqual({
      id: '1',
      pid: 501,
      appKeys: ['com.apple.mail', 'Mail', expect.stringMatching(/Mail\.app$/)],
      fallbackName: 'Mail',
      // The addon reads kCGWindowOwnerName: the real title never reaches us.
      title: 'Mail',
      bounds: [100, 100, 900, 700],
      focused: false,
      minimized: false,
    });
    expect(windows[2]!.appKeys).toEqual(['com.microsoft.VSCode', 'Code', 'Visual Studio Code', 'Electron', expect.stringMatching(/Code\.app$/)]);
    expect(await backend.describe()).toMatch(/titles are app names/);
  });

  it('takes displays from the injected provider and says clearly when there is none', async () => {
    const withDisplays = open(() => ({ platform: 'darwin', windows: [] }), { monitors: async () => DISPLAYS });
    expect(await withDisplays.backend.listMonitors()).toEqual(DISPLAYS);

    const without = open(() => ({ platform: 'darwin', windows: [] }));
    const error = await without.backend.listMonitors().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WindowsUnavailableError);
    expect((error as Error).message).toMatch(/cannot list displays on macOS.*Electron's screen module/);
    // The provider is the only source: the helper was never asked.
    expect(without.fake.calls()).toEqual([]);
  });
});

describe('macOS placement (fake node-window-manager addon)', () => {
  const bigWindow = (apps: string): Scenario => ({
    platform: 'darwin',
    trusted: true,
    displays: [{ bounds: BIG }, { bounds: SMALL }],
    windows: [win(7, bundle(apps, 'Preview', null), 'Preview', { bounds: { ...BIG } })],
  });

  it('sets size, then position, then size, so a move onto a smaller display is not pushed back', async () => {
    const { fake, backend } = open(bigWindow);

    const got = await backend.setFrameBounds('7', [3200, 0, 3840, 800]);

    expect(got).toEqual([3200, 0, 3840, 800]);
    expect(fake.actions().map((c) => [c.fn, ...c.args.filter((a) => typeof a === 'number')])).toEqual([
      ['setWindowBounds', 7],
      ['position', 0, 0],
      ['size', 640, 800],
      ['setWindowBounds', 7],
      ['position', 3200, 0],
      ['size', 640, 800],
    ]);
  });

  it('the fake models the defect: one position-then-size call lands pushed back', async () => {
    const fake = new FakeDesktop({ platform: 'darwin', windows: [] });
    try {
      fake.write(bigWindow(path.join(fake.dir, 'Applications')));
      const { addon } = createRequire(__filename)(fake.modulePath) as { addon: Record<string, (...args: unknown[]) => unknown> };
      addon.setWindowBounds!(7, { x: 3200, y: 0, width: 640, height: 800 });
      expect(fake.window(7)!.bounds).toEqual({ x: 2560, y: 0, width: 640, height: 800 });
    } finally {
      fake.cleanup();
    }
  });

  it('asks for Accessibility permission instead of silently doing nothing', async () => {
    const { fake, backend } = open((apps) => ({ ...bigWindow(apps), trusted: false }));
    const error = await backend.setFrameBounds('7', [0, 0, 100, 100]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WindowsUnavailableError);
    expect((error as Error).message).toMatch(/Accessibility permission/);
    expect(fake.calls().map((c) => c.fn)).toEqual(['requestAccessibility']);
  });
});

describe('macOS focus, restore and close (fake node-window-manager addon)', () => {
  const two = (apps: string): Scenario => ({
    platform: 'darwin',
    trusted: true,
    activePid: 501,
    windows: [win(1, bundle(apps, 'Mail', null), 'Mail'), win(2, bundle(apps, 'Notes', null), 'Notes', { bounds: { x: 50, y: 60, width: 700, height: 500 } })],
  });

  it('focus raises the window and activates its app', async () => {
    const { fake, backend } = open(two);
    await backend.focus('2');
    expect(fake.actions().map((c) => [c.fn, ...c.args])).toEqual([['bringWindowToTop', 2, 502]]);
    expect((await backend.listWindows()).find((w) => w.focused)?.id).toBe('2');
  });

  it('restore un-minimises a window that was minimised after listing', async () => {
    const { fake, backend } = open(two);
    expect((await backend.listWindows()).map((w) => w.id)).toEqual(['1', '2']);
    fake.update((s) => {
      s.windows[1]!.minimized = true;
    });
    expect((await backend.listWindows()).map((w) => w.id)).toEqual(['1']);
    await backend.restore('2');
    expect(fake.window(2)!.minimized).toBe(false);
  });

  it('close clicks the close button of the window found by process and frame', async () => {
    const { fake, backend } = open(two);
    fake.putToolsOnPath();
    await backend.close('2');
    const tool = fake.calls().find((c) => c.fn === 'osascript')!;
    expect(tool.args.slice(-5)).toEqual(['502', '50', '60', '700', '500']);
    expect(tool.args).toContain('click (first button of w whose subrole is "AXCloseButton")');
    expect((await backend.listWindows()).map((w) => w.id)).toEqual(['1']);
  });

  it('close says which permission is missing when System Events may not be controlled', async () => {
    const { fake, backend } = open((apps) => ({ ...two(apps), automationDenied: true }));
    fake.putToolsOnPath();
    await expect(backend.close('1')).rejects.toThrow(/Privacy & Security → Automation/);
  });

  it('a window that vanished is WindowGoneError', async () => {
    const { fake, backend } = open(two);
    fake.update((s) => {
      s.windows = s.windows.filter((w) => w.handle !== 2);
    });
    await expect(backend.setFrameBounds('2', [0, 0, 100, 100])).rejects.toBeInstanceOf(WindowGoneError);
    await expect(backend.close('2')).rejects.toBeInstanceOf(WindowGoneError);
    // focus first tries to un-minimise it, then gives up.
    await expect(backend.focus('2')).rejects.toBeInstanceOf(WindowGoneError);
  });
});
