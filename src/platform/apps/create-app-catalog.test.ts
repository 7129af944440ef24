import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppLaunchError } from './app-launch-error';
import { createAppCatalog } from './create-app-catalog';

describe('createAppCatalog', () => {
  it('picks the XDG catalog on Linux, driven by the env it is given', async () => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-catalog-'));
    try {
      await mkdir(path.join(tmp, 'applications'));
      await writeFile(path.join(tmp, 'applications', 'x.desktop'), '[Desktop Entry]\nType=Application\nName=Only\nExec=only\n');
      const catalog = createAppCatalog('linux', { HOME: tmp, XDG_DATA_HOME: tmp, XDG_DATA_DIRS: path.join(tmp, 'none') });
      expect(await catalog.list()).toEqual([{ name: 'Only', id: 'x.desktop', windowKeys: ['x', 'only'] }]);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  });

  it('picks the macOS and Windows catalogs (empty without their folders)', async () => {
    expect(await createAppCatalog('win32', {}).list()).toEqual([]);
    expect(await createAppCatalog('darwin', { HOME: '/nonexistent' }).list()).toBeInstanceOf(Array);
  });

  it('gives an empty catalog on an unknown platform whose launch says why', async () => {
    const catalog = createAppCatalog('aix', {});
    expect(await catalog.list()).toEqual([]);
    const err = await catalog.launch({ name: 'Thing', id: 'thing', windowKeys: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppLaunchError);
    expect((err as AppLaunchError).code).toBe('app_launch_failed');
    expect((err as Error).message).toBe('could not start Thing: DeskPilot cannot launch apps on aix yet');
  });
});
