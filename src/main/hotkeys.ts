import type { GlobalShortcut } from 'electron';
import type { HotkeyStatus } from '../protocol/ipc';
import { errorMessage } from '../engine/errors';

// The two global hotkeys: the launcher and push-to-talk. Electron's globalShortcut.register
// returns false, silently, when another app holds the combination, and throws for a string
// that is not an accelerator; both end up as a status the UI can show, never as a crash.

export type HotkeyName = 'launcher' | 'voice';
export type HotkeyStatuses = Record<HotkeyName, HotkeyStatus>;
export type ShortcutRegistry = Pick<GlobalShortcut, 'register' | 'unregister'>;

const NAMES: HotkeyName[] = ['launcher', 'voice'];

const ALIASES: Record<string, string> = {
  ctrl: 'control',
  cmd: 'command',
  option: 'alt',
  cmdorctrl: 'commandorcontrol',
  super: 'meta',
  cmdorcontrol: 'commandorcontrol',
  commandorctrl: 'commandorcontrol',
};

/** 'Ctrl+Alt+Space' and 'alt+control+space' name the same keys. */
export function sameAccelerator(a: string, b: string): boolean {
  const norm = (s: string) =>
    s
      .split('+')
      .map((k) => k.trim().toLowerCase())
      .map((k) => ALIASES[k] ?? k)
      .sort()
      .join('+');
  return norm(a) === norm(b);
}

export class HotkeyManager {
  private held: string[] = [];
  private statuses: HotkeyStatuses = {
    launcher: { accelerator: '', registered: false, error: 'not registered yet' },
    voice: { accelerator: '', registered: false, error: 'not registered yet' },
  };

  constructor(
    private readonly shortcuts: ShortcutRegistry,
    private readonly actions: Record<HotkeyName, () => void | Promise<void>>,
    private readonly log: (message: string) => void = (m) => console.error(m),
    /** Why a refused accelerator was refused, where the session knows better than "another app holds it" (Wayland). */
    private readonly refusal: (accelerator: string) => string | null = () => null,
  ) {}

  /** Releases what this manager holds, then registers the given accelerators. */
  apply(accelerators: Record<HotkeyName, string>): HotkeyStatuses {
    this.release();
    const next = {} as HotkeyStatuses;
    for (const name of NAMES) {
      const accelerator = accelerators[name].trim();
      if (name === 'voice' && sameAccelerator(accelerator, accelerators.launcher)) {
        next[name] = { accelerator, registered: false, error: `${accelerator} is already the launcher hotkey; choose another for push-to-talk` };
        continue;
      }
      next[name] = this.register(name, accelerator);
    }
    this.statuses = next;
    return this.status();
  }

  status(): HotkeyStatuses {
    return { launcher: { ...this.statuses.launcher }, voice: { ...this.statuses.voice } };
  }

  /** Unregisters only the accelerators this manager registered. */
  release(): void {
    for (const accelerator of this.held) {
      try {
        this.shortcuts.unregister(accelerator);
      } catch (e) {
        this.log(`could not release the hotkey ${accelerator}: ${errorMessage(e)}`);
      }
    }
    this.held = [];
  }

  private register(name: HotkeyName, accelerator: string): HotkeyStatus {
    const run = () => {
      void Promise.resolve()
        .then(this.actions[name])
        .catch((e: unknown) => this.log(`the ${name} hotkey failed: ${errorMessage(e)}`));
    };
    let ok: boolean;
    try {
      ok = this.shortcuts.register(accelerator, run);
    } catch (e) {
      return { accelerator, registered: false, error: `${accelerator} is not a valid shortcut (${errorMessage(e)})` };
    }
    if (!ok) return { accelerator, registered: false, error: this.refusal(accelerator) ?? `${accelerator} is used by another app; choose another shortcut in Settings` };
    this.held.push(accelerator);
    return { accelerator, registered: true, error: null };
  }
}
