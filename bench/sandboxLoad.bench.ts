// The sandbox's /v1/load for aggregate queries (the floor of every demo):
//   engine   each query's SQL as compiled now (only the tables it uses, months cut from the text)
//            on the engine as built now (covering indexes) against the SQL of before (every table
//            joined, strftime) on the engine without those indexes, alternately: queries per CPU s
//   HTTP     the same queries from 100 concurrent clients against a running sandbox (in its worker
//            thread, as the Sandbox profile runs it): requests/s
//            and p99 latency (no baseline server exists for the old SQL, so this one is absolute)
//
//   node out/bench/sandboxLoad.bench.js [--rows 20000] [--seconds 8] [--clients 100]
import * as http from 'node:http';
import { performance } from 'node:perf_hooks';
import { startSandboxWorker } from '../src/profiles/sandboxLoader';
import { createDataEngine } from '../src/sandbox/data/engine';
import { compileLoad, type LoadQuery } from '../src/sandbox/data/load';
import { arg, quantile } from './benchArgs';

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

async function engineFigures(rows: number): Promise<{ now: number; before: number }> {
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
    const end = performance.now() + 4000;
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

async function httpFigures(rows: number, seconds: number, clients: number) {
  // The sandbox in its worker thread, as the Sandbox profile runs it. Each client has its own
  // keep-alive connection (node's http, one agent per client), opened before the clock starts: when
  // 100 connections were opened while the server was already saturated, some of their first
  // requests waited for most of the run (p99 near the run's length, against a trivial node server
  // too, and through one shared pool whatever the pool), a figure of connection set-up under
  // saturation rather than of serving queries.
  const sb = await startSandboxWorker({ rows });
  const url = new URL(sb.urls.dataApi);
  const agents = Array.from({ length: clients }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  const latencies: number[] = [];
  let errors = 0;
  const send = (agent: http.Agent, q: LoadQuery) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}/v1/load`,
          method: 'POST',
          headers: { authorization: sb.tokens.dataApi, 'content-type': 'application/json' },
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
  try {
    // One query first: the deployment's engine (its tables, indexes and data) is built on the first
    // query, once; the figures are of the running sandbox. That first query is reported apart.
    const w0 = performance.now();
    await send(agents[0]!, QUERIES[0]!);
    const firstMs = performance.now() - w0;
    for (const a of agents.slice(1)) await send(a, QUERIES[0]!);
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
    const elapsed = (performance.now() - t0) / 1000;
    return {
      rps: latencies.length / elapsed,
      p50: quantile(latencies, 0.5),
      p99: quantile(latencies, 0.99),
      max: Math.max(...latencies),
      firstMs,
      errors,
    };
  } finally {
    for (const a of agents) a.destroy();
    await sb.close();
  }
}

async function main(): Promise<void> {
  const rows = arg('rows', 20_000);
  const seconds = arg('seconds', 8);
  const clients = arg('clients', 100);
  const e = await engineFigures(rows);
  const h = await httpFigures(rows, seconds, clients);
  console.log(
    `\nsandbox /v1/load aggregates (${QUERIES.length} queries, ${rows.toLocaleString('en-US')} orders), Node ${process.version}\n`,
  );
  console.log(
    `engine: ${e.now.toFixed(0)} queries per CPU second; all tables joined (before): ${e.before.toFixed(0)}: ${(e.now / e.before).toFixed(2)}x`,
  );
  console.log(
    `HTTP, ${clients} clients for ${seconds} s: ${h.rps.toFixed(0)} req/s, p50 ${h.p50.toFixed(0)} ms, p99 ${h.p99.toFixed(0)} ms, max ${h.max.toFixed(0)} ms${h.errors ? `, ${h.errors} errors` : ''} (the first query, which builds the engine: ${h.firstMs.toFixed(0)} ms)`,
  );
  if (h.errors) throw new Error(`${h.errors} requests failed`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
