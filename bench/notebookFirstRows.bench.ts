// A 1,000,000-row cubesql answer to the notebook's first rendered screen of rows, two ways that keep
// the same data: the controller's row cap (10,000 rows kept, the rest counted by the byte scan), the
// same accumulator, the same output payload serialized as the output item is, and the renderer's
// table drawn in jsdom. They differ only in when the rows are drawn:
//   streamed   the controller's path: the first screen drawn from the first batch, the rest of the
//              answer then read and the final output drawn
//   loadAll    (baseline) the whole answer read first with the same cap and the same retained rows,
//              then the one output drawn
// The answer's bytes are captured from the sandbox once and served by a replay server in a process
// of its own; each run is a fresh process; the two are alternated over the repetitions, and every
// figure is a median with its spread (ratios within a repetition).
//
//   node --expose-gc out/bench/notebookFirstRows.bench.js [--rows 1000000] [--reps 5] [--body file]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DataClient } from '../src/api/dataClient';
import { CubeSqlAccumulator } from '../src/notebook/results';
import type { ResultPayload } from '../src/shared/notebookOutput';
import { jsdomWindow, webviewBundle } from '../test/unit/webviewBundle';
import { LoadMeter, arg, fmt, median, rotation, spread } from './benchArgs';
import { capturedAnswer, measureInChild, runBench } from './benchProcess';
import { startReplayProcess } from './replay';

const root = path.resolve(__dirname, '..', '..');
const CAP = 10_000;
const SQL = 'SELECT id, status, created_at, amount FROM orders';
const MODES = ['streamed', 'loadAll'] as const;
type Mode = (typeof MODES)[number];

interface Result {
  mode: Mode;
  rows: number;
  firstRowsMs: number;
  totalMs: number;
  cpuMs: number;
  /** Heap growth at its peak over the heap before the query. */
  peakHeapMb: number;
  rendered: number;
}

type Render = (p: ResultPayload) => number;

/** The notebook renderer (webview/renderer) as one script for jsdom. */
function rendererScript(): string {
  return webviewBundle(
    {
      stdin: {
        contents: "export { renderResult } from './view';",
        resolveDir: path.join(root, 'webview', 'renderer'),
        loader: 'ts',
      },
    },
    'R',
  );
}

function renderer(script: string): Render {
  const dom = jsdomWindow('outside-only');
  dom.window.eval(script);
  const R = (
    dom.window as unknown as {
      R: {
        renderResult(
          d: Document,
          p: ResultPayload,
          c: (t: string) => void,
        ): { root: HTMLElement; table: { renderedRows(): number } };
      };
    }
  ).R;
  return (p) => {
    // What reaches the renderer is the serialized output item.
    const received = JSON.parse(JSON.stringify(p)) as ResultPayload;
    const v = R.renderResult(dom.window.document, received, () => undefined);
    dom.window.document.body.replaceChildren(v.root);
    return v.table.renderedRows();
  };
}

class Peak {
  peak = 0;
  private timer: NodeJS.Timeout;
  constructor() {
    this.sample();
    this.timer = setInterval(() => this.sample(), 5);
  }
  sample(): void {
    const h = process.memoryUsage().heapUsed;
    if (h > this.peak) this.peak = h;
  }
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return this.peak;
  }
}

async function child(mode: Mode, url: string, scriptFile: string): Promise<Result> {
  const render = renderer(fs.readFileSync(scriptFile, 'utf8'));
  const client = new DataClient({ baseUrl: url, token: async () => 'replay' });
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage().heapUsed;
  const peak = new Peak();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const acc = new CubeSqlAccumulator(CAP);
  let first = -1;
  let rendered = 0;
  for await (const chunk of client.cubesql(SQL, { parseRows: CAP })) {
    acc.add(chunk);
    peak.sample();
    if (mode === 'streamed' && first < 0 && acc.rows.length > 0) {
      rendered = render(acc.payload(true, performance.now() - t0));
      first = performance.now() - t0;
    }
  }
  const last = render(acc.payload(false, performance.now() - t0));
  const totalMs = performance.now() - t0;
  if (first < 0) {
    first = totalMs;
    rendered = last;
  }
  const cpu = process.cpuUsage(cpu0);
  const peakHeap = peak.stop();
  await client.close();
  if (acc.rows.length !== Math.min(CAP, acc.total)) throw new Error(`${mode} kept ${acc.rows.length} rows`);
  return {
    mode,
    rows: acc.total,
    firstRowsMs: first,
    totalMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakHeapMb: (peakHeap - base) / 1e6,
    rendered,
  };
}

async function main(): Promise<void> {
  const rows = arg('rows', 1_000_000);
  const reps = arg('reps', 5);
  const load = new LoadMeter();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-bench-first-rows-'));
  const bodyFile = path.join(dir, 'answer.ndjson');
  const scriptFile = path.join(dir, 'renderer.js');
  fs.writeFileSync(bodyFile, await capturedAnswer(rows, SQL));
  fs.writeFileSync(scriptFile, rendererScript());
  const replay = await startReplayProcess(bodyFile);
  const results: Result[] = [];
  try {
    for (let r = 0; r < reps; r++)
      for (const mode of rotation(MODES, r))
        results.push(await measureInChild<Result>(__filename, mode, [replay.url, scriptFile]));
  } finally {
    await replay.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  for (const x of results) if (x.rows !== rows) throw new Error(`${x.mode} read ${x.rows} rows, not ${rows}`);
  const of = (m: Mode): Result[] => results.filter((x) => x.mode === m);
  const [s, w] = [of('streamed'), of('loadAll')];
  console.log(
    `\nnotebook cell, ${fmt(rows)} rows (${SQL}) from a replay server in its own process, cap ${fmt(CAP)} rows kept, ${reps} repetitions alternated, Node ${process.version}, ${load.text()}\n`,
  );
  console.log(
    '| mode      | first rows ms, median (min to max) | all rows ms                 | CPU ms                      | peak heap MB | row elements |',
  );
  console.log(
    '|-----------|-------------------------------------|-----------------------------|-----------------------------|--------------|--------------|',
  );
  for (const [name, xs] of [
    ['streamed', s],
    ['loadAll', w],
  ] as const)
    console.log(
      `| ${name.padEnd(9)} | ${spread(xs.map((x) => x.firstRowsMs)).padEnd(35)} | ${spread(xs.map((x) => x.totalMs)).padEnd(27)} | ${spread(xs.map((x) => x.cpuMs)).padEnd(27)} | ${fmt(median(xs.map((x) => x.peakHeapMb)), 1).padStart(12)} | ${String(median(xs.map((x) => x.rendered))).padStart(12)} |`,
    );
  console.log(
    `\nfirst rows, streamed vs loadAll (the whole answer read with the same cap and rows kept, then drawn): ${spread(
      s.map((x, i) => w[i]!.firstRowsMs / x.firstRowsMs),
      1,
      'x',
    )} sooner`,
  );
  console.log(
    `all rows, streamed vs loadAll: ${spread(
      s.map((x, i) => w[i]!.totalMs / x.totalMs),
      2,
      'x',
    )} (the cost of drawing the first screen early)`,
  );
  console.log(`\n${load.stop()}`);
}

runBench(main, {
  child: async ([mode, url, script]) => process.send?.(await child(mode as Mode, url!, script!)),
});
