// What activation loads: dist/extension.js (the startup bundle; the HTTP stack, zod and the
// features' code load on first use) against a baseline built in this run the way the extension
// was bundled before: one bundle whose every module is evaluated at activation. Each figure is the
// time to require the bundle in a fresh Node process (VS Code's `vscode` module replaced by an
// inert stand-in), median of alternating runs. VS Code's own figure (Running Extensions) comes
// from the integration run: `node scripts/run-integration.mjs` prints it.
// A second figure runs activate() too, with three stored profiles in settings (the stand-in answers
// getConfiguration), against the same bundle doing what activation did before with profiles:
// loading dist/api.js and parsing them with the zod ProfileSchema.
//
//   node out/bench/activation.bench.js [--reps 9]    (after `node esbuild.mjs`)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { arg } from './benchArgs';
import { median } from './replay';

const root = path.resolve(__dirname, '..', '..');
const startup = path.join(root, 'dist', 'extension.js');

/** Requires `file` with `vscode` stubbed; prints the milliseconds the require took. */
const PROBE = `
const Module = require('node:module');
const resolve = Module._resolveFilename;
const stub = require('node:path').join(__dirname, 'vscode-stub.js');
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? stub : resolve.call(this, request, ...rest);
};
// Node built-ins the extension host has loaded before any extension.
for (const m of ['node:fs', 'node:fs/promises', 'node:path', 'node:crypto', 'node:tls', 'node:http', 'node:https', 'node:net', 'node:stream', 'node:zlib', 'node:url', 'node:util', 'node:events', 'node:buffer', 'node:os']) require(m);
const vscode = require(stub);
const t0 = process.hrtime.bigint();
const ext = require(process.argv[2]);
if (process.argv[3]) {
  const ctx = new Proxy({ subscriptions: [] }, { get: (t, k) => (k in t ? t[k] : vscode.window) });
  ext.activate(ctx);
  if (process.argv[3] === 'zod') {
    const dir = require('node:path').dirname(process.argv[2]);
    const { ProfileSchema } = require(dir + '/api.js').__modules['src/profiles/profileSchema.ts'];
    for (const p of vscode.__profiles) if (!ProfileSchema.safeParse(p).success) throw new Error('bad profile');
  }
  const loaded = Object.keys(require.cache).filter((k) => /dist[\\/]api\\.js$/.test(k));
  if (process.argv[3] === 'activate' && loaded.length) throw new Error('activation loaded dist/api.js');
}
process.stdout.write(String(Number(process.hrtime.bigint() - t0) / 1e6));
`;
/**
 * Any property is a constructible, callable no-op whose properties are the same; lists are empty;
 * the configuration holds three profiles.
 */
const STUB = `
const LISTS = new Set(['notebookDocuments', 'textDocuments', 'workspaceFolders', 'visibleTextEditors', 'visibleNotebookEditors', 'all', 'tabs']);
const handler = {
  get: (t, k) => (LISTS.has(k) ? [] : k === 'prototype' ? {} : k === Symbol.toPrimitive ? () => '' : k === Symbol.iterator ? function* () {} : k === 'then' ? undefined : f),
  apply: () => f,
  construct: () => f,
  set: () => true,
  defineProperty: () => true,
};
const f = new Proxy(function () {}, handler);
const profiles = [
  { name: 'Prod EU', platformUrl: 'https://acme.example.com/api', production: true, agents: [{ label: 'Sales', url: 'https://ai.example.com/api/v1/public/acme/agents/42' }] },
  { name: 'Staging', platformUrl: 'https://staging.example.com/api', environment: 'staging' },
  { name: 'Local', platformUrl: 'http://127.0.0.1:4000/api', defaultDeploymentId: 1 },
];
const config = new Proxy(function () {}, { ...handler, get: (t, k) => (k === 'get' ? (key, d) => (key === 'profiles' ? profiles : key === 'activeProfile' ? 'Prod EU' : d) : handler.get(t, k)) });
const workspace = new Proxy(function () {}, { ...handler, get: (t, k) => (k === 'getConfiguration' ? () => config : handler.get(t, k)) });
module.exports = new Proxy({ __profiles: profiles }, { get: (t, k) => (k === 'workspace' ? workspace : k in t ? t[k] : f), ownKeys: () => NAMES, getOwnPropertyDescriptor: () => ({ configurable: true, enumerable: true }) });
`;
/** The vscode namespace members the extension uses (esbuild's interop copies own keys). */
function vscodeNames(): string[] {
  const names = new Set<string>(['__profiles']);
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

function baselineBundle(dir: string): string {
  // Everything the startup bundle now loads on first use, evaluated at load like the single
  // bundle of before.
  const bundles = JSON.parse(fs.readFileSync(path.join(root, 'dist', 'bundles.json'), 'utf8')) as Record<
    string,
    string
  >;
  const entries = ['src/extension.ts', ...Object.keys(bundles)];
  const out = path.join(dir, 'monolith.js');
  buildSync({
    stdin: {
      contents: entries
        .map((e, i) => `export * as m${i} from ${JSON.stringify(path.join(root, e))};`)
        .join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    external: ['vscode'],
    outfile: out,
    logLevel: 'error',
  });
  return out;
}

function requireMs(dir: string, file: string, mode?: 'activate' | 'zod'): number {
  const r = spawnSync(process.execPath, [path.join(dir, 'probe.js'), file, ...(mode ? [mode] : [])], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`probe of ${file} failed: ${r.stderr}`);
  return Number(r.stdout);
}

function main(): void {
  if (!fs.existsSync(startup)) throw new Error('dist/extension.js is missing: run `node esbuild.mjs` first');
  const reps = arg('reps', 9);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-activation-'));
  try {
    fs.writeFileSync(path.join(dir, 'probe.js'), PROBE);
    fs.writeFileSync(
      path.join(dir, 'vscode-stub.js'),
      `const NAMES = ${JSON.stringify(vscodeNames())};\n${STUB}`,
    );
    const monolith = baselineBundle(dir);
    // The startup bundle reads dist/bundles.json beside it, as installed.
    const ours: number[] = [];
    const base: number[] = [];
    for (let i = 0; i < reps; i++) {
      if (i % 2) {
        base.push(requireMs(dir, monolith));
        ours.push(requireMs(dir, startup));
      } else {
        ours.push(requireMs(dir, startup));
        base.push(requireMs(dir, monolith));
      }
    }
    const act: number[] = [];
    const actZod: number[] = [];
    for (let i = 0; i < reps; i++) {
      if (i % 2) {
        actZod.push(requireMs(dir, startup, 'zod'));
        act.push(requireMs(dir, startup, 'activate'));
      } else {
        act.push(requireMs(dir, startup, 'activate'));
        actZod.push(requireMs(dir, startup, 'zod'));
      }
    }
    const kb = (f: string) => fs.statSync(f).size / 1024;
    const o = median(ours);
    const b = median(base);
    console.log(`\nactivation: loading the extension's code, Node ${process.version}, median of ${reps}\n`);
    console.log('| bundle                              |    size KB | load ms |');
    console.log('|-------------------------------------|------------|---------|');
    console.log(
      `| dist/extension.js (startup)         | ${kb(startup).toFixed(0).padStart(10)} | ${o.toFixed(1).padStart(7)} |`,
    );
    console.log(
      `| one bundle, all loaded (before)     | ${kb(monolith).toFixed(0).padStart(10)} | ${b.toFixed(1).padStart(7)} |`,
    );
    console.log(
      `\nload time before/after: ${(b / o).toFixed(1)}x; size ${(kb(monolith) / kb(startup)).toFixed(1)}x smaller`,
    );
    const a = median(act);
    const z = median(actZod);
    console.log(
      `load + activate() with 3 stored profiles: ${a.toFixed(1)} ms; parsing them with zod (before: loads dist/api.js): ${z.toFixed(1)} ms: ${(z / a).toFixed(1)}x less`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main();
