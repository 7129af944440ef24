import { mkdirSync, readdirSync, readFileSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import path from 'node:path';

// Electron's single-instance lock, per user-data folder: the first process holds it; a later one
// is refused and hands its command line to the first ('second-instance') before it exits. Taken
// with an atomic mkdir (a lock left by a process that is gone is taken over); the hand-over is a
// file the first process watches for — written synchronously, because main exits right after
// requestSingleInstanceLock() says no, as it does in Electron.

export class SingleInstanceLock {
  private held = false;
  private watcher: FSWatcher | null = null;

  constructor(private readonly dir: string) {}

  private get pidFile() {
    return path.join(this.dir, 'pid');
  }

  /** True when this process now holds the lock; false when another live process does (it is told). */
  request(argv: string[], onSecond: (argv: string[]) => void): boolean {
    if (this.held) return true;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        mkdirSync(this.dir);
        writeFileSync(this.pidFile, String(process.pid));
        this.held = true;
        this.watch(onSecond);
        return true;
      } catch {
        const owner = Number(readFileSafe(this.pidFile));
        if (owner && alive(owner)) {
          writeFileSync(path.join(this.dir, `second-${process.pid}.json`), JSON.stringify(argv));
          return false;
        }
        // Left behind by a process that is gone: take it over.
        rmSync(this.dir, { recursive: true, force: true });
      }
    }
    return false;
  }

  has(): boolean {
    return this.held;
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    this.watcher?.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private watch(onSecond: (argv: string[]) => void): void {
    const seen = new Set<string>();
    const check = () => {
      for (const f of readdirSafe(this.dir)) {
        if (!/^second-\d+\.json$/.test(f) || seen.has(f)) continue;
        const text = readFileSafe(path.join(this.dir, f));
        if (!text) continue;
        seen.add(f);
        onSecond(JSON.parse(text) as string[]);
      }
    };
    this.watcher = watch(this.dir, () => check());
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const readFileSafe = (f: string) => {
  try {
    return readFileSync(f, 'utf8');
  } catch {
    return '';
  }
};
const readdirSafe = (d: string) => {
  try {
    return readdirSync(d);
  } catch {
    return [];
  }
};
