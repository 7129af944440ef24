import { ensureStateDir, reasonOf, resolveStatePath, StateFileError } from './state-file';

// Read-modify-write of a state file, one at a time across every DeskPilot process (the app,
// CLIs in terminals, scripts) and within this one. The cross-process lock is proper-lockfile:
// a `<file>.lock` directory (mkdir is atomic, also on network file systems) whose mtime the
// holder keeps fresh; a lock left by a killed process goes stale and is taken over, so it
// delays the next update by at most STALE_MS and never blocks it for good.

const STALE_MS = 10_000;
/**
 * How long to wait for a lock a live process holds: far longer than any update takes (a few
 * ms), longer than STALE_MS so a dead holder's lock is always outlived, and generous because a
 * busy machine can stall the holder.
 */
const RETRIES = { retries: 600, factor: 1.3, minTimeout: 10, maxTimeout: 200, randomize: true };

const queues = new Map<string, Promise<unknown>>();

/** Runs the updates of one file one after another within this process. */
function serialized<T>(key: string, update: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(update);
  queues.set(key, next);
  void next
    .finally(() => {
      if (queues.get(key) === next) queues.delete(key);
    })
    .catch(() => undefined);
  return next;
}

/** Runs `update` holding the file's lock; errors name the file. */
export async function withFileLock<T>(file: string, update: () => Promise<T>): Promise<T> {
  await ensureStateDir(file);
  const target = await resolveStatePath(file);
  return serialized(target, async () => {
    const lockPath = `${target}.lock`;
    let compromised: Error | null = null;
    let release: () => Promise<void>;
    // Loaded at the first update, not with the module: a call that only reads (plan, context) never locks.
    const { default: lockfile } = await import('proper-lockfile');
    try {
      release = await lockfile.lock(target, {
        realpath: false,
        stale: STALE_MS,
        retries: RETRIES,
        onCompromised: (e) => {
          compromised = e;
        },
      });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ELOCKED') {
        throw new StateFileError(`${file}: another DeskPilot process keeps it locked (${lockPath}); try again — if no DeskPilot is running, delete ${lockPath}`);
      }
      throw new StateFileError(`${file}: cannot be locked for updating (${lockPath}: ${reasonOf(e)})`);
    }
    try {
      const result = await update();
      if (compromised) {
        throw new StateFileError(
          `${file}: its lock was lost during the update (${(compromised as Error).message}), so another process may have changed it at the same time — check it`,
        );
      }
      return result;
    } finally {
      // A lost lock is already gone; nothing else can fail here that the caller could act on.
      await release().catch(() => undefined);
    }
  });
}
