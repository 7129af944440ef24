import { execFileSync } from 'node:child_process';
import path from 'node:path';

// The CLI tests run the compiled CLI as a user would: build it first when the sources are
// newer than out/cli (a no-op when `npm install` or an earlier run already built it).
export default function setup(): void {
  const root = path.join(__dirname, '..', '..');
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-cli.mjs'), '--if-stale'], { cwd: root, stdio: 'inherit' });
}
