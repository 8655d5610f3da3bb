// How long the extension host's event loop stalls while the Sandbox profile serves loads (issue 20,
// defect 7). A 5 ms timer in the host records how late each tick fires while 500 /v1/load queries run
// at once (aggregates and a 5,000-row listing) from the host's own HTTP client, with the sandbox
//   in-thread  started in the host's thread (how the profile ran it before: the baseline)
//   worker     started in a worker thread, as the profile does now (src/profiles/sandboxLoader.ts)
// and prints the timer's max and p99 lateness for both and their ratio. Runs alternate so the
// machine's load hits both alike; each round's figures are kept and printed as median (min to max)
// over the rounds, the ratios pair by pair, with the machine's load.
//
//   node out/bench/sandboxStall.bench.js [--rows 20000] [--loads 500] [--rounds 5]
// (20,000 orders is the Sandbox profile's default.)
import { performance } from 'node:perf_hooks';
import { startSandbox } from '../src/sandbox';
import { startSandboxWorker } from '../src/profiles/sandboxLoader';
import type { LoadQuery } from '../src/sandbox/data/load';
import { LoadMeter, arg, quantile, spread } from './benchArgs';

const QUERIES: LoadQuery[] = [
  { measures: ['orders.count', 'orders.total_amount'], dimensions: ['orders.status'] },
  {
    measures: ['orders.avg_amount'],
    timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }],
  },
  { measures: ['orders.total_amount'], dimensions: ['customers.country'] },
  { measures: ['orders.count'], dimensions: ['products.category'] },
  { dimensions: ['orders.created_at', 'orders.status', 'orders.amount'], limit: 5000 },
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

type Mode = 'in-thread' | 'worker';
interface RoundFigures {
  max: number;
  p99: number;
  rps: number;
}

async function main(): Promise<void> {
  const rows = arg('rows', 20_000);
  const loads = arg('loads', 500);
  const rounds = arg('rounds', 5);
  const load = new LoadMeter();
  const got: Record<Mode, RoundFigures[]> = { 'in-thread': [], worker: [] };
  for (let r = 0; r < rounds; r++) {
    for (const mode of r % 2 ? (['worker', 'in-thread'] as const) : (['in-thread', 'worker'] as const)) {
      const { late, seconds } = await round(mode, rows, loads);
      got[mode].push({ max: Math.max(...late), p99: quantile(late, 0.99), rps: loads / seconds });
    }
  }
  const of = (m: Mode, k: keyof RoundFigures) => got[m].map((f) => f[k]);
  /** The ratio of each round's pair (in-thread over worker, or worker over in-thread for throughput). */
  const pairs = (k: keyof RoundFigures, invert = false) =>
    got.worker.map((w, i) => {
      const a = got['in-thread'][i]![k];
      return invert ? w[k] / a : a / Math.max(w[k], 1);
    });
  console.log(
    `\nextension-host timer lateness during ${loads} concurrent /v1/load (${rows.toLocaleString('en-US')} orders, ${rounds} rounds alternated), Node ${process.version}, ${load.stop()}\n`,
  );
  for (const [m, label] of [
    ['in-thread', 'in-thread sandbox (before)'],
    ['worker', 'worker sandbox (now)      '],
  ] as const)
    console.log(
      `${label}: max ${spread(of(m, 'max'), 0, ' ms')}, p99 ${spread(of(m, 'p99'), 0, ' ms')}; ${spread(of(m, 'rps'), 0, ' loads/s')}`,
    );
  console.log(
    `stall, per round: max ${spread(pairs('max'), 1, 'x')} less, p99 ${spread(pairs('p99'), 1, 'x')} less; throughput ${spread(pairs('rps', true), 2, 'x')}`,
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
