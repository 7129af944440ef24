import { EventEmitter } from 'node:events';
import path from 'node:path';
import type * as Electron from 'electron';
import { destroyAllWindows } from './browser-window';
import type { StandIn } from './electron-types';
import { globalShortcutState } from './misc';
import { killUiBrowser, recordCall, standInDir, uiBrowser } from './runtime';
import { SingleInstanceLock } from './single-instance';

// app: ready once the UI Chromium is up; the single-instance lock is real (per stand-in folder);
// quit runs Electron's sequence — 'before-quit', windows closed, 'will-quit', 'quit' — and then
// the process ends at once, as Electron's does: work main leaves running in those handlers is
// cut short here too.

class StandInApp
  extends EventEmitter
  implements
    StandIn<
      Electron.App,
      | 'whenReady'
      | 'isReady'
      | 'requestSingleInstanceLock'
      | 'hasSingleInstanceLock'
      | 'releaseSingleInstanceLock'
      | 'quit'
      | 'exit'
      | 'focus'
      | 'hide'
      | 'getAppPath'
      | 'getPath'
      | 'getName'
      | 'getVersion'
      | 'getLoginItemSettings'
      | 'setLoginItemSettings'
    >
{
  readonly isPackaged = false;
  readonly name = 'DeskPilot';
  /** macOS only in Electron. */
  readonly dock = undefined;
  private ready = false;
  private readonly readyPromise: Promise<void>;
  private readonly lock = new SingleInstanceLock(path.join(standInDir(), 'SingletonLock'));
  private quitting = false;

  constructor() {
    super();
    this.readyPromise = new Promise((resolve, reject) => {
      // Like Electron: ready on the next turn at the earliest, once the browser side is up.
      setImmediate(() => {
        uiBrowser().then(() => {
          this.ready = true;
          this.emit('ready');
          resolve();
        }, reject);
      });
    });
  }

  whenReady(): Promise<void> {
    return this.readyPromise;
  }

  isReady(): boolean {
    return this.ready;
  }

  requestSingleInstanceLock(additionalData?: Record<string, unknown>): boolean {
    const ok = this.lock.request(process.argv, (argv) => {
      recordCall('app second-instance', argv);
      this.emit('second-instance', { preventDefault() {} }, argv, process.cwd(), additionalData ?? {});
    });
    recordCall('app.requestSingleInstanceLock', ok);
    return ok;
  }

  hasSingleInstanceLock(): boolean {
    return this.lock.has();
  }

  releaseSingleInstanceLock(): void {
    this.lock.release();
  }

  quit(): void {
    recordCall('app.quit');
    if (this.quitting) return;
    this.quitting = true;
    const event = { defaultPrevented: false, preventDefault() {
      this.defaultPrevented = true;
    } };
    this.emit('before-quit', event);
    if (event.defaultPrevented) return void (this.quitting = false);
    destroyAllWindows();
    const willQuit = { defaultPrevented: false, preventDefault() {
      this.defaultPrevented = true;
    } };
    this.emit('will-quit', willQuit);
    if (willQuit.defaultPrevented) return void (this.quitting = false);
    this.emit('quit', {}, 0);
    this.end(0);
  }

  exit(exitCode = 0): void {
    recordCall('app.exit', exitCode);
    this.end(exitCode);
  }

  focus(options?: Electron.FocusOptions): void {
    recordCall('app.focus', options);
  }

  hide(): void {
    recordCall('app.hide');
  }

  getAppPath(): string {
    return process.env.DESKPILOT_STAND_IN_APP_PATH ?? process.cwd();
  }

  getPath(name: Parameters<Electron.App['getPath']>[0]): string {
    return path.join(standInDir(), 'paths', name);
  }

  getName(): string {
    return this.name;
  }

  getVersion(): string {
    return '0.0.0-stand-in';
  }

  getLoginItemSettings(): Electron.LoginItemSettings {
    return { openAtLogin: false, wasOpenedAtLogin: false, status: 'not-registered', executableWillLaunchAtLogin: false, launchItems: [] };
  }

  setLoginItemSettings(settings: Electron.Settings): void {
    recordCall('app.setLoginItemSettings', settings);
  }

  /** What ends with Electron's process: its renderers, its hotkeys, its lock. */
  private end(code: number): void {
    recordCall('process exit', code, [...globalShortcutState.registered.keys()]);
    killUiBrowser();
    this.lock.release();
    // Let the last records reach the test before the process goes.
    process.exitCode = code;
    const done = () => process.exit(code);
    if (process.send && process.connected) process.send({ kind: 'exit', code }, () => done());
    else done();
  }
}

export const app = new StandInApp();
