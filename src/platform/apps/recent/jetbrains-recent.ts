import { readdir, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { configHome } from './config-home';
import type { FoundRecent } from './recent-types';
import { parseTime } from './recent-types';
import { attributes } from './xml-text';

// JetBrains IDEs keep their recent projects in <config>/JetBrains/<Product><version>/options/
// recentProjects.xml: one <entry key="$USER_HOME$/…"> per project, with the times it was
// opened and last activated.

const PRODUCTS: ReadonlyArray<[prefix: string, app: string, keys: string[]]> = [
  ['IntelliJIdea', 'IntelliJ IDEA', ['idea', 'intellij idea', 'jetbrains-idea']],
  ['IdeaIC', 'IntelliJ IDEA Community Edition', ['idea', 'intellij idea', 'jetbrains-idea-ce']],
  ['PyCharm', 'PyCharm', ['pycharm', 'jetbrains-pycharm']],
  ['WebStorm', 'WebStorm', ['webstorm', 'jetbrains-webstorm']],
  ['GoLand', 'GoLand', ['goland', 'jetbrains-goland']],
  ['CLion', 'CLion', ['clion', 'jetbrains-clion']],
  ['PhpStorm', 'PhpStorm', ['phpstorm', 'jetbrains-phpstorm']],
  ['RubyMine', 'RubyMine', ['rubymine', 'jetbrains-rubymine']],
  ['Rider', 'Rider', ['rider', 'jetbrains-rider']],
  ['RustRover', 'RustRover', ['rustrover', 'jetbrains-rustrover']],
  ['DataGrip', 'DataGrip', ['datagrip', 'jetbrains-datagrip']],
  ['AndroidStudio', 'Android Studio', ['studio', 'android studio', 'jetbrains-studio']],
];

/** The projects of a recentProjects.xml text (paths with $USER_HOME$ expanded), newest first. */
export function parseRecentProjects(text: string, home: string, app: string, keys: string[], fileTime: number): FoundRecent[] {
  const out: FoundRecent[] = [];
  let i = 0;
  for (const m of text.matchAll(/<entry\s([^>]*?)>([\s\S]*?)<\/entry>/g)) {
    const key = attributes(m[1]!).get('key');
    if (!key) continue;
    const times: number[] = [];
    for (const o of m[2]!.matchAll(/<option\s([^>]*?)\/?>/g)) {
      const a = attributes(o[1]!);
      if (a.get('name') === 'activationTimestamp' || a.get('name') === 'projectOpenTimestamp') {
        const t = parseTime(a.get('value'));
        if (t !== null) times.push(t);
      }
    }
    const usedAt = times.length ? Math.max(...times) : null;
    out.push({ path: key.replaceAll('$USER_HOME$', home), app, appKeys: keys, usedAt, orderAt: usedAt ?? fileTime - i++ });
  }
  return out.sort((a, b) => b.orderAt - a.orderAt);
}

/** Every JetBrains IDE's recent projects (each product's newest version), newest first. */
export async function readJetBrainsRecent(platform: string, env: NodeJS.ProcessEnv): Promise<FoundRecent[]> {
  const root = path.join(configHome(platform, env), 'JetBrains');
  const dirs = await readdir(root).catch((): string[] => []);
  const home = env.HOME || env.USERPROFILE || os.homedir();
  const newest = new Map<string, string>();
  // "PyCharm2024.1" < "PyCharm2024.3": the version sorts as text within one product.
  for (const d of dirs.sort()) {
    const product = PRODUCTS.find(([prefix]) => d.startsWith(prefix) && /^\d/.test(d.slice(prefix.length)));
    if (product) newest.set(product[0], d);
  }
  const found = await Promise.all(
    [...newest].map(async ([prefix, d]) => {
      const [, app, keys] = PRODUCTS.find(([p]) => p === prefix)!;
      const file = path.join(root, d, 'options', 'recentProjects.xml');
      const [text, mtime] = await Promise.all([readFile(file, 'utf8').catch(() => null), stat(file).then((s) => s.mtimeMs, () => 0)]);
      return text === null ? [] : parseRecentProjects(text, home, app, keys, mtime);
    }),
  );
  return found.flat().sort((a, b) => b.orderAt - a.orderAt);
}
