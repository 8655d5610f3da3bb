// cubesql streaming benchmark: our DataClient.cubesql (incremental NDJSON, one batch in memory) against
// a baseline that reads the whole body and then JSON.parses each line, both measured in this run
// against the sandbox. Each measurement runs in its own child process so that peak RSS/heap are the
// client's alone (the sandbox stays in the parent).
//
//   node out/bench/cubesqlStream.bench.js [--rows 250000,1000000]
import { fork } from 'node:child_process';
import { request } from 'undici';
import { DataClient } from '../src/api/dataClient';
import { startSandbox } from '../src/sandbox';

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
      if (batches % 200 === 0) sampler?.retained();
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

function measure(mode: Mode, url: string, token: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const cp = fork(__filename, ['--child', mode, url, token], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: ['--expose-gc'],
    });
    let result: Result | undefined;
    cp.on('message', (m) => (result = m as Result));
    cp.on('error', reject);
    cp.on('exit', (code) =>
      result ? resolve(result) : reject(new Error(`${mode} child exited with ${code}`)),
    );
  });
}

const fmt = (n: number, d = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

async function main(): Promise<void> {
  const arg = process.argv.indexOf('--rows');
  const sizes = (arg > 0 ? process.argv[arg + 1] : '250000,1000000').split(',').map(Number);
  const results: Result[] = [];
  for (const size of sizes) {
    const sb = await startSandbox({ rows: size });
    try {
      const url = sb.urls.dataApi;
      const token = sb.tokens.dataApi;
      // Warm the sandbox's query path once, then alternate the order of the two measurements.
      await measure('client', url, token);
      results.push(await measure('baseline', url, token));
      results.push(await measure('client', url, token));
    } finally {
      await sb.close();
    }
  }
  console.log(`\ncubesql streaming (${SQL}), Node ${process.version}; each row = one child process\n`);
  console.log('| mode     |      rows |   time ms |    rows/s | peak RSS MB | peak heap MB | live heap MB |');
  console.log('|----------|-----------|-----------|-----------|-------------|--------------|--------------|');
  for (const r of results) {
    console.log(
      `| ${r.mode.padEnd(8)} | ${fmt(r.rows).padStart(9)} | ${fmt(r.ms).padStart(9)} | ${fmt(r.rows / (r.ms / 1000)).padStart(9)} | ${fmt(r.peakRssMb, 1).padStart(11)} | ${fmt(r.peakHeapMb, 1).padStart(12)} | ${fmt(r.peakRetainedMb, 1).padStart(12)} |`,
    );
  }
  console.log('');
  for (const size of sizes) {
    const c =
      results.find((r) => r.mode === 'client' && r.rows >= size * 0.99 && r.rows <= size * 1.01) ??
      results.find((r) => r.mode === 'client');
    const b = results.find((r) => r.mode === 'baseline' && r.rows === c?.rows);
    if (!c || !b) continue;
    console.log(
      `${fmt(c.rows)} rows: throughput client/baseline = ${(c.rows / c.ms / (b.rows / b.ms)).toFixed(2)}x; ` +
        `peak RSS baseline/client = ${(b.peakRssMb / c.peakRssMb).toFixed(2)}x; peak heap baseline/client = ${(b.peakHeapMb / c.peakHeapMb).toFixed(2)}x`,
    );
  }
  const clients = results.filter((r) => r.mode === 'client');
  const bases = results.filter((r) => r.mode === 'baseline');
  if (clients.length >= 2) {
    const first = clients[0];
    const last = clients[clients.length - 1];
    console.log(
      `memory growth from ${fmt(first.rows)} to ${fmt(last.rows)} rows: client live heap x${(last.peakRetainedMb / first.peakRetainedMb).toFixed(2)}, peak RSS x${(last.peakRssMb / first.peakRssMb).toFixed(2)}, ` +
        `heap x${(last.peakHeapMb / first.peakHeapMb).toFixed(2)}; baseline live heap x${(bases[bases.length - 1]!.peakRetainedMb / bases[0]!.peakRetainedMb).toFixed(2)}, peak RSS x${(bases[bases.length - 1].peakRssMb / bases[0].peakRssMb).toFixed(2)}, ` +
        `heap x${(bases[bases.length - 1].peakHeapMb / bases[0].peakHeapMb).toFixed(2)}`,
    );
  }
}

if (process.argv[2] === '--child') {
  child(process.argv[3] as Mode, process.argv[4], process.argv[5]).then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
} else {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
