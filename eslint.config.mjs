import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import { createRequire } from 'node:module';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';

const { remotes, shell } = createRequire(import.meta.url)('@time-wallet/devkit/apps');
const REMOTES = remotes.map((remote) => remote.dir);
const APPS = [shell.dir, ...REMOTES];

function featuresOf(app) {
  const dir = path.join(import.meta.dirname, app, 'src', 'features');
  return fs.existsSync(dir)
    ? fs.readdirSync(dir).filter((name) => fs.statSync(path.join(dir, name)).isDirectory())
    : [];
}

// The one-way graph: shared-ui <- api package <- remotes <- shell; no remote imports another; inside an app,
// shared code -> features -> app, and no feature imports another feature.
const boundaryZones = [
  {
    target: './shared-ui/src',
    from: ['./shell', ...REMOTES.map((remote) => `./${remote}`)],
    message: 'shared-ui is the bottom layer.',
  },
  {
    target: './shell/packages/api/src',
    from: ['./shell/src', ...REMOTES.map((remote) => `./${remote}`)],
    message: 'The api package sits below the apps.',
  },
  ...REMOTES.map((remote) => ({
    target: `./${remote}/src`,
    from: ['./shell/src', ...REMOTES.filter((other) => other !== remote).map((other) => `./${other}`)],
    message: 'A remote never imports another remote or the shell.',
  })),
  ...APPS.flatMap((app) =>
    featuresOf(app).map((feature) => ({
      target: `./${app}/src/features/${feature}`,
      from: `./${app}/src/features`,
      except: [`./${feature}`],
      message: 'Features do not import each other; lift shared code to src/components or src/lib.',
    })),
  ),
  ...APPS.map((app) => ({
    target: [`./${app}/src/features`, `./${app}/src/components`, `./${app}/src/lib`],
    from: `./${app}/src/app`,
    message: 'Only src/app composes features.',
  })),
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-*/**',
      '**/.mf/**',
      'data/**',
      'coverage/**',
      '.e2e-tmp/**',
      'shell/packages/api/src/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      // Without these, import-x reads no .ts or .tsx file it is pointed at, so no-cycle saw no cycle through one.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { maxDepth: 10, ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: boundaryZones }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['**/*.tsx', '**/*.ts'],
    ignores: ['server/**', 'e2e/**'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  {
    files: ['shared-ui/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@time-wallet/*'], message: 'shared-ui imports no other workspace package.' },
            {
              group: ['react-redux', '@reduxjs/*', 'redux', 'react-router', 'react-router-dom'],
              message: 'shared-ui is presentational: no store, no router.',
            },
          ],
        },
      ],
    },
  },
  {
    files: REMOTES.map((remote) => `${remote}/**`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@time-wallet/mfe-*', '@time-wallet/shell'],
              message: 'A remote never imports another remote or the shell.',
            },
            {
              group: ['react-redux', 'redux', '@reduxjs/*'],
              message:
                "Take the store and RTK Query from '@time-wallet/api': the shell's one store, shared without shipping all of RTK.",
            },
            {
              group: ['react-router', 'react-router-dom', 'react-router/*'],
              message:
                "Take routing from '@time-wallet/api/router': the shell's one router, shared without shipping all of react-router.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['shell/src/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react-router', 'react-router-dom', 'react-router/*'],
              message:
                "Shell pages take routing from '@time-wallet/api/router' like the remotes; only src/app builds the router.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.cjs', '**/*.mjs', 'server/**', 'e2e/**', 'shell/packages/devkit/**'],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-console': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['e2e/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name='waitForFunction'] > :matches(ArrowFunctionExpression, FunctionExpression)[async=true]",
          message:
            'waitForFunction does not await a promise: an async predicate passes at once. Use waitInPage (support/browser.mjs).',
        },
      ],
    },
  },
  {
    files: ['shell/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser }, sourceType: 'script' },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', '**/testing/**'],
    languageOptions: { globals: { ...globals.jest, ...globals.node } },
  },
);
