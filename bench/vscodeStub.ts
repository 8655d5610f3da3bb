// The stand-in for VS Code's \`vscode\` module that the benchmarks running dist/extension.js in plain
// Node use (activation, firstCall): the real API's top-level members, inert.
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/** Any member a callable, constructible no-op whose members are the same (`f`); lists empty. */
export const ANY_MEMBER = `
const LISTS = new Set(['notebookDocuments', 'textDocuments', 'workspaceFolders', 'visibleTextEditors', 'visibleNotebookEditors', 'all', 'tabs']);
const handler = {
  get: (t, k) => (LISTS.has(k) ? [] : k === 'prototype' ? {} : k === Symbol.toPrimitive ? () => '' : k === Symbol.iterator ? function* () {} : k === 'then' ? undefined : f),
  apply: () => f,
  construct: () => f,
  set: () => true,
  defineProperty: () => true,
};
const f = new Proxy(function () {}, handler);
`;

/**
 * A plain object with the real API's top-level members (esbuild's interop copies own keys, as it does
 * from the real one); each member is a constructible, callable no-op whose properties are the same;
 * lists are empty; the configuration holds three profiles.
 */
export const STUB = `${ANY_MEMBER}
const profiles = [
  { name: 'Prod EU', platformUrl: 'https://acme.example.com/api', production: true, agents: [{ label: 'Sales', url: 'https://ai.example.com/api/v1/public/acme/agents/42' }] },
  { name: 'Staging', platformUrl: 'https://staging.example.com/api', environment: 'staging' },
  { name: 'Local', platformUrl: 'http://127.0.0.1:4000/api', defaultDeploymentId: 1 },
];
const config = new Proxy(function () {}, { ...handler, get: (t, k) => (k === 'get' ? (key, d) => (key === 'profiles' ? profiles : key === 'activeProfile' ? 'Prod EU' : d) : handler.get(t, k)) });
const workspace = new Proxy(function () {}, { ...handler, get: (t, k) => (k === 'getConfiguration' ? () => config : handler.get(t, k)) });
const api = { __profiles: profiles };
for (const n of NAMES) api[n] = n === 'workspace' ? workspace : f;
module.exports = api;
`;
/**
 * The start of a probe script (written beside vscode-stub.js): `vscode` resolves to the stand-in,
 * the Node built-ins the extension host has loaded are loaded, and `vscode` and `path` are defined.
 */
export const PROBE_PRELUDE = `
const Module = require('node:module');
const path = require('node:path');
const resolve = Module._resolveFilename;
const stub = path.join(__dirname, 'vscode-stub.js');
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? stub : resolve.call(this, request, ...rest);
};
// Node built-ins the extension host has loaded before any extension.
for (const m of ['node:fs', 'node:fs/promises', 'node:path', 'node:crypto', 'node:tls', 'node:http', 'node:https', 'node:net', 'node:stream', 'node:zlib', 'node:url', 'node:util', 'node:events', 'node:buffer', 'node:os', 'node:worker_threads', 'node:perf_hooks']) require(m);
const vscode = require(stub);
`;

/** The vscode API's top-level members (from its typings) and any other member the extension uses. */
export function vscodeNames(): string[] {
  const names = new Set<string>();
  const typings = fs.readFileSync(path.join(root, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8');
  for (const m of typings.matchAll(/^\texport (?:namespace|class|enum|function|const|let|var) (\w+)/gm))
    names.add(m[1]!);
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts'))
        for (const m of fs.readFileSync(p, 'utf8').matchAll(/vscode\.([A-Za-z]+)/g)) names.add(m[1]!);
    }
  };
  walk(path.join(root, 'src'));
  return [...names];
}
