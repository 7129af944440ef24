import path from 'node:path';

// The CLI's entry, for the MCP tests' helpers and the bench alike (neither may load vitest:
// tests/support/cli.ts does).
export const CLI = path.join(__dirname, '..', '..', 'bin', 'deskpilot.js');
