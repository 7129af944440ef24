// Test harness: a temporary "desktop" for the fake node-window-manager (fake-nwm.js), and the
// fake close tools on PATH. The helper process, IPC, timeouts and crashes stay real.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NativeRect } from '../nwm-protocol';

export interface FakeWindow {
  handle: number;
  pid: number;
  path: string;
  /** Windows: GetWindowText. macOS: the real title, which the addon never returns. */
  title?: string;
  /** macOS: kCGWindowOwnerName, what the addon returns as the title. */
  ownerName?: string;
  bounds: NativeRect;
  visible?: boolean;
  owner?: number;
  minimized?: boolean;
  maximized?: boolean;
  /** Windows: resizes itself on WM_DPICHANGED. */
  dpiAware?: boolean;
  /** Windows: runs as administrator (UIPI blocks posted messages). */
  elevated?: boolean;
}

export interface FakeMonitor {
  handle: number;
  bounds: NativeRect;
  workArea: NativeRect;
  primary?: boolean;
  scale: number;
}

export interface FakeFault {
  fn: string;
  action: 'exit' | 'abort' | 'hang' | 'throw' | 'assert';
  once?: boolean;
  fired?: boolean;
}

export interface Scenario {
  platform: 'win32' | 'darwin';
  windows: FakeWindow[];
  /** Windows: the foreground HWND. */
  active?: number;
  monitors?: FakeMonitor[];
  /** macOS: the active app's pid. */
  activePid?: number;
  /** macOS: displays, only for modelling setBounds clamping (the addon exports none). */
  displays?: Array<{ bounds: NativeRect }>;
  /** macOS: Accessibility permission granted. */
  trusted?: boolean;
  automationDenied?: boolean;
  faults?: FakeFault[];
  loadError?: string;
}

export interface FakeCall {
  fn: string;
  args: unknown[];
  fault?: string;
  got?: number[];
}

const FIXTURES = __dirname;

export class FakeDesktop {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-nwm-'));
  /** What the backend's addonModule points at. */
  readonly modulePath = path.join(this.dir, 'fake-node-window-manager.js');
  readonly binDir = path.join(this.dir, 'bin');
  private savedPath: string | undefined;

  constructor(scenario: Scenario) {
    this.write(scenario);
    writeFileSync(this.modulePath, `module.exports = require(${JSON.stringify(path.join(FIXTURES, 'fake-nwm.js'))}).load(__dirname);\n`);
    mkdirSync(this.binDir);
    for (const [file, tool] of [
      ['osascript', 'osascript'],
      ['powershell.exe', 'powershell'],
    ] as const) {
      const target = path.join(this.binDir, file);
      const script = path.join(FIXTURES, 'fake-close-tool.js');
      writeFileSync(target, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(script)} ${tool} ${JSON.stringify(this.dir)} "$@"\n`);
      chmodSync(target, 0o755);
    }
  }

  read(): Scenario {
    return JSON.parse(readFileSync(path.join(this.dir, 'scenario.json'), 'utf8')) as Scenario;
  }

  write(scenario: Scenario): void {
    writeFileSync(path.join(this.dir, 'scenario.json'), JSON.stringify(scenario, null, 2));
  }

  update(change: (s: Scenario) => void): void {
    const s = this.read();
    change(s);
    this.write(s);
  }

  window(handle: number): FakeWindow | undefined {
    return this.read().windows.find((w) => w.handle === handle);
  }

  calls(): FakeCall[] {
    const file = path.join(this.dir, 'calls.jsonl');
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as FakeCall);
  }

  /** Calls other than the read-only ones, in order. */
  actions(): FakeCall[] {
    const reads = /^(get|init|is|requestAccessibility)/;
    return this.calls().filter((c) => !reads.test(c.fn));
  }

  /** The helper inherits the environment when it is forked: call before the first request. */
  putToolsOnPath(): void {
    this.savedPath ??= process.env.PATH;
    process.env.PATH = `${this.binDir}${path.delimiter}${this.savedPath ?? ''}`;
  }

  cleanup(): void {
    if (this.savedPath !== undefined) process.env.PATH = this.savedPath;
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Helper processes (nwm-worker.js) this test process has started and that still exist. */
export function runningHelpers(): number[] {
  const mine = String(process.pid);
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const ppid = /^PPid:\s*(\d+)/m.exec(status)?.[1];
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (ppid === mine && cmdline.includes('nwm-worker.js')) found.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return found;
}
