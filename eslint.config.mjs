// Flat config. Besides the usual rules it enforces the architecture's import boundaries:
// src/api, src/sandbox and src/shared never import `vscode`; webview/ never imports src/api
// (nor vscode, nor Node built-ins).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const noVscode = {
  paths: [{ name: 'vscode', message: 'This folder must stay usable from plain Node: no vscode import.' }],
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'out/**',
      'dist/**',
      '.vscode-test/**',
      '.test-run/**',
      'reports/**',
      '.stryker-tmp/**',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'smart'],
      'no-console': 'off',
    },
  },
  {
    files: [
      'src/api/**/*.ts',
      'src/sandbox/**/*.ts',
      'src/shared/**/*.ts',
      // The agent tool core and the MCP server run in plain Node too (dist/mcp.js).
      'src/agents/tools/**/*.ts',
      'src/agents/gateway.ts',
      'src/agents/participantStream.ts',
      'src/mcp/**/*.ts',
    ],
    rules: { 'no-restricted-imports': ['error', noVscode] },
  },
  {
    files: ['webview/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noVscode.paths,
          patterns: [
            {
              group: ['**/src/api', '**/src/api/**'],
              message: 'Webviews talk to the host by messages, never to src/api.',
            },
            { group: ['node:*'], message: 'Webview code runs in a browser.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', 'scripts/**/*.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The code-server test host is a plain CommonJS extension.
    files: ['test/host/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
