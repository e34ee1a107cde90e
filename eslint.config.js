import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Import boundaries of ARCHITECTURE.md: dependencies point one way. */
const boundaries = [
  {
    target: './domain',
    from: [
      './src/app',
      './src/features',
      './src/components',
      './src/lib',
      './store',
      './emulator',
      './functions',
      './scripts',
      './integration',
    ],
    message: 'domain/ is pure and imports nothing of the app.',
  },
  {
    target: './store',
    from: [
      './src/app',
      './src/features',
      './src/components',
      './emulator',
      './functions',
      './scripts',
      './integration',
    ],
    message: 'store/ depends only on domain/ (and src/lib).',
  },
  {
    target: './src/features',
    from: ['./src/app', './emulator', './functions', './scripts'],
    message: 'features depend on store, domain, lib and components.',
  },
  {
    target: './src/components',
    from: ['./src/app', './src/features', './store', './emulator'],
    message: 'components are presentational.',
  },
  {
    target: './functions',
    from: [
      './src/app',
      './src/features',
      './src/components',
      './store',
      './emulator',
      './scripts',
      './integration',
    ],
    message: 'functions depend only on domain/ (and the JSON parser of src/lib).',
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
    from: ['./src', './store', './functions', './scripts', './integration'],
    message: 'emulator/ imports nothing from the product.',
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
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
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
