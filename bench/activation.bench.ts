// Activation, modelled on what VS Code counts. VS Code's "Running Extensions" figure is the time to
// require the main file plus the synchronous part of activate() (codeLoadingTime + activateCallTime
// in its extension host); the time until activate()'s promise resolves is not part of it. Each
// figure is measured in a fresh Node process with VS Code's `vscode` module replaced by an inert
// stand-in shaped like the real API object (its ~200 top-level members), alternating runs, each
// figure printed as median (min to max) over the fresh processes, with the machine's load.
//
// 1. VS Code's figure: dist/extension.js (one `vscode` namespace per bundle; activate() returns
//    after the services and the status bar, the rest registers one step per event loop turn before
//    its promise resolves) against a baseline built in this run from the same sources the way the
//    extension was built and activated before: a copy of the API object per importing module, and
//    all of activation inside the activate() call (so all of it counted). Also the whole of
//    activation's work (until the promise resolves) and the longest single task, so that moving
//    work out of the counted part cannot hide it.
// 2. Loading the startup bundle against one bundle with every module evaluated (the first design).
// 3. load + activation with three stored profiles against parsing them with zod (loads dist/api.js).
//
// VS Code's own figure comes from the integration run: `node scripts/run-integration.mjs` prints it.
//
//   node out/bench/activation.bench.js [--reps 9]    (after `node esbuild.mjs`)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync, type BuildOptions } from 'esbuild';
import { LoadMeter, arg, spread } from './benchArgs';
import { PROBE_PRELUDE, STUB, vscodeNames } from './vscodeStub';
import { median } from './replay';

const root = path.resolve(__dirname, '..', '..');
const startup = path.join(root, 'dist', 'extension.js');

type Mode = 'load' | 'activate' | 'zod' | 'whole';
interface Probe {
  /** require() of the bundle. */
  load: number;
  /** The activate() call until it returns. */
  call: number;
  /** From the require until activate()'s promise resolves. */
  total: number;
  /** The longest stretch the probe's event loop was blocked, from the require on. */
  longest: number;
}

/**
 * Requires `file` with `vscode` stubbed, then (modes other than `load`) runs activate() and waits for
 * its promise while a setImmediate ping measures the event loop's longest block. Prints a Probe.
 * `whole`: the baseline's activation, all of it one task, as it was before (no pings in between).
 */
const PROBE = `${PROBE_PRELUDE}
const [file, mode] = process.argv.slice(2);
const now = () => Number(process.hrtime.bigint()) / 1e6;
const t0 = now();
const ext = require(file);
const loaded = now();
const out = { load: loaded - t0, call: 0, total: loaded - t0, longest: loaded - t0 };
const done = () => process.stdout.write(JSON.stringify(out));
if (mode === 'load') return done();
// No workspace state yet: the active profile comes from settings.
const memento = { get: (k, d) => d, update: () => Promise.resolve(), keys: () => [] };
const ctx = new Proxy({ subscriptions: [], workspaceState: memento, globalState: memento }, { get: (t, k) => (k in t ? t[k] : vscode.window) });
const result = ext.activate(ctx);
const called = now();
out.call = called - loaded;
let last = called;
out.longest = called - t0;
let pinging = mode !== 'whole';
const ping = () => {
  const t = now();
  out.longest = Math.max(out.longest, t - last);
  last = t;
  if (pinging) setImmediate(ping);
};
if (pinging) setImmediate(ping);
Promise.resolve(result).then((api) => {
  const end = now();
  pinging = false;
  out.total = end - t0;
  if (mode === 'whole') out.longest = out.total;
  else out.longest = Math.max(out.longest, end - last);
  if (typeof api?.statusBarText !== 'function' || !api.explorer) throw new Error('activation returned no API');
  if (mode === 'zod') {
    const dir = require('node:path').dirname(file);
    const { ProfileSchema } = require(dir + '/api.js').__modules['src/profiles/profileSchema.ts'];
    for (const p of vscode.__profiles) if (!ProfileSchema.safeParse(p).success) throw new Error('bad profile');
    out.total = now() - t0;
  }
  const api_ = Object.keys(require.cache).filter((k) => /dist[\\\\/]api\\.js$/.test(k));
  if (mode === 'activate' && api_.length) throw new Error('activation loaded dist/api.js');
  done();
});
`;
const nodeBuild: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  mainFields: ['module', 'main'],
  external: ['vscode'],
  logLevel: 'error',
};

/** The startup bundle built as before this change: esbuild's default interop (a copy of the API object per importing module). */
function previousStartupBundle(dir: string): string {
  const out = path.join(dir, 'startup-before.js');
  buildSync({ ...nodeBuild, entryPoints: [path.join(root, 'src', 'extension.ts')], outfile: out });
  return out;
}

/** Everything the startup bundle now loads on first use, evaluated at load like the single bundle of the first design. */
function monolithBundle(dir: string): string {
  const bundles = JSON.parse(fs.readFileSync(path.join(root, 'dist', 'bundles.json'), 'utf8')) as Record<
    string,
    string
  >;
  const entries = ['src/extension.ts', ...Object.keys(bundles)];
  const out = path.join(dir, 'monolith.js');
  buildSync({
    ...nodeBuild,
    stdin: {
      contents: entries
        .map((e, i) => `export * as m${i} from ${JSON.stringify(path.join(root, e))};`)
        .join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    outfile: out,
  });
  return out;
}

function probe(dir: string, file: string, mode: Mode): Probe {
  const r = spawnSync(process.execPath, [path.join(dir, 'probe.js'), file, mode], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`probe of ${file} (${mode}) failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Probe;
}

/** `reps` probes of a and b, alternating which goes first. */
function pairs(reps: number, a: () => Probe, b: () => Probe): [Probe[], Probe[]] {
  const as: Probe[] = [];
  const bs: Probe[] = [];
  for (let i = 0; i < reps; i++) {
    if (i % 2) {
      bs.push(b());
      as.push(a());
    } else {
      as.push(a());
      bs.push(b());
    }
  }
  return [as, bs];
}

const med = (ps: Probe[], f: (p: Probe) => number) => median(ps.map(f));
/** "median (min to max, n=N)" of a figure of the probes. */
const sp = (ps: Probe[], f: (p: Probe) => number, d = 1) => spread(ps.map(f), d);

function main(): void {
  if (!fs.existsSync(startup)) throw new Error('dist/extension.js is missing: run `node esbuild.mjs` first');
  const reps = arg('reps', 9);
  const meter = new LoadMeter();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-activation-'));
  try {
    fs.writeFileSync(path.join(dir, 'probe.js'), PROBE);
    fs.writeFileSync(
      path.join(dir, 'vscode-stub.js'),
      `const NAMES = ${JSON.stringify(vscodeNames())};\n${STUB}`,
    );
    const before = previousStartupBundle(dir);
    const monolith = monolithBundle(dir);
    const kb = (f: string) => fs.statSync(f).size / 1024;

    // 1. What VS Code counts, with three stored profiles (the stand-in's settings).
    const [ours, base] = pairs(
      reps,
      () => probe(dir, startup, 'activate'),
      () => probe(dir, before, 'whole'),
    );
    const counted = med(ours, (p) => p.load + p.call);
    const baseCounted = med(base, (p) => p.total);
    console.log(`\nactivation, Node ${process.version}, ${reps} fresh processes each, alternated\n`);
    console.log('VS Code counts require + the synchronous activate() call (Running Extensions):\n');
    console.log('| measure | ours ms | before ms | before/ours, pair by pair |');
    console.log('|---------|---------|-----------|---------------------------|');
    const row = (name: string, o: (p: Probe) => number, b: (p: Probe) => number) =>
      console.log(
        `| ${name} | ${sp(ours, o)} | ${sp(base, b)} | ${spread(
          ours.map((p, i) => b(base[i]!) / o(p)),
          2,
          'x',
        )} |`,
      );
    row(
      "VS Code's figure: require + activate() call",
      (p) => p.load + p.call,
      (p) => p.total,
    );
    row(
      '  of which require',
      (p) => p.load,
      (p) => p.load,
    );
    row(
      '  of which the activate() call',
      (p) => p.call,
      (p) => p.total - p.load,
    );
    row(
      'all of activation (promise resolved)',
      (p) => p.total,
      (p) => p.total,
    );
    row(
      'longest single task',
      (p) => p.longest,
      (p) => p.longest,
    );
    console.log(
      `\nbefore: the same sources built with a copy of the vscode API object per importing module (${kb(before).toFixed(0)} KB) and all of activation inside the activate() call, as before this change`,
    );
    console.log(
      `VS Code's figure ${(baseCounted / counted).toFixed(1)}x lower; all of activation's work ${(med(base, (p) => p.total) / med(ours, (p) => p.total)).toFixed(2)}x`,
    );

    // 2. Loading the startup bundle against the first design's single bundle.
    const [load, mono] = pairs(
      reps,
      () => probe(dir, startup, 'load'),
      () => probe(dir, monolith, 'load'),
    );
    const o = med(load, (p) => p.load);
    const b = med(mono, (p) => p.load);
    console.log('\n| bundle                              |    size KB | load ms |');
    console.log('|-------------------------------------|------------|---------|');
    console.log(
      `| dist/extension.js (startup)         | ${kb(startup).toFixed(0).padStart(10)} | ${sp(load, (p) => p.load)} |`,
    );
    console.log(
      `| one bundle, all loaded (first)      | ${kb(monolith).toFixed(0).padStart(10)} | ${sp(mono, (p) => p.load)} |`,
    );
    console.log(
      `\nload time first design/now: ${(b / o).toFixed(1)}x; size ${(kb(monolith) / kb(startup)).toFixed(1)}x smaller`,
    );

    // 3. Stored profiles without zod at activation.
    const [act, zod] = pairs(
      reps,
      () => probe(dir, startup, 'activate'),
      () => probe(dir, startup, 'zod'),
    );
    const a = med(act, (p) => p.total);
    const z = med(zod, (p) => p.total);
    console.log(
      `\nall of activation with 3 stored profiles: ${sp(act, (p) => p.total)} ms; parsing them with zod too (as before, loads dist/api.js): ${sp(zod, (p) => p.total)} ms: ${(z / a).toFixed(1)}x less (medians)`,
    );
    console.log(`\n${meter.stop()}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main();
