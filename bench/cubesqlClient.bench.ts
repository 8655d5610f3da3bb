// The cubesql client on replayed bytes. A 1,000,000-row answer is captured from the sandbox once;
// a loopback server then replays it, so each reader below is timed on the same bytes with a server
// that costs next to nothing:
//   bare            whole body, then JSON.parse per line (the floor a streaming client aims at)
//   client          DataClient.cubesql, every row parsed (incremental NDJSON, one batch in memory)
//   official        @cubejs-client/core cubeSql (whole body)
//   officialStream  @cubejs-client/core cubeSqlStream (row by row)
//   cell            a notebook cell: the controller's accumulator, 10,000 rows kept, the rest counted
//                   (parseRows); baseline `cellParseAll`: the same with every row parsed (before)
// Each measurement runs in its own child process (peak RSS and live heap are the reader's alone),
// modes alternate, and the median of the repetitions is reported as a ratio to its baseline.
//
//   node --expose-gc out/bench/cubesqlClient.bench.js [--rows 1000000] [--reps 3]
import { fork } from 'node:child_process';
import cubejs from '@cubejs-client/core';
import { request } from 'undici';
import { DataClient } from '../src/api/dataClient';
import { startSandbox } from '../src/sandbox';
import { CubeSqlAccumulator } from '../src/notebook/results';
import { arg } from './benchArgs';
import { captureCubesql, median, prefixRows, startReplay } from './replay';

const MODES = ['bare', 'client', 'official', 'officialStream', 'cell', 'cellParseAll'] as const;
type Mode = (typeof MODES)[number];
const SQL = 'SELECT * FROM orders';
const CAP = 10_000;
const MB = 1024 * 1024;

interface Result {
  mode: Mode;
  rows: number;
  ms: number;
  cpuMs: number;
  peakRssMb: number;
  /** Peak heap right after a forced GC while reading: what the reader keeps alive. */
  liveHeapMb: number;
}

let peakRss = 0;
let liveHeap = 0;
function sample(withGc = false): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (withGc && gc) {
    gc();
    liveHeap = Math.max(liveHeap, process.memoryUsage().heapUsed);
  }
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}

async function bare(url: string): Promise<number> {
  const res = await request(`${url}/v1/cubesql`, {
    method: 'POST',
    headers: { authorization: 'replay', 'content-type': 'application/json' },
    body: JSON.stringify({ query: SQL }),
  });
  const text = await res.body.text();
  sample(true);
  let rows = 0;
  let i = 0;
  for (const line of text.split('\n')) {
    if (!line) continue;
    const v = JSON.parse(line) as { data?: unknown[]; error?: string };
    if (v.data) rows += v.data.length;
    else if (v.error) throw new Error(v.error);
    if (++i % 200 === 0) sample(i % 1000 === 0);
  }
  return rows;
}

async function client(url: string, mode: Mode): Promise<number> {
  const c = new DataClient({ baseUrl: url, token: async () => 'replay' });
  let rows = 0;
  let batches = 0;
  if (mode === 'client') {
    for await (const chunk of c.cubesql(SQL)) {
      if (chunk.type !== 'rows') continue;
      rows += chunk.rows.length;
      if (++batches % 200 === 0) sample(batches % 1000 === 0);
    }
  } else {
    const acc = new CubeSqlAccumulator(CAP);
    const chunks = mode === 'cell' ? c.cubesql(SQL, { parseRows: CAP }) : c.cubesql(SQL);
    for await (const chunk of chunks) {
      acc.add(chunk);
      if (++batches % 200 === 0) sample(batches % 1000 === 0);
    }
    rows = acc.total;
    if (acc.rows.length !== Math.min(CAP, acc.total)) throw new Error('the cell kept the wrong rows');
  }
  await c.close();
  return rows;
}

async function official(url: string, stream: boolean): Promise<number> {
  const api = cubejs('replay', { apiUrl: `${url}/v1` });
  if (!stream) {
    const r = await api.cubeSql(SQL);
    sample(true);
    return r.data.length;
  }
  let rows = 0;
  for await (const chunk of api.cubeSqlStream(SQL)) {
    if (chunk.type === 'data') {
      // One chunk per NDJSON line: a batch of rows (typed as one row).
      const data = chunk.data as unknown[];
      rows += Array.isArray(data[0]) ? data.length : 1;
      if (rows % 200_000 < data.length) sample(true);
    } else if (chunk.type === 'error') throw new Error(chunk.error);
  }
  return rows;
}

async function child(mode: Mode, url: string): Promise<void> {
  sample(true);
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const rows =
    mode === 'bare'
      ? await bare(url)
      : mode === 'official' || mode === 'officialStream'
        ? await official(url, mode === 'officialStream')
        : await client(url, mode);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  sample();
  const result: Result = {
    mode,
    rows,
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRssMb: peakRss / MB,
    liveHeapMb: liveHeap / MB,
  };
  process.send?.(result);
}

function measure(mode: Mode, url: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const cp = fork(__filename, ['--child', mode, url], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: ['--expose-gc'],
    });
    let result: Result | undefined;
    cp.on('message', (m) => (result = m as Result));
    cp.on('error', reject);
    cp.on('exit', (code) => (result ? resolve(result) : reject(new Error(`${mode} exited with ${code}`))));
  });
}

const fmt = (n: number, d = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

async function main(): Promise<void> {
  const total = arg('rows', 1_000_000);
  const reps = arg('reps', 3);
  const sandbox = await startSandbox({ rows: total });
  let body: Buffer;
  try {
    body = await captureCubesql(sandbox.urls.dataApi, sandbox.tokens.dataApi, SQL);
  } finally {
    await sandbox.close();
  }
  const small = prefixRows(body, Math.round(total / 4));
  const replay = await startReplay(body);
  const results: Result[] = [];
  try {
    for (let r = 0; r < reps; r++) {
      // Alternate the order so that drifting load hits every mode alike.
      const order = r % 2 ? [...MODES].reverse() : [...MODES];
      for (const mode of order) results.push(await measure(mode, replay.url));
    }
    replay.serve(small.body);
    const smallRuns = [await measure('client', replay.url), await measure('bare', replay.url)];
    const med = (mode: Mode, key: keyof Result) =>
      median(results.filter((x) => x.mode === mode).map((x) => x[key] as number));
    console.log(
      `\ncubesql client on replayed bytes (${SQL}: ${fmt(body.length / MB, 1)} MB, ${fmt(total)} rows), Node ${process.version}, median of ${reps}\n`,
    );
    console.log('| reader         |    rows/s |  CPU ms | peak RSS MB | live heap MB |');
    console.log('|----------------|-----------|---------|-------------|--------------|');
    for (const mode of MODES) {
      const rows = results.find((x) => x.mode === mode)!.rows;
      console.log(
        `| ${mode.padEnd(14)} | ${fmt(rows / (med(mode, 'ms') / 1000)).padStart(9)} | ${fmt(med(mode, 'cpuMs')).padStart(7)} | ${fmt(med(mode, 'peakRssMb'), 1).padStart(11)} | ${fmt(med(mode, 'liveHeapMb'), 1).padStart(12)} |`,
      );
    }
    const rate = (mode: Mode) => results.find((x) => x.mode === mode)!.rows / med(mode, 'ms');
    console.log('');
    console.log(`client rows/s vs bare JSON.parse per line: ${(rate('client') / rate('bare')).toFixed(2)}x`);
    console.log(`client rows/s vs official cubeSql: ${(rate('client') / rate('official')).toFixed(2)}x`);
    console.log(
      `client rows/s vs official cubeSqlStream: ${(rate('client') / rate('officialStream')).toFixed(2)}x`,
    );
    console.log(
      `capped notebook cell (keep ${fmt(CAP)}, count the rest): CPU ${(med('cellParseAll', 'cpuMs') / med('cell', 'cpuMs')).toFixed(2)}x less than parsing every row`,
    );
    const [c250, b250] = smallRuns;
    console.log(
      `client live heap ${fmt(c250!.rows)} -> ${fmt(total)} rows: ${fmt(c250!.liveHeapMb, 1)} -> ${fmt(med('client', 'liveHeapMb'), 1)} MB (x${(med('client', 'liveHeapMb') / c250!.liveHeapMb).toFixed(2)}); ` +
        `bare: ${fmt(b250!.liveHeapMb, 1)} -> ${fmt(med('bare', 'liveHeapMb'), 1)} MB (x${(med('bare', 'liveHeapMb') / b250!.liveHeapMb).toFixed(2)})`,
    );
    for (const r of results)
      if (r.rows !== total) throw new Error(`${r.mode} read ${r.rows} rows, not ${total}`);
  } finally {
    await replay.close();
  }
}

if (process.argv[2] === '--child') {
  child(process.argv[3] as Mode, process.argv[4]!).then(
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
