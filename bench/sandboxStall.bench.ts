// How long the extension host's event loop stalls while the Sandbox profile serves loads (issue 20,
// defect 7). A 5 ms timer in the host records how late each tick fires while 500 /v1/load queries run
// at once (aggregates and a 5,000-row listing) from the host's own HTTP client, with the sandbox
//   in-thread  started in the host's thread (how the profile ran it before: the baseline)
//   worker     started in a worker thread, as the profile does now (src/profiles/sandboxLoader.ts)
// and prints the timer's max and p99 lateness for both and their ratio. Runs alternate so the
// machine's load hits both alike.
//
//   node out/bench/sandboxStall.bench.js [--rows 20000] [--loads 500] [--rounds 2]
// (20,000 orders is the Sandbox profile's default.)
import { performance } from 'node:perf_hooks';
import { startSandbox } from '../src/sandbox';
import { startSandboxWorker } from '../src/profiles/sandboxLoader';
import type { LoadQuery } from '../src/sandbox/data/load';
import { arg, quantile } from './benchArgs';

const QUERIES: LoadQuery[] = [
  { measures: ['orders.count', 'orders.total_amount'], dimensions: ['orders.status'] },
  {
    measures: ['orders.avg_amount'],
    timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }],
  },
  { measures: ['orders.total_amount'], dimensions: ['customers.country'] },
  { measures: ['orders.count'], dimensions: ['products.category'] },
  { dimensions: ['orders.id', 'orders.status', 'orders.amount'], limit: 5000 },
];

interface Running {
  dataApi: string;
  token: string;
  close(): Promise<void>;
}

async function start(mode: 'in-thread' | 'worker', rows: number): Promise<Running> {
  if (mode === 'worker') {
    const h = await startSandboxWorker({ rows });
    return { dataApi: h.urls.dataApi, token: h.tokens.dataApi, close: () => h.close() };
  }
  const h = await startSandbox({ rows });
  return { dataApi: h.urls.dataApi, token: h.tokens.dataApi, close: () => h.close() };
}

/** Lateness (ms) of every tick of a 5 ms timer while `work` runs. */
async function timerLateness(work: () => Promise<void>): Promise<number[]> {
  const period = 5;
  const late: number[] = [];
  let expected = performance.now() + period;
  const timer = setInterval(() => {
    const now = performance.now();
    late.push(Math.max(0, now - expected));
    expected = now + period;
  }, period);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return late;
}

async function round(mode: 'in-thread' | 'worker', rows: number, loads: number) {
  const sb = await start(mode, rows);
  try {
    let errors = 0;
    const t0 = performance.now();
    const late = await timerLateness(async () => {
      await Promise.all(
        Array.from({ length: loads }, async (_, i) => {
          const res = await fetch(`${sb.dataApi}/v1/load`, {
            method: 'POST',
            headers: { authorization: sb.token, 'content-type': 'application/json' },
            body: JSON.stringify({ query: QUERIES[i % QUERIES.length] }),
          });
          const text = await res.text();
          if (res.status !== 200) {
            if (!errors++) console.error(`${mode}: HTTP ${res.status} ${text.slice(0, 200)}`);
          } else JSON.parse(text);
        }),
      );
    });
    if (errors) throw new Error(`${mode}: ${errors} loads failed`);
    return { late, seconds: (performance.now() - t0) / 1000 };
  } finally {
    await sb.close();
  }
}

async function main(): Promise<void> {
  const rows = arg('rows', 20_000);
  const loads = arg('loads', 500);
  const rounds = arg('rounds', 2);
  const all = { 'in-thread': [] as number[], worker: [] as number[] };
  const secs = { 'in-thread': 0, worker: 0 };
  for (let r = 0; r < rounds; r++) {
    for (const mode of r % 2 ? (['worker', 'in-thread'] as const) : (['in-thread', 'worker'] as const)) {
      const { late, seconds } = await round(mode, rows, loads);
      all[mode].push(...late);
      secs[mode] += seconds;
    }
  }
  const fig = (m: 'in-thread' | 'worker') => ({
    max: Math.max(...all[m]),
    p99: quantile(all[m], 0.99),
    rps: (loads * rounds) / secs[m],
  });
  const a = fig('in-thread');
  const w = fig('worker');
  console.log(
    `\nextension-host timer lateness during ${loads} concurrent /v1/load (${rows.toLocaleString('en-US')} orders, ${rounds} rounds), Node ${process.version}\n`,
  );
  console.log(
    `in-thread sandbox (before): max ${a.max.toFixed(0)} ms, p99 ${a.p99.toFixed(0)} ms; ${a.rps.toFixed(0)} loads/s`,
  );
  console.log(
    `worker sandbox (now):       max ${w.max.toFixed(0)} ms, p99 ${w.p99.toFixed(0)} ms; ${w.rps.toFixed(0)} loads/s`,
  );
  console.log(
    `stall: max ${(a.max / Math.max(w.max, 1)).toFixed(1)}x less, p99 ${(a.p99 / Math.max(w.p99, 1)).toFixed(1)}x less; throughput ${(w.rps / a.rps).toFixed(2)}x`,
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
