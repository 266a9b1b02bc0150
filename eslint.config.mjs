// Lint for the TypeScript and JavaScript of the runtime, the site's scripts and the tests
// (Astro and MDX files are checked by `astro check` and the build). Formatting is Prettier's job.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.astro/**',
      'node_modules/**',
      'public/**',
      'playground/collectives/kernel/reduce-wasm.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,mts,mjs,js}'],
    languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
    rules: {
      // A `_name` parameter says "unused on purpose".
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Empty blocks with a comment are how the code says "nothing to do here".
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Spin loops on Atomics are deliberate (bounded, with a comment).
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // Plain JS runs in Node or the browser (or both, inside page.evaluate): TypeScript checks names in .ts,
    // and here the build and the tests catch an undefined global, so no-undef would only list Node's and the DOM's.
    files: ['**/*.{mjs,js}'],
    rules: { 'no-undef': 'off' },
  },
  {
    // Exercise programs define what their hidden checks call, and the checks are appended to them in one
    // scope (so they carry @ts-nocheck): "unused" here means "used by the other half".
    files: ['content/questions/exercises/**'],
    rules: {
      '@typescript-eslint/no-unused-vars': 'off',
      '@typescript-eslint/ban-ts-comment': 'off',
    },
  },
);
