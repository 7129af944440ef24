// ESLint: correctness rules from typescript-eslint and react-hooks, and the layer rules of
// docs/architecture.md as import restrictions — each folder may import only what lies below it.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Import patterns a layer must not use, with the reason shown in the error. */
const forbid = (...groups) => ({
  'no-restricted-imports': ['error', { patterns: groups.map(([group, message]) => ({ group, message })) }],
});

const NODE = ['node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'net', 'http', 'https', 'crypto', 'url', 'util', 'events', 'stream'];
const ELECTRON = [['electron', 'electron/*'], 'only src/main (and the preload) may import electron'];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'coverage/**', 'ui-shots/**', 'src/platform/windows/nwm/nwm-worker.js', 'src/platform/windows/nwm/test-fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      // The codebase uses `any` only at untyped boundaries (CDP params, test JSON); each is deliberate.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // CommonJS entry points (bin, workers) require by design.
      '@typescript-eslint/no-require-imports': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: { globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' } },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },

  // ── The layers (docs/architecture.md) ──────────────────────────────────────────────
  {
    files: ['src/protocol/**/*.ts'],
    ignores: ['src/protocol/**/*.test.ts'],
    rules: forbid(
      [['../*', '!../protocol/*'], 'src/protocol is the bottom layer: it imports only zod and itself'],
      [NODE, 'src/protocol has no I/O: no node modules'],
      ELECTRON,
      [['openai', 'openai/*', 'chrome-remote-interface', 'x11', 'react', 'react-dom', 'zustand'], 'src/protocol imports only zod'],
    ),
  },
  {
    files: ['src/engine/**/*.ts'],
    ignores: ['src/engine/**/*.test.ts'],
    rules: forbid(
      [['**/platform/*', '**/platform/**', '**/app/**', '**/compose/**', '**/cli/**', '**/main/**', '**/renderer/**', '**/preload/**'], 'src/engine imports only src/protocol and pure libraries; it defines ports for the rest'],
      [NODE, 'src/engine never imports node: modules (it runs anywhere; ids come from Web Crypto)'],
      ELECTRON,
      [['openai', 'openai/*', 'chrome-remote-interface', 'x11', 'node-window-manager'], 'src/engine reaches backends through its ports only'],
    ),
  },
  {
    files: ['src/platform/**/*.ts'],
    ignores: ['src/platform/**/*.test.ts'],
    rules: forbid(
      [['**/app/**', '**/compose/**', '**/cli/**', '**/main/**', '**/renderer/**', '**/preload/**'], 'src/platform implements the engine ports; it never imports the layers above it'],
      ELECTRON,
    ),
  },
  {
    files: ['src/app/**/*.ts'],
    ignores: ['src/app/**/*.test.ts'],
    rules: forbid(
      [['**/compose/**', '**/cli/**', '**/main/**', '**/renderer/**', '**/preload/**'], 'src/app holds the Electron-free services; it is wired by src/compose and the roots, never the reverse'],
      ELECTRON,
    ),
  },
  {
    files: ['src/compose/**/*.ts'],
    ignores: ['src/compose/**/*.test.ts'],
    rules: forbid([['**/cli/**', '**/main/**', '**/renderer/**', '**/preload/**'], 'src/compose wires the layers below it for the roots (src/cli, src/main)'], ELECTRON),
  },
  {
    files: ['src/cli/**/*.ts'],
    ignores: ['src/cli/**/*.test.ts'],
    rules: forbid([['**/main/**', '**/renderer/**', '**/preload/**'], 'src/cli is a root beside src/main; it never imports the app shell'], ELECTRON),
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    rules: forbid(
      [['**/engine/**', '**/platform/**', '**/app/**', '**/compose/**', '**/cli/**', '**/main/**', '**/preload/**'], 'the renderer is sandboxed: it imports only src/protocol and talks through window.api'],
      [NODE, 'the renderer runs in a sandboxed page: no node modules'],
      ELECTRON,
    ),
  },
);
