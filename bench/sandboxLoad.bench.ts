// The sandbox's /v1/load for aggregate queries (the floor of every demo):
//   engine   each query's SQL as compiled now (only the tables it uses, months cut from the text)
//            on the engine as built now (covering indexes) against the SQL of before (every table
//            joined, strftime) on the engine without those indexes, alternately: queries per CPU s
//   HTTP     the same queries from 100 concurrent clients against a running sandbox (in its worker
//            thread, as the Sandbox profile runs it). The load generator runs in a process of its
//            own; the figure is requests per CPU-second of the sandbox's process (its CPU time read
//            around the timed run), with requests/s and latencies beside it. No baseline server
//            exists for the old SQL, so this figure is absolute: repeated, median and spread.
// Every figure is repeated (--reps) and printed as median (min to max), with the machine's load.
//
//   node out/bench/sandboxLoad.bench.js [--rows 20000] [--seconds 8] [--clients 100] [--reps 3]
import { fork } from 'node:child_process';
import * as http from 'node:http';
import { performance } from 'node:perf_hooks';
import { runBench } from './benchProcess';
import { startSandboxWorker } from '../src/profiles/sandboxLoader';
import { createDataEngine } from '../src/sandbox/data/engine';
import { compileLoad, type LoadQuery } from '../src/sandbox/data/load';
import { LoadMeter, arg, quantile, spread } from './benchArgs';

const QUERIES: LoadQuery[] = [
  { measures: ['orders.count', 'orders.total_amount'], dimensions: ['orders.status'] },
  {
    measures: ['orders.avg_amount'],
    timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }],
  },
  {
    measures: ['orders.count'],
    timeDimensions: [{ dimension: 'orders.created_at', granularity: 'week', dateRange: 'last 6 months' }],
    filters: [{ member: 'orders.status', operator: 'equals', values: ['completed'] }],
  },
  { measures: ['orders.total_amount'], dimensions: ['customers.country'] },
  { measures: ['orders.count'], dimensions: ['products.category'] },
];
const ALL_TABLES =
  't_orders o LEFT JOIN t_customers c ON c.id = o.customer_id LEFT JOIN t_products p ON p.id = o.product_id';

/** Indexes the engine has gained; the baseline engine drops them. */
const NEW_INDEXES = ['i_orders_status', 'i_orders_customer', 'i_orders_product'];

/** The SQL the sandbox generated before: every order joined with its customer and product, months by strftime(). */
function before(sql: string): string {
  return joinAll(sql).replace(
    /substr\(([\w.]+), 1, 7\) \|\| '-01T00:00:00\.000'/g,
    "strftime('%Y-%m-01T00:00:00.000', $1)",
  );
}

function joinAll(sql: string): string {
  return sql.replace(
    /FROM t_orders o( LEFT JOIN t_customers c ON c\.id = o\.customer_id)?( LEFT JOIN t_products p ON p\.id = o\.product_id)?/,
    `FROM ${ALL_TABLES}`,
  );
}

async function engineFigures(rows: number, ms: number): Promise<{ now: number; before: number }> {
  const engine = await createDataEngine({ rows });
  const old = await createDataEngine({ rows });
  // The engine of before: no covering indexes, a plain index on created_at, no statistics.
  for (const i of NEW_INDEXES) old.db.run(`DROP INDEX ${i}`);
  old.db.run(
    'DROP INDEX i_orders_created; CREATE INDEX i_orders_created ON t_orders (created_at); DROP TABLE sqlite_stat1;',
  );
  try {
    const compiled = QUERIES.map((q) => compileLoad(q, engine));
    const cpu = { now: 0, before: 0 };
    const runs = { now: 0, before: 0 };
    const end = performance.now() + ms;
    while (performance.now() < end) {
      for (const which of ['now', 'before'] as const) {
        const t = process.cpuUsage();
        for (const c of compiled) {
          if (which === 'now') engine.all(c.sql, c.params);
          else old.all(before(c.sql), c.params);
        }
        const u = process.cpuUsage(t);
        cpu[which] += u.user + u.system;
        runs[which] += compiled.length;
      }
    }
    return { now: runs.now / (cpu.now / 1e6), before: runs.before / (cpu.before / 1e6) };
  } finally {
    engine.db.close();
    old.db.close();
  }
}

interface HttpRun {
  requests: number;
  errors: number;
  seconds: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * The load generator (in its own process): each client has its own keep-alive connection (node's
 * http, one agent per client), opened before the clock starts: connections opened into a saturated
 * server starved for most of a run, a figure of connection set-up rather than of serving queries.
 * Says 'ready' once connected, runs on 'go', and sends its HttpRun.
 */
async function generator(dataApi: string, token: string, seconds: number, clients: number): Promise<void> {
  const url = new URL(dataApi);
  const agents = Array.from({ length: clients }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  const send = (agent: http.Agent, q: LoadQuery) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}/v1/load`,
          method: 'POST',
          headers: { authorization: token, 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ query: q }));
    });
  for (const a of agents) await send(a, QUERIES[0]!);
  await new Promise<void>((resolve) => {
    process.once('message', () => resolve());
    process.send!('ready');
  });
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  let n = 0;
  const worker = async (agent: http.Agent) => {
    while (performance.now() < end) {
      const q = QUERIES[n++ % QUERIES.length]!;
      const t = performance.now();
      if ((await send(agent, q)) !== 200) errors++;
      latencies.push(performance.now() - t);
    }
  };
  const t0 = performance.now();
  await Promise.all(agents.map(worker));
  const run: HttpRun = {
    requests: latencies.length,
    errors,
    seconds: (performance.now() - t0) / 1000,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: Math.max(...latencies),
  };
  for (const a of agents) a.destroy();
  process.send!(run);
}

/** One timed run of the generator against the sandbox in this process; the sandbox's CPU is this process's. */
function httpRun(
  dataApi: string,
  token: string,
  seconds: number,
  clients: number,
): Promise<HttpRun & { serverCpuS: number }> {
  return new Promise((resolve, reject) => {
    const cp = fork(__filename, ['--generator', dataApi, token, String(seconds), String(clients)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let cpu0: NodeJS.CpuUsage | undefined;
    let result: (HttpRun & { serverCpuS: number }) | undefined;
    cp.on('message', (m) => {
      if (m === 'ready') {
        // This process's main thread idles on the IPC while the worker serves: its CPU is the sandbox's.
        cpu0 = process.cpuUsage();
        cp.send('go');
      } else {
        const cpu = process.cpuUsage(cpu0);
        result = { ...(m as HttpRun), serverCpuS: (cpu.user + cpu.system) / 1e6 };
      }
    });
    cp.on('error', reject);
    cp.on('exit', (code) =>
      result ? resolve(result) : reject(new Error(`load generator exited with ${code}`)),
    );
  });
}

async function httpFigures(rows: number, seconds: number, clients: number, reps: number) {
  const sb = await startSandboxWorker({ rows });
  try {
    // The deployment's engine (its tables, indexes and data) is built on the first query, once;
    // the figures are of the running sandbox. That first query is reported apart.
    const w0 = performance.now();
    const res = await fetch(`${sb.urls.dataApi}/v1/load`, {
      method: 'POST',
      headers: { authorization: sb.tokens.dataApi, 'content-type': 'application/json' },
      body: JSON.stringify({ query: QUERIES[0] }),
    });
    await res.arrayBuffer();
    const firstMs = performance.now() - w0;
    const runs = [];
    for (let r = 0; r < reps; r++)
      runs.push(await httpRun(sb.urls.dataApi, sb.tokens.dataApi, seconds, clients));
    return { runs, firstMs };
  } finally {
    await sb.close();
  }
}

async function main(): Promise<void> {
  const rows = arg('rows', 20_000);
  const seconds = arg('seconds', 8);
  const clients = arg('clients', 100);
  const reps = arg('reps', 3);
  const load = new LoadMeter();
  const engine = [];
  for (let r = 0; r < reps; r++) engine.push(await engineFigures(rows, 3000));
  const h = await httpFigures(rows, seconds, clients, reps);
  console.log(
    `\nsandbox /v1/load aggregates (${QUERIES.length} queries, ${rows.toLocaleString('en-US')} orders), Node ${process.version}, ${reps} repetitions, ${load.text()}\n`,
  );
  console.log(
    `engine: ${spread(engine.map((e) => e.now))} queries per CPU-second; all tables joined, no covering indexes (before): ${spread(engine.map((e) => e.before))}; ratio ${spread(
      engine.map((e) => e.now / e.before),
      2,
      'x',
    )}`,
  );
  const errors = h.runs.reduce((a, x) => a + x.errors, 0);
  console.log(
    `HTTP, ${clients} clients (load generator in its own process) for ${seconds} s: ${spread(h.runs.map((x) => x.requests / x.serverCpuS))} requests per sandbox CPU-second; ${spread(h.runs.map((x) => x.requests / x.seconds))} req/s; p50 ${spread(h.runs.map((x) => x.p50))} ms, p99 ${spread(h.runs.map((x) => x.p99))} ms${errors ? `, ${errors} errors` : ''} (the first query, which builds the engine: ${h.firstMs.toFixed(0)} ms)`,
  );
  console.log(`\n${load.stop()}`);
  if (errors) throw new Error(`${errors} requests failed`);
}

runBench(main, {
  generator: ([url, token, seconds, clients]) => generator(url!, token!, Number(seconds), Number(clients)),
});
