import { readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { withFileLock } from './file-lock';
import { readStateText, writeStateText } from './state-file';

// One owner per device identity (issue 24, D2). The process that hosts a desk (the service, or
// the app when no service runs) owns its config folder — the device-id and sync credential
// there are one device — for as long as it runs; a second host of the same folder refuses to
// start, even when it would listen on another socket (another XDG_RUNTIME_DIR), because both
// would run every command sent to this device. The claim is a small file naming the owner,
// checked and written under the file's lock: a crashed owner (kill -9, power cut) leaves it
// behind, and the next host sees that its process is gone and takes over at once — nothing
// stays stuck, no timeout to wait out.

export const OWNER_FILE = 'service-owner.json';

const Owner = z.strictObject({
  pid: z.number().int().positive(),
  /** The process's start time (Linux: clock ticks since boot), so a reused pid is not taken for the owner. */
  start: z.string().nullable(),
  socket: z.string(),
  since: z.string(),
});
export type Owner = z.infer<typeof Owner>;

export class DeskOwnedError extends Error {
  override name = 'DeskOwnedError';
  constructor(
    readonly owner: Owner,
    configDir: string,
  ) {
    super(
      `another DeskPilot host (pid ${owner.pid}, socket ${owner.socket}, since ${owner.since}) already runs this device (${configDir}); ` +
        'a second one would run every command sent to it twice, so this one does not start — use that one, or stop it first',
    );
  }
}

export interface DeskClaim {
  release(): Promise<void>;
}

/** Claims `configDir` for this process (serving on `socket`); throws DeskOwnedError while a live process owns it. */
export async function claimDesk(configDir: string, socket: string): Promise<DeskClaim> {
  const file = path.join(configDir, OWNER_FILE);
  const me: Owner = { pid: process.pid, start: await startOf(process.pid), socket, since: new Date().toISOString() };
  await withFileLock(file, async () => {
    const current = await readOwner(file);
    if (current && current.pid !== process.pid && (await alive(current))) throw new DeskOwnedError(current, configDir);
    await writeStateText(file, JSON.stringify(me) + '\n');
  });
  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      await withFileLock(file, async () => {
        const current = await readOwner(file);
        if (current?.pid === me.pid && current.start === me.start) await unlink(file).catch(() => undefined);
      });
    },
  };
}

/** The live process that hosts the device of `configDir`, or null (none, or its claim is stale). */
export async function deskOwner(configDir: string): Promise<Owner | null> {
  const owner = await readOwner(path.join(configDir, OWNER_FILE)).catch(() => null);
  return owner && (await alive(owner)) ? owner : null;
}

/** The recorded owner; a file that does not parse (a torn write, a hand edit) names nobody. */
async function readOwner(file: string): Promise<Owner | null> {
  const text = await readStateText(file);
  if (text === null) return null;
  try {
    const parsed = Owner.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

async function alive(owner: Owner): Promise<boolean> {
  try {
    process.kill(owner.pid, 0);
  } catch {
    // ESRCH: gone. EPERM: a process of another user has that pid now — not a DeskPilot of this user.
    return false;
  }
  const start = await startOf(owner.pid);
  // Where the start time can be read, a different one means the pid was reused; a zombie (killed, not yet reaped) is gone.
  if (start === 'zombie') return false;
  return owner.start === null || start === null || start === owner.start;
}

/** Linux: the process's start time from /proc (field 22 of stat), "zombie" for a dead unreaped one; elsewhere null. */
async function startOf(pid: number): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return 'zombie';
    return fields[19] ?? null;
  } catch {
    return null;
  }
}
