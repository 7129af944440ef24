#!/usr/bin/env node
'use strict';
// Runs the TypeScript CLI through tsx's require hook, so `npm run deskpilot` works right
// after `npm install` with no build step (tsx caches the transpiled files).
const path = require('node:path');
const { register } = require('tsx/cjs/api');
register();
require(path.join(__dirname, '..', 'src', 'cli', 'main.ts'))
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
