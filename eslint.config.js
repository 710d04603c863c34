import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='eval']", message: 'Never evaluate strings.' },
        { selector: "NewExpression[callee.name='Function']", message: 'Never evaluate strings.' },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
);
