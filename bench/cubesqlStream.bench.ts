// cubesql streaming benchmark: our DataClient.cubesql (incremental NDJSON, one batch in memory) against
// a baseline that reads the whole body and then JSON.parses each line, both measured in this run
// against the sandbox. Each measurement runs in its own child process so that peak RSS/heap are the
// client's alone (the sandbox stays in the parent). The two modes alternate (order rotated each
// repetition); every figure is printed as median (min to max) over the repetitions, the ratios pair
// by pair, with the machine's load.
//
//   node out/bench/cubesqlStream.bench.js [--rows 250000,1000000] [--reps 3]
import { request } from 'undici';
import { DataClient } from '../src/api/dataClient';
import { startSandbox } from '../src/sandbox';
import { measureInChild, runBench } from './benchProcess';
import { LoadMeter, arg as numArg, argText, fmt, median, rotation, spread } from './benchArgs';

type Mode = 'client' | 'baseline';

interface Result {
  mode: Mode;
  rows: number;
  ms: number;
  peakRssMb: number;
  peakHeapMb: number;
  /** Peak heap right after a forced GC: what the reader actually keeps alive. */
  peakRetainedMb: number;
  startRssMb: number;
}

const SQL = process.env.BENCH_SQL ?? 'SELECT * FROM orders';
const MB = 1024 * 1024;

class Sampler {
  peakRss = 0;
  peakHeap = 0;
  peakRetained = 0;
  /** Forces a GC (node --expose-gc) and records the live heap. */
  retained(): void {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) return;
    gc();
    const used = process.memoryUsage().heapUsed;
    if (used > this.peakRetained) this.peakRetained = used;
    this.sample();
  }
  private readonly timer: NodeJS.Timeout;
  constructor() {
    this.sample();
    this.timer = setInterval(() => this.sample(), 50);
  }
  sample(): void {
    const m = process.memoryUsage();
    if (m.rss > this.peakRss) this.peakRss = m.rss;
    if (m.heapUsed > this.peakHeap) this.peakHeap = m.heapUsed;
  }
  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }
}

async function runClient(url: string, token: string): Promise<number> {
  const client = new DataClient({ baseUrl: url, token: async () => token });
  let rows = 0;
  let batches = 0;
  for await (const chunk of client.cubesql(SQL)) {
    if (chunk.type === 'rows') {
      rows += chunk.rows.length;
      if (++batches % 50 === 0) sampler?.sample();
      if (batches % 200 === 1) sampler?.retained(); // from the first batch on, so small answers are sampled too
    }
  }
  await client.close();
  return rows;
}

async function runBaseline(url: string, token: string): Promise<number> {
  for (;;) {
    const res = await request(url.replace(/\/+$/, '') + '/v1/cubesql', {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({ query: SQL, throwContinueWait: true }),
    });
    if (res.statusCode !== 200) throw new Error(`baseline: HTTP ${res.statusCode}: ${await res.body.text()}`);
    const text = await res.body.text(); // the whole body in memory
    sampler?.sample();
    const lines = text.split('\n');
    sampler?.retained();
    let rows = 0;
    let continueWait = false;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (!line.trim()) continue;
      const v = JSON.parse(line) as { data?: unknown[]; error?: string };
      if (v.data) rows += v.data.length;
      else if (v.error === 'Continue wait') continueWait = true;
      else if (v.error) throw new Error(v.error);
      if (i % 50 === 0) sampler?.sample();
    }
    if (!continueWait) return rows;
  }
}

let sampler: Sampler | undefined;

async function child(mode: Mode, url: string, token: string): Promise<void> {
  const startRss = process.memoryUsage().rss;
  sampler = new Sampler();
  const t0 = process.hrtime.bigint();
  const rows = mode === 'client' ? await runClient(url, token) : await runBaseline(url, token);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  sampler.stop();
  const result: Result = {
    mode,
    rows,
    ms,
    peakRssMb: sampler.peakRss / MB,
    peakHeapMb: sampler.peakHeap / MB,
    peakRetainedMb: sampler.peakRetained / MB,
    startRssMb: startRss / MB,
  };
  process.send?.(result);
}

async function main(): Promise<void> {
  const sizes = (argText('rows') ?? '250000,1000000').split(',').map(Number);
  const reps = numArg('reps', 3);
  const load = new LoadMeter();
  const runs = new Map<number, Record<Mode, Result[]>>();
  for (const size of sizes) {
    const sb = await startSandbox({ rows: size });
    const got: Record<Mode, Result[]> = { client: [], baseline: [] };
    runs.set(size, got);
    try {
      const url = sb.urls.dataApi;
      const token = sb.tokens.dataApi;
      await measureInChild<Result>(__filename, 'client', [url, token], 'client child'); // warms the sandbox's query path
      for (let r = 0; r < reps; r++)
        for (const mode of rotation(['baseline', 'client'] as const, r))
          got[mode].push(await measureInChild<Result>(__filename, mode, [url, token], `${mode} child`));
    } finally {
      await sb.close();
    }
  }
  console.log(
    `\ncubesql streaming (${SQL}), Node ${process.version}; each measurement one child process; ${reps} repetitions alternated; ${load.stop()}\n`,
  );
  console.log('| mode     |      rows | rows/s | peak RSS MB | peak heap MB | live heap MB |');
  console.log('|----------|-----------|--------|-------------|--------------|--------------|');
  const of = (rs: Result[], f: (r: Result) => number, d = 0) => spread(rs.map(f), d);
  for (const [size, got] of runs)
    for (const mode of ['client', 'baseline'] as const) {
      const rs = got[mode];
      console.log(
        `| ${mode.padEnd(8)} | ${fmt(size).padStart(9)} | ${of(rs, (r) => r.rows / (r.ms / 1000))} | ${of(rs, (r) => r.peakRssMb, 1)} | ${of(rs, (r) => r.peakHeapMb, 1)} | ${of(rs, (r) => r.peakRetainedMb, 1)} |`,
      );
    }
  console.log('');
  for (const [size, got] of runs) {
    const pair = (f: (c: Result, b: Result) => number) =>
      spread(
        got.client.map((c, i) => f(c, got.baseline[i]!)),
        2,
        'x',
      );
    console.log(
      `${fmt(size)} rows, per pair: throughput client/baseline ${pair((c, b) => c.rows / c.ms / (b.rows / b.ms))}; ` +
        `peak RSS baseline/client ${pair((c, b) => b.peakRssMb / c.peakRssMb)}; live heap baseline/client ${pair((c, b) => b.peakRetainedMb / c.peakRetainedMb)}`,
    );
  }
  if (sizes.length >= 2) {
    const first = runs.get(sizes[0]!)!;
    const last = runs.get(sizes[sizes.length - 1]!)!;
    const growth = (mode: Mode, f: (r: Result) => number) =>
      fmt(median(last[mode].map(f)) / median(first[mode].map(f)), 2);
    console.log(
      `memory growth from ${fmt(sizes[0]!)} to ${fmt(sizes[sizes.length - 1]!)} rows (medians): client live heap x${growth('client', (r) => r.peakRetainedMb)}, peak RSS x${growth('client', (r) => r.peakRssMb)}; ` +
        `baseline live heap x${growth('baseline', (r) => r.peakRetainedMb)}, peak RSS x${growth('baseline', (r) => r.peakRssMb)}`,
    );
  }
}

runBench(main, { child: ([mode, url, token]) => child(mode as Mode, url, token) });
