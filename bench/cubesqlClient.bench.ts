// The cubesql client on replayed bytes. A 1,000,000-row answer is captured from the sandbox once
// (3,000,000 rows: its data lines three times); a replay server in a process of its own then serves
// those bytes to every reader, and each reader runs in a fresh process of its own:
//   limit           JSON.parse per line of the same bytes already in memory (no network, nothing
//                   kept): the most any reader of this format can do on this machine
//   client          DataClient.cubesql, every row parsed and handed over as it arrives
//   reader          the client's NDJSON reader (ndjsonLines) over the same bytes in memory, in the
//                   64 KiB pieces the replay server writes: the client without the network, which
//                   shows how much of the gap to the limit is the socket and HTTP, not the parse
//   official        @cubejs-client/core cubeSql() over the same replay server (whole body)
//   officialStream  @cubejs-client/core cubeSqlStream() over the same replay server (row by row)
//   cell            a notebook cell: the controller's accumulator, 10,000 rows kept, the rest counted
//                   (parseRows); baseline `cellParseAll`: the same with every row parsed
// Modes are alternated (rotated each repetition) and every figure is a median with its spread over
// the repetitions; ratios are taken within a repetition. Rows/s is by wall time; rows per CPU-second
// is by the reader process's own CPU, the steadier figure on a shared machine.
//
//   node --expose-gc out/bench/cubesqlClient.bench.js [--rows 1000000] [--reps 3] [--body file]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import cubejs from '@cubejs-client/core';
import { DataClient } from '../src/api/dataClient';
import { ndjsonLines } from '../src/api/ndjson';
import { CubeSqlAccumulator } from '../src/notebook/results';
import { LoadMeter, arg, fmt, median, rotation, spread } from './benchArgs';
import { capturedAnswer, measureInChild, runBench } from './benchProcess';
import { repeatRows, startReplayProcess } from './replay';

const MODES = ['limit', 'reader', 'client', 'official', 'officialStream', 'cell', 'cellParseAll'] as const;
type Mode = (typeof MODES)[number];
const SQL = 'SELECT * FROM orders';
const CAP = 10_000;
const MB = 1024 * 1024;

interface Result {
  mode: Mode;
  rows: number;
  ms: number;
  cpuMs: number;
  /** Of cpuMs, the part in the kernel (for a network reader: mostly copying from the socket). */
  sysMs: number;
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

/** JSON.parse per line of bytes already in memory; the rows are dropped as the client's consumer drops them. */
function limit(body: Buffer): number {
  let rows = 0;
  let lines = 0;
  for (let start = 0; start < body.length;) {
    let nl = body.indexOf(0x0a, start);
    if (nl < 0) nl = body.length;
    if (nl > start) {
      const v = JSON.parse(body.toString('utf8', start, nl)) as { data?: unknown[]; error?: string };
      if (v.data) rows += v.data.length;
      else if (v.error) throw new Error(v.error);
      if (++lines % 200 === 0) sample(lines % 1000 === 0);
    }
    start = nl + 1;
  }
  return rows;
}

/** The client's NDJSON reader over bytes in memory, fed in the replay server's write size. */
async function reader(body: Buffer): Promise<number> {
  async function* pieces(): AsyncGenerator<Uint8Array> {
    for (let off = 0; off < body.length; off += 64 * 1024) yield body.subarray(off, off + 64 * 1024);
  }
  let rows = 0;
  let lines = 0;
  for await (const { value } of ndjsonLines(pieces())) {
    const v = value as { data?: unknown[] };
    if (v.data) rows += v.data.length;
    if (++lines % 200 === 0) sample(lines % 1000 === 0);
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

async function child(mode: Mode, url: string, bodyFile: string): Promise<void> {
  // The limit's bytes are read before the clock starts: it measures parsing alone.
  const body = mode === 'limit' || mode === 'reader' ? fs.readFileSync(bodyFile) : undefined;
  sample(true);
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const rows =
    mode === 'limit'
      ? limit(body!)
      : mode === 'reader'
        ? await reader(body!)
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
    sysMs: cpu.system / 1000,
    peakRssMb: peakRss / MB,
    liveHeapMb: liveHeap / MB,
  };
  process.send?.(result);
}

async function main(): Promise<void> {
  const total = arg('rows', 1_000_000);
  const reps = arg('reps', 3);
  const load = new LoadMeter();
  const captured = await capturedAnswer(total, SQL);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-bench-cubesql-'));
  const sizes = [
    { times: 1, file: path.join(dir, '1x.ndjson') },
    { times: 3, file: path.join(dir, '3x.ndjson') },
  ];
  fs.writeFileSync(sizes[0]!.file, captured);
  fs.writeFileSync(sizes[1]!.file, repeatRows(captured, 3));
  const replay = await startReplayProcess(sizes[0]!.file);
  const bySize: Result[][] = [];
  try {
    for (const size of sizes) {
      await replay.serveFile(size.file);
      const results: Result[] = [];
      // The capped cell is timed on the first size only.
      const modes = size.times === 1 ? MODES : MODES.filter((m) => !m.startsWith('cell'));
      for (let r = 0; r < reps; r++)
        for (const mode of rotation(modes, r))
          results.push(await measureInChild<Result>(__filename, mode, [replay.url, size.file]));
      const expected = total * size.times;
      for (const x of results)
        if (x.rows !== expected) throw new Error(`${x.mode} read ${x.rows} rows, not ${expected}`);
      bySize.push(results);
      report(results, fs.statSync(size.file).size, expected, reps, modes, load);
    }
    const heap = (i: number, mode: Mode): number =>
      median(bySize[i]!.filter((x) => x.mode === mode).map((x) => x.liveHeapMb));
    console.log('\nmemory, live heap (median) from 1x to 3x the rows:');
    for (const mode of ['client', 'officialStream', 'official'] as const)
      console.log(
        `  ${mode.padEnd(14)} ${fmt(heap(0, mode), 1)} -> ${fmt(heap(1, mode), 1)} MB (x${(heap(1, mode) / heap(0, mode)).toFixed(2)})`,
      );
  } finally {
    await replay.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\n${load.stop()}`);
}

function report(
  results: Result[],
  bytes: number,
  rows: number,
  reps: number,
  modes: readonly Mode[],
  load: LoadMeter,
): void {
  const of = (mode: Mode): Result[] => results.filter((x) => x.mode === mode);
  console.log(
    `\ncubesql on replayed bytes: ${fmt(bytes / MB, 1)} MB, ${fmt(rows)} rows (${SQL}), Node ${process.version}, ${reps} repetitions, ${load.text()}\n`,
  );
  console.log(
    '| reader         | rows/s (wall), median (min to max)  | rows per CPU-second        | peak RSS MB | live heap MB |',
  );
  console.log(
    '|----------------|-------------------------------------|----------------------------|-------------|--------------|',
  );
  for (const mode of modes) {
    const xs = of(mode);
    console.log(
      `| ${mode.padEnd(14)} | ${spread(xs.map((x) => rows / (x.ms / 1000))).padEnd(35)} | ${spread(xs.map((x) => rows / (x.cpuMs / 1000))).padEnd(26)} | ${fmt(median(xs.map((x) => x.peakRssMb)), 1).padStart(11)} | ${fmt(median(xs.map((x) => x.liveHeapMb)), 1).padStart(12)} |`,
    );
  }
  // Ratios within each repetition (the i-th run of each mode), then their median and spread.
  const ratio = (a: Mode, b: Mode, key: 'ms' | 'cpuMs'): string =>
    spread(
      of(a).map((x, i) => of(b)[i]![key] / x[key]),
      2,
      'x',
    );
  console.log('');
  console.log(
    `client vs the limit (JSON.parse per line in memory): wall ${ratio('client', 'limit', 'ms')}; CPU ${ratio('client', 'limit', 'cpuMs')}`,
  );
  console.log(
    `reader (the client's NDJSON reader, bytes in memory) vs the limit: CPU ${ratio('reader', 'limit', 'cpuMs')}; client vs reader (what the socket and HTTP cost): CPU ${ratio('client', 'reader', 'cpuMs')}`,
  );
  const sys = (mode: Mode): number => median(of(mode).map((x) => x.sysMs));
  console.log(
    `kernel CPU (median): client ${fmt(sys('client'))} ms, reader ${fmt(sys('reader'))} ms, limit ${fmt(sys('limit'))} ms`,
  );
  console.log(
    `client vs official cubeSql(): wall ${ratio('client', 'official', 'ms')}; CPU ${ratio('client', 'official', 'cpuMs')}`,
  );
  console.log(
    `client vs official cubeSqlStream(): wall ${ratio('client', 'officialStream', 'ms')}; CPU ${ratio('client', 'officialStream', 'cpuMs')}`,
  );
  if (modes.includes('cell'))
    console.log(
      `capped notebook cell (keep ${fmt(CAP)}, count the rest) vs parsing every row: CPU ${ratio('cell', 'cellParseAll', 'cpuMs')} less`,
    );
}

runBench(main, { child: ([mode, url, body]) => child(mode as Mode, url!, body!) });
