// What an app bundle says about itself, for matching its windows against the app catalog (which
// reads the same Info.plist keys). The addon only gives the bundle's path.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readPlistStrings } from '../../apps/info-plist';

export interface BundleInfo {
  /** The .app folder name without ".app". */
  folderName: string;
  bundleId: string | null;
  executable: string | null;
}

/** Info.plist in either form, XML or binary (like the catalog); an unreadable one still matches by name. */
export async function readBundleInfo(bundlePath: string): Promise<BundleInfo> {
  const folderName = path.posix.basename(bundlePath).replace(/\.app$/i, '');
  const plist = await readFile(path.posix.join(bundlePath, 'Contents', 'Info.plist'))
    .then(readPlistStrings)
    .catch(() => null);
  const get = (key: string) => plist?.get(key)?.trim() || null;
  return { folderName, bundleId: get('CFBundleIdentifier'), executable: get('CFBundleExecutable') };
}

/** Bundles do not change while their app runs; read each once per backend. */
export function bundleInfoCache(read = readBundleInfo): (bundlePath: string) => Promise<BundleInfo> {
  const cache = new Map<string, Promise<BundleInfo>>();
  return (bundlePath) => {
    let info = cache.get(bundlePath);
    if (!info) cache.set(bundlePath, (info = read(bundlePath)));
    return info;
  };
}
