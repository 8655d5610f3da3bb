// What activation loads: dist/extension.js (the startup bundle; the HTTP stack, zod and the
// features' code load on first use) against a baseline built in this run the way the extension
// was bundled before: one bundle whose every module is evaluated at activation. Each figure is the
// time to require the bundle in a fresh Node process (VS Code's `vscode` module replaced by an
// inert stand-in), median of alternating runs. VS Code's own figure (Running Extensions) comes
// from the integration run: `node scripts/run-integration.mjs` prints it.
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
require(stub);
const t0 = process.hrtime.bigint();
require(process.argv[2]);
process.stdout.write(String(Number(process.hrtime.bigint() - t0) / 1e6));
`;
/** Any property is a constructible, callable no-op whose properties are the same. */
const STUB = `
const f = new Proxy(function () {}, { get: (t, k) => (k === 'prototype' ? {} : k === Symbol.toPrimitive ? () => '' : f) });
module.exports = f;
`;

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

function requireMs(dir: string, file: string): number {
  const r = spawnSync(process.execPath, [path.join(dir, 'probe.js'), file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`probe of ${file} failed: ${r.stderr}`);
  return Number(r.stdout);
}

function main(): void {
  if (!fs.existsSync(startup)) throw new Error('dist/extension.js is missing: run `node esbuild.mjs` first');
  const reps = arg('reps', 9);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-activation-'));
  try {
    fs.writeFileSync(path.join(dir, 'probe.js'), PROBE);
    fs.writeFileSync(path.join(dir, 'vscode-stub.js'), STUB);
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
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main();
