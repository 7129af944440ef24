import { DeskPilotError } from '../../engine/errors';
import { COMMAND_TTL_MS, ROW_VERSION, type CommandAction, type CommandRow, type RowResult } from '../../protocol/sync';
import type { SyncDoc } from '../../platform/sync/sync-doc';

// The waiting side of a command row: write it, then resolve on its result (and delete the
// row: a result is read once), reject at the TTL when the target's taken mark was not seen, and
// delete the row when the caller aborts, so the target never runs it if it had not taken it yet.
// A row the target took gets one more TTL to be answered: it is running there. Whether a row
// that was not answered in time ran cannot be known here (its taken mark may be on its way), so
// the message says it may have run, and a late answer is kept for this device's own worker to
// record (device-worker.ts) instead of being lost.

type RowFields<A extends CommandAction> = Omit<Extract<CommandRow, { action: A }>, 'v' | 'id' | 'createdAt' | 'taken' | 'result'>;

export interface SendOptions {
  ttlMs?: number;
  signal?: AbortSignal;
  clock?: () => number;
  /** The target's name, for messages. */
  targetName?: string;
  /**
   * When the caller aborts after the target took the row, keep waiting for its answer (up to the
   * taken row's TTL) instead of withdrawing it: the answer then says what ran. For callers that
   * can still tell someone (the MCP server logs a cancelled call's outcome).
   */
  answerIfTaken?: boolean;
  newId?: () => string;
}

export async function sendCommand<A extends CommandAction>(doc: SyncDoc, fields: RowFields<A>, opts: SendOptions = {}): Promise<RowResult<A>> {
  const clock = opts.clock ?? Date.now;
  if (opts.signal?.aborted) throw new DeskPilotError('cancelled: nothing was sent', 'cancelled');
  const row = { ...fields, v: ROW_VERSION, id: (opts.newId ?? (() => globalThis.crypto.randomUUID()))(), createdAt: clock() } as CommandRow;
  doc.addRow(row);
  return waitForResult<A>(doc, row.id, row.createdAt, opts);
}

export function waitForResult<A extends CommandAction>(doc: SyncDoc, rowId: string, createdAt: number, opts: SendOptions = {}): Promise<RowResult<A>> {
  const ttl = opts.ttlMs ?? COMMAND_TTL_MS;
  const clock = opts.clock ?? Date.now;
  const who = opts.targetName ? `"${opts.targetName}"` : 'the device';
  return new Promise<RowResult<A>>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unobserve = () => {};
    const finish = () => {
      clearTimeout(timer);
      unobserve();
      opts.signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      const read = doc.readRow(rowId);
      const taken = read?.ok === true && (read.row.taken !== undefined || read.takenUnverified);
      // Running there already: withdrawing would only lose the answer.
      if (taken && opts.answerIfTaken) return;
      finish();
      doc.deleteRow(rowId);
      reject(new DeskPilotError(taken ? `cancelled: the command was withdrawn, but ${who} had already taken it, so it may have run there` : `cancelled: the command was withdrawn before ${who} ran it`, 'cancelled'));
    };
    const arm = (taken: boolean) => {
      clearTimeout(timer);
      const deadline = createdAt + (taken ? 2 * ttl : ttl);
      timer = setTimeout(check, Math.max(0, deadline - clock()) + 1);
    };
    let armedTaken: boolean | null = null;
    function check(): void {
      const read = doc.readRow(rowId);
      if (read === null) {
        finish();
        reject(new DeskPilotError(`${who} did not answer: the command was removed before it was answered`, 'failed'));
        return;
      }
      if (!read.ok) {
        finish();
        doc.deleteRow(rowId);
        reject(new DeskPilotError(`${who} answered with something this version does not understand (${read.problem})`, 'failed'));
        return;
      }
      const { row } = read;
      if (row.result !== undefined) {
        finish();
        doc.deleteRow(rowId);
        (resolve as (v: unknown) => void)(row.result);
        return;
      }
      const taken = row.taken !== undefined;
      const limit = createdAt + (taken ? 2 * ttl : ttl);
      if (clock() > limit) {
        finish();
        const late = 'its answer, if one comes, is recorded by DeskPilot here when it arrives (while `deskpilot service` or the app runs)';
        reject(
          taken || read.takenUnverified
            ? new DeskPilotError(`${who} took the command but did not answer within ${Math.round((2 * ttl) / 1000)} s: it may have run there, or may still be running; ${late}`, 'expired')
            : new DeskPilotError(
                `${who} did not answer within ${Math.round(ttl / 1000)} s; it may be offline, or its answer may be late: if it received the command in time it may have run there; it will not run from now on (${late})`,
                'expired',
              ),
        );
        return;
      }
      if (armedTaken !== taken) {
        armedTaken = taken;
        arm(taken);
      }
    }
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    unobserve = doc.onRows((ids) => {
      if (ids.has(rowId)) check();
    });
    check();
  });
}
