import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { WindowGoneError, WindowsUnavailableError } from '../../../engine/errors';
import type { RawMonitor } from '../../../engine/ports';
import { createNwmWindowBackend, type NwmBackendOptions, type NwmWindowBackend } from './nwm-backend';
import { FakeDesktop, runningHelpers, type FakeMonitor, type FakeWindow, type Scenario } from './test-fixtures/fake-desktop';

// The Windows side of the backend against a fake node-window-manager addon (node-window-manager
// cannot run on Linux). The helper process it runs in, the IPC and the timeouts are real.

const PRIMARY: FakeMonitor = {
  handle: 65537,
  bounds: { x: 0, y: 0, width: 1920, height: 1080 },
  workArea: { x: 0, y: 0, width: 1920, height: 1040 },
  primary: true,
  scale: 1,
};
// A 4K monitor at 150 % to the right of the primary, in physical pixels.
const HIDPI: FakeMonitor = {
  handle: 65539,
  bounds: { x: 1920, y: 0, width: 3840, height: 2160 },
  workArea: { x: 1920, y: 0, width: 3840, height: 2100 },
  scale: 1.5,
};
// The same two displays as Electron's screen module reports them (DIP).
const INJECTED: RawMonitor[] = [
  { id: 'e1', name: 'Built-in', bounds: [0, 0, 1920, 1080], workArea: [0, 0, 1920, 1040], primary: true, scale: 1 },
  { id: 'e2', name: 'Dell 4K', bounds: [1920, 0, 4480, 1440], workArea: [1920, 0, 4480, 1400], primary: false, scale: 1.5 },
];

const CODE = 'C:\\Users\\me\\AppData\\Local\\Programs\\Microsoft VS Code\\Code.exe';
const NOTEPAD = 'C:\\Windows\\System32\\notepad.exe';
const EXPLORER = 'C:\\Windows\\explorer.exe';

const win = (handle: number, extra: Partial<FakeWindow> = {}): FakeWindow => ({
  handle,
  pid: 1000 + handle,
  path: NOTEPAD,
  title: `Window ${handle}`,
  bounds: { x: 100, y: 100, width: 800, height: 600 },
  visible: true,
  owner: 0,
  ...extra,
});

const desktop = (windows: FakeWindow[], extra: Partial<Scenario> = {}): Scenario => ({
  platform: 'win32',
  windows,
  active: windows[0]?.handle ?? 0,
  monitors: [PRIMARY, HIDPI],
  ...extra,
});

const opened: Array<{ fake: FakeDesktop; backend: NwmWindowBackend }> = [];

function open(scenario: Scenario, options: NwmBackendOptions = {}) {
  const fake = new FakeDesktop(scenario);
  const backend = createNwmWindowBackend({ platform: 'win32', addonModule: fake.modulePath, ...options });
  opened.push({ fake, backend });
  return { fake, backend };
}

afterEach(async () => {
  for (const { fake, backend } of opened.splice(0)) {
    await backend.dispose();
    fake.cleanup();
  }
});

afterAll(() => {
  expect(runningHelpers()).toEqual([]);
});

describe('Windows listing (fake node-window-manager addon)', () => {
  it('keeps visible, titled, unowned app windows in stacking order and names them by exe', async () => {
    const { backend } = open(
      desktop(
        [
          win(11, { path: CODE, title: 'main.ts - DeskPilot - Visual Studio Code', bounds: { x: 0, y: 0, width: 1920, height: 1040 } }),
          win(12, { visible: false, title: 'hidden helper' }),
          win(13, { title: '' }),
          win(14, { owner: 11, title: 'Save As' }),
          win(15, { path: '', title: 'an elevated process' }),
          win(16, { path: EXPLORER, title: 'Program Manager', bounds: { x: 0, y: 0, width: 5760, height: 2160 } }),
          win(17, { path: 'C:\\Windows\\SystemApps\\MicrosoftWindows.Client.CBS_cw5n1h2txyewy\\TextInputHost.exe', title: 'Windows Input Experience' }),
          win(18, { bounds: { x: 0, y: 0, width: 0, height: 0 }, title: 'zero-size' }),
          win(19, { path: EXPLORER, title: 'Downloads', minimized: true }),
          win(20, { title: 'notes.txt - Notepad', bounds: { x: 2220, y: 300, width: 1500, height: 900 } }),
        ],
        { active: 14 },
      ),
    );

    const windows = await backend.listWindows();

    expect(windows.map((w) => w.id)).toEqual(['11', '19', '20']);
    expect(windows[0]).toEqual({
      id: '11',
      pid: 1011,
      appKeys: ['code', CODE],
      fallbackName: 'Code',
      title: 'main.ts - DeskPilot - Visual Studio Code',
      bounds: [0, 0, 1920, 1040],
      // Its "Save As" dialog is the foreground window.
      focused: true,
      minimized: false,
    });
    expect(windows[1]).toMatchObject({ appKeys: ['explorer', EXPLORER], minimized: true, focused: false, bounds: [-32000, -32000, -31840, -31972] });
    // Without injected displays the space is physical pixels.
    expect(windows[2]).toMatchObject({ bounds: [2220, 300, 3720, 1200], minimized: false });
  });

  it('reports the monitors in physical pixels with their scale when no displays are injected', async () => {
    const { backend } = open(desktop([]));
    expect(await backend.listMonitors()).toEqual([
      { id: '65537', name: 'Display 1', bounds: [0, 0, 1920, 1080], workArea: [0, 0, 1920, 1040], primary: true, scale: 1 },
      { id: '65539', name: 'Display 2', bounds: [1920, 0, 5760, 2160], workArea: [1920, 0, 5760, 2100], primary: false, scale: 1.5 },
    ]);
    expect(await backend.describe()).toMatch(/physical pixels.*cloaked windows .* cannot be told apart/s);
  });
});

describe('Windows DPI conversion (fake node-window-manager addon)', () => {
  it('converts window frames into the injected displays’ coordinates through each window’s monitor', async () => {
    const { backend } = open(
      desktop([win(20, { bounds: { x: 2220, y: 300, width: 1500, height: 900 } }), win(21, { bounds: { x: 100, y: 50, width: 800, height: 600 } })]),
      { monitors: async () => INJECTED },
    );
    const windows = await backend.listWindows();
    // On the 150 % monitor: 1920 + 300 / 1.5, 300 / 1.5, 1500 / 1.5 wide, 900 / 1.5 high.
    expect(windows.find((w) => w.id === '20')!.bounds).toEqual([2120, 200, 3120, 800]);
    expect(windows.find((w) => w.id === '21')!.bounds).toEqual([100, 50, 900, 650]);
    expect(await backend.listMonitors()).toEqual(INJECTED);
    expect(await backend.describe()).toMatch(/converted from physical pixels per monitor scale/);
  });

  it('places in display coordinates and re-applies when the app rescales itself after crossing monitors', async () => {
    const { fake, backend } = open(desktop([win(21, { dpiAware: true, bounds: { x: 100, y: 100, width: 800, height: 600 } })]), {
      monitors: async () => INJECTED,
    });

    const got = await backend.setFrameBounds('21', [2000, 100, 2800, 700]);

    expect(got).toEqual([2000, 100, 2800, 700]);
    // Physical: 1920 + 80 · 1.5, 100 · 1.5, 800 · 1.5 wide, 600 · 1.5 high.
    const target = { x: 2040, y: 150, width: 1200, height: 900 };
    expect(fake.window(21)!.bounds).toEqual(target);
    const sets = fake.actions().filter((c) => c.fn === 'setWindowBounds');
    // The first move was answered by the app's WM_DPICHANGED resize (to 1800 × 1350); the second stuck.
    expect(sets.map((c) => c.args[1])).toEqual([target, target]);
  });

  it('sets physical pixels as given when no displays are injected', async () => {
    const { fake, backend } = open(desktop([win(22)]));
    expect(await backend.setFrameBounds('22', [1920, 0, 3840, 2100])).toEqual([1920, 0, 3840, 2100]);
    expect(fake.window(22)!.bounds).toEqual({ x: 1920, y: 0, width: 1920, height: 2100 });
  });

  it('says so when the injected displays do not match the monitors Windows reports', async () => {
    const { backend } = open(desktop([win(23)]), { monitors: async () => INJECTED.slice(0, 1) });
    await expect(backend.listWindows()).rejects.toThrow(/do not match the monitors Windows reports/);
  });
});

describe('Windows focus, restore and close (fake node-window-manager addon)', () => {
  it('focus un-minimises a minimised window, then brings it to the top', async () => {
    const { fake, backend } = open(desktop([win(30), win(31, { minimized: true })], { active: 30 }));
    await backend.focus('31');
    expect(fake.actions().map((c) => [c.fn, ...c.args])).toEqual([
      ['showWindow', 31, 'restore'],
      ['bringWindowToTop', 31],
    ]);
    const listed = await backend.listWindows();
    expect(listed[0]).toMatchObject({ id: '31', focused: true, minimized: false });
  });

  it('restore brings a window minimised from maximised back to a normal frame', async () => {
    const { fake, backend } = open(desktop([win(32, { minimized: true, maximized: true })]));
    await backend.restore('32');
    expect(fake.window(32)).toMatchObject({ minimized: false, maximized: false });
    expect(fake.actions().map((c) => c.args[1])).toEqual(['restore', 'restore']);
  });

  it('minimize asks Windows to minimise (fake addon); raise is focus; true full screen is refused with the way out', async () => {
    const { fake, backend } = open(desktop([win(35), win(36)]));
    await backend.minimize('36');
    expect(fake.window(36)).toMatchObject({ minimized: true });
    expect(fake.window(35)?.minimized ?? false).toBe(false);
    await backend.raise('35');
    expect(fake.actions().at(-1)!.fn).toBe('bringWindowToTop');
    await expect(backend.setFullscreen('35', true)).rejects.toMatchObject({
      code: 'unavailable',
      message: 'true full screen is not available with node-window-manager (macOS, Windows) yet; the "maximize" layout fills the screen instead',
    });
  });

  it('close posts the close-button command to exactly that window', async () => {
    const { fake, backend } = open(desktop([win(33), win(34)]));
    fake.putToolsOnPath();
    await backend.close('34');
    const tool = fake.calls().find((c) => c.fn === 'powershell')!;
    expect(tool.args.slice(0, 5)).toEqual(['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand']);
    const script = Buffer.from(String(tool.args[5]), 'base64').toString('utf16le');
    expect(script).toContain('PostMessageW([IntPtr]34, 0x0112, [IntPtr]0xF060, [IntPtr]0)');
    expect(script).toContain('[DllImport("user32.dll")]');
    expect((await backend.listWindows()).map((w) => w.id)).toEqual(['33']);
  });

  it('close explains when Windows refuses (an elevated window)', async () => {
    const { fake, backend } = open(desktop([win(35, { elevated: true })]));
    fake.putToolsOnPath();
    const error = await backend.close('35').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WindowsUnavailableError);
    expect((error as Error).message).toMatch(/administrator/);
  });

  it('a window that vanished after listing is WindowGoneError for every operation', async () => {
    const { fake, backend } = open(desktop([win(36), win(37)]));
    fake.putToolsOnPath();
    expect((await backend.listWindows()).map((w) => w.id)).toEqual(['36', '37']);
    fake.update((s) => {
      s.windows = s.windows.filter((w) => w.handle !== 37);
    });
    for (const op of [
      () => backend.focus('37'),
      () => backend.restore('37'),
      () => backend.setFrameBounds('37', [0, 0, 100, 100]),
      () => backend.close('37'),
      () => backend.focus('not-a-window'),
    ]) {
      const error = await op().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WindowGoneError);
    }
    expect(fake.actions()).toEqual([]);
  });

  it('processAlive answers for live and dead processes', async () => {
    const { backend } = open(desktop([]));
    expect(await backend.processAlive(process.pid)).toBe(true);
    expect(await backend.processAlive(2 ** 22 + 12345)).toBe(false);
  });
});
