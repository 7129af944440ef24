import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

// The Electron runtime cannot run here, so the shell is checked where it can be: the real
// electron-vite build, and what its bundles would load at run time.

const root = path.join(__dirname, '..', '..');
const requires = (file: string) =>
  [...readFileSync(path.join(root, file), 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!).sort();

describe('electron-vite build (no Electron runtime needed)', () => {
  beforeAll(() => {
    execFileSync(process.execPath, [path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
      cwd: root,
      stdio: 'pipe',
    });
  });

  it('the sandboxed preload requires nothing but electron', () => {
    expect([...new Set(requires('out/preload/index.js'))]).toEqual(['electron']);
  });

  it('main requires only node built-ins, electron and declared dependencies', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    // 'openai/helpers/zod' → 'openai'; '@scope/name/x' → '@scope/name'.
    const packageOf = (m: string) => m.split('/').slice(0, m.startsWith('@') ? 2 : 1).join('/');
    // Main's own code split off for lazy loading (./chunks/…) is followed, not counted as a package.
    const seen = new Set<string>();
    const walk = (file: string): string[] => {
      if (seen.has(file)) return [];
      seen.add(file);
      return requires(file).flatMap((m) => (m.startsWith('./') || m.startsWith('../') ? walk(path.posix.join(path.posix.dirname(file), m)) : [m]));
    };
    const external = walk('out/main/index.js')
      .filter((m) => !m.startsWith('node:') && !builtinModules.includes(m) && m !== 'electron')
      .map(packageOf);
    expect(external.length).toBeGreaterThan(0);
    for (const m of external) expect(Object.keys(pkg.dependencies)).toContain(m);
  });

  it('ships the macOS/Windows window helper as its own script, loading only the addon and node built-ins', () => {
    const chunks = readdirSync(path.join(root, 'out/main/chunks')).filter((f) => f.startsWith('nwm-worker'));
    expect(chunks).toHaveLength(1);
    const loaded = [...readFileSync(path.join(root, 'out/main/chunks', chunks[0]!), 'utf8').matchAll(/require\((?:"([^"]+)"|'([^']+)')\)/g)].map((m) => m[1] ?? m[2]);
    expect(loaded.filter((m) => !m!.startsWith('node:') && !builtinModules.includes(m!))).toEqual([]);
    expect(readFileSync(path.join(root, 'out/main/index.js'), 'utf8')).toContain('nwm-worker');
  });

  it('the renderer page carries a Content-Security-Policy without unsafe-eval', () => {
    const html = readFileSync(path.join(root, 'out/renderer/index.html'), 'utf8');
    expect(html).toMatch(/http-equiv="Content-Security-Policy"/);
    expect(html).not.toMatch(/unsafe-eval/);
    expect(html).toMatch(/script-src 'self'/);
  });
});
