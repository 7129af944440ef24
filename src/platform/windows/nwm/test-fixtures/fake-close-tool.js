'use strict';
// Stands in for osascript / powershell.exe when the helper asks a window to close: checks it was
// asked the way the real tool would be, then "closes" the window in the fake desktop.
// argv: <osascript | powershell> <scenario dir> <the tool's own arguments…>

const fs = require('node:fs');
const path = require('node:path');

const [tool, dir, ...args] = process.argv.slice(2);
const scenarioPath = path.join(dir, 'scenario.json');
const s = JSON.parse(fs.readFileSync(scenarioPath, 'utf8'));
fs.appendFileSync(path.join(dir, 'calls.jsonl'), JSON.stringify({ fn: tool, args }) + '\n');

function close(w) {
  s.windows = s.windows.filter((x) => x !== w);
  fs.writeFileSync(scenarioPath, JSON.stringify(s, null, 2));
}

if (tool === 'powershell') {
  const script = Buffer.from(args[args.indexOf('-EncodedCommand') + 1] || '', 'base64').toString('utf16le');
  const handle = Number((/\[IntPtr\](\d+), 0x0112, \[IntPtr\]0xF060/.exec(script) || [])[1]);
  const w = s.windows.find((x) => x.handle === handle);
  if (!w) process.exit(3); // PostMessage to a dead window fails
  if (w.elevated) process.exit(3); // UIPI blocks messages to elevated windows
  close(w);
} else {
  const script = args.filter((_, i) => args[i - 1] === '-e').join('\n');
  if (s.automationDenied) {
    process.stderr.write('execution error: Not authorized to send Apple events to System Events. (-1743)\n');
    process.exit(1);
  }
  const [pid, x, y, width, height] = args.slice(-5).map(Number);
  const w = s.windows.find(
    (x2) => x2.pid === pid && x2.bounds.x === x && x2.bounds.y === y && x2.bounds.width === width && x2.bounds.height === height,
  );
  if (w && script.includes('AXCloseButton')) {
    close(w);
    process.stdout.write('closed\n');
  } else process.stdout.write('not-found\n');
}
