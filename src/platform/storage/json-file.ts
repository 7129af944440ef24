import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { formatFieldError, zodErrors } from '../../protocol/validation';

// A small validated JSON document in the config dir. Reads name the bad entry of a broken
// file; writes go to a temp file and are renamed, so a crash never leaves half a file.

export class JsonFileError extends Error {
  override name = 'JsonFileError';
}

export async function readJsonFile<S extends z.ZodType>(file: string, schema: S, empty: z.infer<S>): Promise<z.infer<S>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return empty;
    throw new JsonFileError(`${file}: cannot be read (${(e as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new JsonFileError(`${file}: is not valid JSON (${(e as Error).message})`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new JsonFileError(`${file}: ${zodErrors(parsed.error, json).map(formatFieldError).join('; ')}`);
  }
  return parsed.data;
}

let tmpCounter = 0;

export async function writeJsonFile(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${++tmpCounter}.tmp`;
  await writeFile(tmp, JSON.stringify(value, null, 2) + '\n', 'utf8');
  await rename(tmp, file);
}

const queues = new Map<string, Promise<unknown>>();

/**
 * Runs read-modify-write updates of one file one after another within this process, so
 * concurrent commands (the app serves several at once) cannot lose each other's changes.
 */
export function serialized<T>(file: string, update: () => Promise<T>): Promise<T> {
  const previous = queues.get(file) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(update);
  queues.set(file, next);
  void next.finally(() => {
    if (queues.get(file) === next) queues.delete(file);
  }).catch(() => undefined);
  return next;
}
