import Module from 'node:module';
import path from 'node:path';
import { serveControl } from './control';

// Starts the real built main process (out/main/index.js, given as the first argument) under
// the stand-in Electron: every `require('electron')` in it gets ./electron.ts. Run by the
// test with Node and tsx (`node --import tsx launch.ts <main.js>`) as a forked child, so that
// the test can drive it (control.ts). Tests only.

const mainFile = process.argv[2];
if (!mainFile) {
  process.stderr.write('usage: node --import tsx tests/electron-stand-in/launch.ts <out/main/index.js>\n');
  process.exit(2);
}

const standIn = path.join(__dirname, 'electron.ts');
type Resolve = (request: string, ...rest: unknown[]) => string;
const loader = Module as unknown as { _resolveFilename: Resolve };
const resolve = loader._resolveFilename;
loader._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'electron' ? standIn : resolve.call(this, request, ...rest);
};

serveControl();
// Main reads its own argv (the login flag) as Electron gives it: the app's arguments after the binary.
process.argv = [process.execPath, ...process.argv.slice(3)];
require(path.resolve(mainFile));
