import { lstat } from 'node:fs/promises';
import type { z } from 'zod';
import { parseJsonOf } from '../../protocol/json-syntax';
import { formatFieldError, zodErrors } from '../../protocol/validation';
import { readStateText, reasonOf, StateFileError } from '../storage/state-file';

// This device's private JSON files (the sync credential, the device keys): 0600, and refused —
// not trusted — when other users can read them.

/**
 * A private JSON file of this device (0600): null when missing; refused when others can read
 * it (`leaked` says what that means), malformed or not matching `schema` (`fix` says what to do).
 */
export async function readPrivateJson<T>(file: string, schema: z.ZodType<T>, leaked: string, fix = ''): Promise<T | null> {
  const text = await readStateText(file);
  if (text === null) return null;
  if (process.platform !== 'win32') {
    const info = await lstat(file).catch((e: unknown) => {
      throw new StateFileError(`${file}: cannot be read (${reasonOf(e)})`);
    });
    if ((info.mode & 0o077) !== 0) throw new StateFileError(`${file}: others can read it (mode ${(info.mode & 0o777).toString(8)}), so ${leaked}`);
  }
  const json = parseJsonOf(file, text);
  if (!json.ok) throw new StateFileError(json.error + fix);
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) throw new StateFileError(`${file}: ${zodErrors(parsed.error, json.value).map(formatFieldError).join('; ')}${fix}`);
  return parsed.data;
}
