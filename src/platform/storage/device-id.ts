import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { withFileLock } from './file-lock';
import { readStateText, StateFileError, writeStateText } from './state-file';

const VALID_ID = /^[\w-]{8,64}$/;

/**
 * A stable id for this machine's DeskPilot, so records can later be told apart across
 * devices. Made once (under the file's lock, so processes starting together agree on it);
 * an existing file that does not hold an id is reported, never replaced: the id it held
 * would be lost for good.
 */
export async function loadDeviceId(configDir: string): Promise<string> {
  const file = path.join(configDir, 'device-id');
  const existing = await readDeviceId(file);
  if (existing !== null) return existing;
  return withFileLock(file, async () => {
    const made = await readDeviceId(file);
    if (made !== null) return made;
    const id = randomUUID();
    await writeStateText(file, id + '\n');
    return id;
  });
}

async function readDeviceId(file: string): Promise<string | null> {
  const text = await readStateText(file);
  if (text === null) return null;
  const id = text.trim();
  if (VALID_ID.test(id)) return id;
  throw new StateFileError(
    `${file}: does not hold a device id (8 to 64 letters, digits, "-" or "_"); it is left as it is — restore it, or delete it to get a new id`,
  );
}
