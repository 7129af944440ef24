import { readFileSync } from 'node:fs';
import path from 'node:path';

// DeskPilot's own version, from package.json beside the sources or the built bundle.
function readVersion(): string {
  for (const up of ['../..', '../../..', '..']) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(__dirname, up, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'deskpilot' && pkg.version) return pkg.version;
    } catch {
      // not here; try the next folder up
    }
  }
  return 'unknown';
}

export const PACKAGE_VERSION = readVersion();
