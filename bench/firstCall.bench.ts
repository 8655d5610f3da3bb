// The first data call of a session against the second. Each run is a fresh Node process that loads
// dist/extension.js with VS Code's `vscode` module replaced by an inert stand-in, activates it, then
// sends the same SQL query twice through one DataClient taken from the API bundle as the client
// provider takes it (lazyModule of src/api/index.ts, one client per deployment, kept), against a
// replay server in a process of its own. Overhead = first call - second call, in the same process.
//   preloaded  the user runs a query a while after activation: the API bundle has been loaded in
//              the background (preloadModule, 1.5 s after activation) — the session as shipped
//   cold       the query right as activation ends, before the preload: what every first call cost
//              before the preload (the call loads dist/api.js itself); the baseline
// The two are alternated over the repetitions; medians with their spread; load printed.
//
//   node out/bench/firstCall.bench.js [--reps 9] [--rows 1000] [--dist dir]    (after `node esbuild.mjs`)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandbox } from '../src/sandbox';
import { LoadMeter, arg, argText, rotation, spread } from './benchArgs';
import { captureCubesql, startReplayProcess } from './replay';
import { PROBE_PRELUDE, STUB, vscodeNames } from './vscodeStub';

const root = path.resolve(__dirname, '..', '..');
/** --dist DIR runs another build (e.g. the commit before) through the same probe. */
const startup = path.join(argText('dist') ?? path.join(root, 'dist'), 'extension.js');
const SQL = 'SELECT id, status, amount FROM orders';
const MODES = ['preloaded', 'cold'] as const;
type Mode = (typeof MODES)[number];

interface Probe {
  mode: Mode;
  /** dist/api.js was loaded before the first call. */
  preloaded: boolean;
  firstMs: number;
  secondMs: number;
  /** CPU time of the process during each call (steadier than wall time on a shared machine). */
  firstCpuMs: number;
  secondCpuMs: number;
  rows: number;
}

/** argv: extension file, url, sql, mode. Prints a Probe. */
const PROBE = `${PROBE_PRELUDE}
const [file, url, sql, mode] = process.argv.slice(2);
const apiFile = path.join(path.dirname(file), 'api.js');
const now = () => Number(process.hrtime.bigint()) / 1e6;
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const loaded = () => Object.keys(require.cache).some((k) => k === apiFile);
const ext = require(file);
const memento = { get: (k, d) => d, update: () => Promise.resolve(), keys: () => [] };
const ctx = new Proxy({ subscriptions: [], workspaceState: memento, globalState: memento }, { get: (t, k) => (k in t ? t[k] : vscode.window) });
(async () => {
  await ext.activate(ctx);
  if (mode === 'preloaded') {
    // A user's first query comes a while after activation: until the preload (and its warm-up) has run.
    const until = now() + 15000;
    while (!loaded() && now() < until) await sleep(50);
    await sleep(1000);
  }
  const preloaded = loaded();
  // What the client provider does on a deployment's first query: the API module through
  // lazyModule (a require of dist/api.js), one DataClient, kept for the next query.
  const query = async (client) => {
    let rows = 0;
    for await (const c of client.cubesql(sql)) if (c.type === 'rows') rows += c.rows.length;
    return rows;
  };
  const c1 = cpu();
  const t1 = now();
  const api = require(apiFile).__modules['src/api/index.ts'];
  const client = new api.DataClient({ baseUrl: url, token: async () => 'replay', cacheKey: url + '|1' });
  const rows = await query(client);
  const firstMs = now() - t1;
  const firstCpuMs = cpu() - c1;
  const c2 = cpu();
  const t2 = now();
  const rows2 = await query(client);
  const secondMs = now() - t2;
  const secondCpuMs = cpu() - c2;
  if (rows !== rows2) throw new Error('the two calls read different rows');
  process.stdout.write(JSON.stringify({ mode, preloaded, firstMs, secondMs, firstCpuMs, secondCpuMs, rows }));
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
`;

function probe(dir: string, url: string, mode: Mode): Probe {
  const r = spawnSync(process.execPath, [path.join(dir, 'probe.js'), startup, url, SQL, mode], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`probe (${mode}) failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Probe;
}

async function main(): Promise<void> {
  if (!fs.existsSync(startup)) throw new Error('dist/extension.js is missing: run `node esbuild.mjs` first');
  const reps = arg('reps', 9);
  const rows = arg('rows', 1000);
  const load = new LoadMeter();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-first-call-'));
  const sandbox = await startSandbox({ rows });
  let body: Buffer;
  try {
    body = await captureCubesql(sandbox.urls.dataApi, sandbox.tokens.dataApi, SQL);
  } finally {
    await sandbox.close();
  }
  fs.writeFileSync(path.join(dir, 'answer.ndjson'), body);
  fs.writeFileSync(path.join(dir, 'probe.js'), PROBE);
  fs.writeFileSync(
    path.join(dir, 'vscode-stub.js'),
    `const NAMES = ${JSON.stringify(vscodeNames())};\n${STUB}`,
  );
  const replay = await startReplayProcess(path.join(dir, 'answer.ndjson'));
  const results: Probe[] = [];
  try {
    for (let r = 0; r < reps; r++)
      for (const mode of rotation(MODES, r)) results.push(probe(dir, replay.url, mode));
  } finally {
    await replay.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  for (const x of results) {
    if (x.rows !== rows) throw new Error(`${x.mode} read ${x.rows} rows, not ${rows}`);
    if (x.preloaded !== (x.mode === 'preloaded'))
      throw new Error(
        `${x.mode}: dist/api.js ${x.preloaded ? 'was' : 'was not'} loaded before the first call`,
      );
  }
  const of = (m: Mode) => results.filter((x) => x.mode === m);
  console.log(
    `\nfirst data call of a session vs the second (${rows} rows, ${SQL}, replay server in its own process), fresh processes, ${reps} repetitions alternated, Node ${process.version}, ${load.text()}\n`,
  );
  console.log(
    '| session                         | first call ms               | second call ms              | first - second ms           | first - second, CPU ms      |',
  );
  console.log(
    '|---------------------------------|-----------------------------|-----------------------------|-----------------------------|-----------------------------|',
  );
  for (const [m, name] of [
    ['preloaded', 'preloaded (as shipped)'],
    ['cold', 'cold: before the preload (base)'],
  ] as const) {
    const xs = of(m);
    console.log(
      `| ${name.padEnd(31)} | ${spread(
        xs.map((x) => x.firstMs),
        1,
      ).padEnd(27)} | ${spread(
        xs.map((x) => x.secondMs),
        1,
      ).padEnd(27)} | ${spread(
        xs.map((x) => x.firstMs - x.secondMs),
        1,
      ).padEnd(27)} | ${spread(
        xs.map((x) => x.firstCpuMs - x.secondCpuMs),
        1,
      ).padEnd(27)} |`,
    );
  }
  console.log(`\n${load.stop()}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
