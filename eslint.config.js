// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/', 'dist-*/', 'release/', 'node_modules/', 'coverage/', 'tests/fixtures/**/vendor/**', 'src/engine/wasm/assembly/', 'src/engine/wasm/build/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, chrome: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      'no-eval': 'error',
    },
  },
  {
    // Fixture pages are plain browser ES modules (no build step).
    files: ['tests/fixtures/**/*.js'],
    languageOptions: { sourceType: 'module', globals: { ...globals.browser } },
  },
);
