#!/usr/bin/env node
'use strict';
// The CLI runs as compiled JavaScript from out/cli (built by `npm install`'s prepare script,
// or `node scripts/build-cli.mjs`); nothing is transpiled at run time. First the thin client
// (one small file): when the warm service of the same build runs, it runs the command there
// and nothing else is loaded. Otherwise the full CLI runs the command in this process, loaded
// with V8's code cache (out/cli/load-cli.cjs).
const path = require('node:path');

const argv = process.argv.slice(2);
const outCli = path.join(__dirname, '..', 'out', 'cli');

let thin = null;
try {
  thin = require(path.join(outCli, 'thin-client.cjs'));
} catch (e) {
  // Not built yet: the full CLI says what to do. Anything else is a bug of the thin client.
  if (!e || e.code !== 'MODULE_NOT_FOUND') process.stderr.write(`deskpilot: note: the thin client failed to load (${e && e.message}); running in this process\n`);
}

// The thin client only ever fails before it handed the command over, so running it here then is safe.
(thin ? thin.runThroughService(argv) : Promise.resolve(null)).then(
  (code) => (code === null ? runHere() : (process.exitCode = code)),
  (e) => {
    process.stderr.write(`deskpilot: note: the thin client failed (${e && e.message}); running in this process\n`);
    runHere();
  },
);

function runHere() {
  let cli;
  try {
    cli = require(path.join(outCli, 'load-cli.cjs')).loadCli(outCli, argv);
  } catch (e) {
    if (e && e.code === 'ENOENT' && String(e.message).includes(outCli)) {
      process.stderr.write('deskpilot: the CLI is not built yet — run `npm install` (or `node scripts/build-cli.mjs`) in the DeskPilot folder\n');
    } else if (e && e.code === 'MODULE_NOT_FOUND' && String(e.message).includes('load-cli.cjs')) {
      process.stderr.write('deskpilot: the CLI is not built yet — run `npm install` (or `node scripts/build-cli.mjs`) in the DeskPilot folder\n');
    } else {
      process.stderr.write(`deskpilot: ${e && e.stack ? e.stack : e}\n`);
    }
    process.exitCode = 1;
    return;
  }
  cli.main(argv).then(
    (code) => {
      process.exitCode = code;
      cli.saveCodeCache();
    },
    (e) => {
      process.stderr.write(`deskpilot: ${e && e.stack ? e.stack : e}\n`);
      process.exitCode = 1;
    },
  );
}
