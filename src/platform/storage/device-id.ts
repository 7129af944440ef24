import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A stable id for this machine's DeskPilot, so records can later be told apart across devices. */
export async function loadDeviceId(configDir: string): Promise<string> {
  const file = path.join(configDir, 'device-id');
  try {
    const id = (await readFile(file, 'utf8')).trim();
    if (/^[\w-]{8,64}$/.test(id)) return id;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const id = randomUUID();
  await mkdir(configDir, { recursive: true });
  await writeFile(file, id + '\n', { encoding: 'utf8', flag: 'w' });
  return id;
}
