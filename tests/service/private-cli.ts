import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// A build of the CLI of its own, for one test file or bench run. Other work in the same tree
// rebuilds out/cli meanwhile, and every rebuild has a new build id: a service started from one
// build and CLI calls from the next would no longer match, and the thin client would (rightly)
// run the commands itself. Laid out like the package (bin/, out/cli/, package.json, and
// node_modules linked), so it runs exactly as the real one does.

const REPO = path.join(__dirname, '..', '..');

export interface PrivateCli {
  root: string;
  /** bin/deskpilot.js of this build. */
  bin: string;
  /** The build id the thin client and the service of this build carry. */
  buildId: string;
  remove(): void;
}

const buildIdOf = (root: string) => /BUILD_ID="([0-9a-f]+)"/.exec(readFileSync(path.join(root, 'out', 'cli', 'thin-client.cjs'), 'utf8'))?.[1] ?? '';

function lay(root: string): PrivateCli {
  return { root, bin: path.join(root, 'bin', 'deskpilot.js'), buildId: buildIdOf(root), remove: () => rmSync(root, { recursive: true, force: true }) };
}

export async function buildPrivateCli(): Promise<PrivateCli> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-cli-'));
  mkdirSync(path.join(root, 'bin'));
  copyFileSync(path.join(REPO, 'bin', 'deskpilot.js'), path.join(root, 'bin', 'deskpilot.js'));
  copyFileSync(path.join(REPO, 'package.json'), path.join(root, 'package.json'));
  symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  await promisify(execFile)(process.execPath, [path.join(REPO, 'scripts', 'build-cli.mjs'), '--outdir', path.join(root, 'out', 'cli')], { cwd: REPO });
  const cli = lay(root);
  if (!cli.buildId) throw new Error(`the build in ${root} has no build id in out/cli/thin-client.cjs`);
  return cli;
}

/** The same build, except that its thin client carries another build id (as a client of another build would). */
export function withOtherBuildId(cli: PrivateCli): PrivateCli {
  const root = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-cli-other-'));
  cpSync(cli.root, root, { recursive: true, verbatimSymlinks: true });
  const thin = path.join(root, 'out', 'cli', 'thin-client.cjs');
  writeFileSync(thin, readFileSync(thin, 'utf8').replace(`BUILD_ID="${cli.buildId}"`, 'BUILD_ID="0000000000000000"'));
  const other = lay(root);
  if (other.buildId !== '0000000000000000') throw new Error('could not change the build id of the copy');
  return other;
}
