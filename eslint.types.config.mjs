// @ts-check
// `npm run lint:types`: eslint.config.mjs plus typescript-eslint's type-aware rules
// (recommendedTypeChecked: no-floating-promises, no-misused-promises, no-unsafe-*, await-thenable, …),
// with type information from the projects `npm run typecheck` checks. Slower than `npm run
// lint` (it builds the TypeScript programs), so it is not part of `npm test`.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import base from './eslint.config.mjs';

export default defineConfig(
  base,
  {
    files: ['**/*.{ts,tsx,mts}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.shared.json', './tsconfig.node.json', './tsconfig.web.json', './tsconfig.render.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    files: ['**/*.{ts,tsx,mts}'],
    rules: {
      // node:test's test() and describe() return promises the runner awaits itself.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    // zustand store actions are declared with method syntax in the store interfaces but are closures
    // over set/get, so destructuring them from a store (`const { load } = useStore()`) is safe.
    rules: { '@typescript-eslint/unbound-method': 'off' },
  },
  {
    files: ['tests/**/*.ts'],
    // Tests read JSON (CLI output, HTTP bodies, files) and assert on it field by field; typing every
    // parsed value would add casts, not safety. The assertions are the check.
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  // Files no tsconfig includes: linted without type information.
  { files: ['vite.config.ts', 'bench/**/*.mts'], extends: [tseslint.configs.disableTypeChecked] },
);
