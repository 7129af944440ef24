#!/usr/bin/env node
'use strict';
// The CLI runs as compiled JavaScript from out/cli (built by `npm install`'s prepare script,
// or `node scripts/build-cli.mjs`); nothing is transpiled at run time.
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const entry = path.join(__dirname, '..', 'out', 'cli', 'main.mjs');
import(pathToFileURL(entry).href).then(
  (cli) =>
    cli.main(process.argv.slice(2)).then((code) => {
      process.exitCode = code;
    }),
  (e) => {
    if (e && e.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes(entry)) {
      process.stderr.write('deskpilot: the CLI is not built yet — run `npm install` (or `node scripts/build-cli.mjs`) in the DeskPilot folder\n');
    } else {
      process.stderr.write(`deskpilot: ${e && e.stack ? e.stack : e}\n`);
    }
    process.exitCode = 1;
  },
);
