import type { z } from 'zod';
import { jsonSyntaxReason } from '../../protocol/json-syntax';
import { formatFieldError, zodErrors } from '../../protocol/validation';
import { readStateText, StateFileError, writeStateText } from './state-file';

// A small validated JSON document in the config dir. Reads name the bad entry of a broken
// file; a file that cannot be read is reported and never replaced (see state-file.ts).
// Read-modify-write updates hold the file's lock (withFileLock in file-lock.ts).

export async function readJsonFile<S extends z.ZodType>(file: string, schema: S, empty: z.infer<S>): Promise<z.infer<S>> {
  const text = await readStateText(file);
  if (text === null) return empty;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new StateFileError(`${file}: is not valid JSON (${jsonSyntaxReason(e)})`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new StateFileError(`${file}: ${zodErrors(parsed.error, json).map(formatFieldError).join('; ')}`);
  }
  return parsed.data;
}

export async function writeJsonFile(file: string, value: unknown, mode?: number): Promise<void> {
  await writeStateText(file, JSON.stringify(value, null, 2) + '\n', mode);
}
