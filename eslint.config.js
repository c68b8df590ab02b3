import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const impure =
  'The engine is pure: time comes in as `now`, randomness from the seeded PRNG in the state, and it does no I/O.';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
      // Typed linting: each file is checked with the tsconfig that owns it (a package's own, else the root one
      // for tests and tooling). Only this file, JavaScript that no tsconfig takes, gets TypeScript's defaults.
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // A promise nobody awaits loses its rejection: await it, .catch it, or mark fire-and-forget with `void`.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['packages/engine/src/**/*.ts'],
    languageOptions: { globals: {} },
    // Only here: no-cycle walks every import it can resolve, and the engine's are few and relative.
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts'],
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts'] })],
    },
    rules: {
      // A circle among the rules makes their load order matter; type-only imports are not counted.
      'import-x/no-cycle': 'error',
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!\\./)', message: impure }] }],
      'no-restricted-globals': [
        'error',
        ...[
          'Date',
          'setTimeout',
          'setInterval',
          'setImmediate',
          'queueMicrotask',
          'process',
          'console',
          'performance',
          'fetch',
          'crypto',
          'require',
          'globalThis',
        ].map((name) => ({ name, message: impure })),
      ],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: impure }],
    },
  },
);
