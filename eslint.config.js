import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The feature folders of src/features (each is a zone of its own). */
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The store modules `desk-snapshot` imports: it writes the desk's snapshot in the store's own
 * format (list copies, the columnar codec, the file layout) and of the orders a desk holds (its
 * window, read in its pages), so that there is one format, one window and one paging, read back
 * by the store. They hold no React, zustand or browser code.
 */
const snapshotFormatModules = [
  './sync/desk-window.ts',
  './sync/documents.ts',
  './sync/pager.ts',
  './sync/persist.ts',
  './sync/ports.ts',
  './sync/snapshot-file.ts',
];

/**
 * Import boundaries: dependencies point one way (`features → store → domain`, `features → lib`,
 * `functions → domain`, `scripts → domain`; integration tests use scripts, never the reverse);
 * the emulator stands apart.
 */
const boundaries = [
  {
    target: './domain',
    from: ['./src', './store', './emulator', './functions', './scripts', './integration'],
    message: 'domain/ is pure and imports nothing of the app.',
  },
  {
    target: './store',
    from: ['./src', './emulator', './functions', './scripts', './integration'],
    message: 'store/ depends only on domain/ (no store → src/*).',
  },
  {
    target: ['./src/**/!(*.test).ts', './src/**/!(*.test).tsx'],
    from: './store',
    except: ['./index.ts'],
    message: 'the app reaches the store only through store/index.ts.',
  },
  {
    target: ['./src', './scripts', './integration'],
    from: './store',
    except: ['./index.ts', './testing.ts'],
    message: 'import the store through store/index.ts (or its test kit, store/testing.ts).',
  },
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`, ...features.map((other) => `./${other}/index.ts`)],
    message: 'a feature imports another feature only through its index.ts.',
  })),
  {
    target: './src/features',
    from: ['./src/app', './emulator', './functions', './scripts'],
    message: 'features depend on store, domain, lib and components.',
  },
  {
    target: './src',
    from: ['./scripts', './integration', './functions'],
    message: 'the app imports no script, test or function (they may use the app, not the reverse).',
  },
  {
    target: './src/lib',
    from: ['./src/app', './src/features', './src/components'],
    message: 'src/lib is shared by every part of the app and imports none of them.',
  },
  {
    target: './src/components',
    from: ['./src/app', './src/features', './src/lib/appwrite.ts', './store', './emulator'],
    message: 'components are presentational.',
  },
  {
    target: './functions',
    from: [
      './src/app',
      './src/features',
      './src/components',
      './emulator',
      './scripts',
      './integration',
    ],
    message: 'functions depend only on domain/ (and the JSON parser of src/lib).',
  },
  {
    target: ['./functions/!(desk-snapshot)/**', './functions/*.ts'],
    from: './store',
    message: 'functions depend only on domain/ (and the JSON parser of src/lib).',
  },
  {
    target: './functions/desk-snapshot',
    from: './store',
    except: snapshotFormatModules,
    message:
      "desk-snapshot imports of the store only the snapshot's format, the desk's window and its paging (documents, persist, snapshot-file, desk-window, pager, ports).",
  },
  {
    target: './functions',
    from: './src/lib',
    except: ['./json-bigint-fast.ts'],
    message: 'functions depend only on domain/ (and the JSON parser of src/lib).',
  },
  {
    target: './scripts',
    from: './integration',
    message:
      'scripts/ does not import integration/ (integration uses the scripts: one way, no cycle).',
  },
  {
    target: './emulator',
    from: ['./src', './store', './domain', './functions', './scripts', './integration'],
    message: 'emulator/ imports nothing from the product.',
  },
  {
    target: './emulator/src/core',
    from: [
      './emulator/src/http',
      './emulator/src/services',
      './emulator/src/backend.ts',
      './emulator/src/events.ts',
      './emulator/src/modules.ts',
    ],
    message: "the emulator's core/ knows no HTTP and no service.",
  },
  {
    target: ['./src', './store', './functions', './scripts'],
    from: './emulator',
    message: 'the product reaches the local backend only over HTTP.',
  },
];

export default tseslint.config(
  { ignores: ['node_modules', 'dist', '**/dist', '.data', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
      // Dependencies are TypeScript: without a parser for them, no-cycle sees no imports at all.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: boundaries }],
      'import-x/no-cycle': ['error', { maxDepth: 6, ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['src/**/*.tsx', 'store/react/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
);
