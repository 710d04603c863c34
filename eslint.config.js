import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

/**
 * The server's capabilities: every folder of src/server beside the kernel. Each may import the kernel
 * and itself, never another capability; the kernel imports no capability (README, Architecture).
 */
const CAPABILITIES = readdirSync(fileURLToPath(import.meta.resolve('./src/server')), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'kernel')
  .map((entry) => entry.name);

/** Import direction, enforced: layers below never reach up, capabilities never reach sideways. */
const LAYERS = [
  {
    target: './src/server/kernel',
    from: './src/server',
    except: ['./kernel'],
    message: 'The kernel imports no capability (and not the app that composes them).',
  },
  ...CAPABILITIES.map((name) => ({
    target: `./src/server/${name}`,
    from: './src/server',
    except: [`./${name}`, './kernel'],
    message: `A capability reaches another only through the kernel (its services, hooks and ports), never by importing it.`,
  })),
  { target: './src/shared', from: ['./src/server', './src/web'], message: 'Shared code is below both sides.' },
  { target: './src/web', from: './src/server', message: 'The browser app talks to the server over HTTP only.' },
  {
    target: './src/web/!(app)/**',
    from: './src/web/app',
    message: 'src/web/app composes the browser app; nothing imports it (shared services live in folders of their own).',
  },
  { target: './src/server', from: './src/web', message: 'The server does not import the browser app.' },
];

export default tseslint.config(
  { ignores: ['dist', 'data', 'node_modules', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: globals.browser },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: [
      'src/server/**/*.ts',
      'tests/**/*.ts',
      'bench/**/*.ts',
      'codegen/**/*.ts',
      'scripts/**/*.mjs',
      '.ci/**/*.mjs',
    ],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: LAYERS }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='eval']", message: 'Never evaluate strings.' },
        { selector: "NewExpression[callee.name='Function']", message: 'Never evaluate strings.' },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Issue 21: a designer test selects a diagram element by its id, never by a point of the screen (a
    // point lands on a flow's label or a neighbour as layout and zoom move). Rule options replace, so the
    // rules above are repeated.
    files: ['tests/e2e/workflow-*.test.ts', 'tests/support/workflow.ts', 'tests/support/bpmnModels.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='eval']", message: 'Never evaluate strings.' },
        { selector: "NewExpression[callee.name='Function']", message: 'Never evaluate strings.' },
        {
          selector:
            "CallExpression[callee.object.property.name='mouse'][callee.property.name=/^(click|dblclick|down)$/]",
          message: 'Select a diagram element by its id (select() in workflow-designer.test.ts), not by a point.',
        },
      ],
    },
  },
);
