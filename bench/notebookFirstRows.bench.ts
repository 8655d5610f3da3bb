// A 1,000,000-row cubesql result from the sandbox to a rendered first screen of rows, two ways in
// the same run:
//   streamed  — the controller's path: CubeSqlAccumulator (row cap) + output payload built from the
//               first batch, serialized as the output item would be, and the renderer's first screen
//               drawn in jsdom; the rest of the stream is then counted under the cap (parseRows);
//   whole body — every row collected first, then one payload of all rows, then the first screen.
// Prints time to first rows, total time and peak heap for each, and the ratios.
// Run: npx tsc -p tsconfig.json && node --expose-gc out/bench/notebookFirstRows.bench.js [--rows N]
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildSync } from 'esbuild';
import { JSDOM, VirtualConsole } from 'jsdom';
import { DataClient } from '../src/api/dataClient';
import { startSandbox } from '../src/sandbox';
import { CubeSqlAccumulator } from '../src/notebook/results';
import type { ResultPayload } from '../src/shared/notebookOutput';

const root = path.resolve(__dirname, '..', '..');
const ROWS = (() => {
  const i = process.argv.indexOf('--rows');
  return i >= 0 ? Number(process.argv[i + 1]) : 1_000_000;
})();
const CAP = 10_000;
const SQL = 'SELECT id, status, created_at, amount FROM orders';

type Render = (p: ResultPayload) => number;

function renderer(): Render {
  const code = buildSync({
    stdin: {
      contents: "export { renderResult } from './view';",
      resolveDir: path.join(root, 'webview', 'renderer'),
      loader: 'ts',
    },
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    globalName: 'R',
    target: 'es2022',
    logLevel: 'silent',
  }).outputFiles[0]!.text;
  const dom = new JSDOM('<!doctype html><body></body>', {
    runScripts: 'outside-only',
    pretendToBeVisual: true,
    virtualConsole: new VirtualConsole(),
  });
  dom.window.eval(code);
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

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

interface Figures {
  firstRowsMs: number;
  totalMs: number;
  peakHeapMb: number;
  rendered: number;
  rows: number;
}

async function streamed(client: DataClient, render: Render): Promise<Figures> {
  gc();
  const base = process.memoryUsage().heapUsed;
  const peak = new Peak();
  const t0 = performance.now();
  const acc = new CubeSqlAccumulator(CAP);
  let first = -1;
  let rendered = 0;
  for await (const chunk of client.cubesql(SQL, { parseRows: CAP })) {
    acc.add(chunk);
    peak.sample();
    if (first < 0 && acc.rows.length > 0) {
      rendered = render(acc.payload(true, performance.now() - t0));
      first = performance.now() - t0;
    }
  }
  render(acc.payload(false, performance.now() - t0));
  const totalMs = performance.now() - t0;
  return { firstRowsMs: first, totalMs, peakHeapMb: (peak.stop() - base) / 1e6, rendered, rows: acc.total };
}

async function wholeBody(client: DataClient, render: Render): Promise<Figures> {
  gc();
  const base = process.memoryUsage().heapUsed;
  const peak = new Peak();
  const t0 = performance.now();
  const acc = new CubeSqlAccumulator(Number.MAX_SAFE_INTEGER);
  for await (const chunk of client.cubesql(SQL)) {
    acc.add(chunk);
    peak.sample();
  }
  const rendered = render(acc.payload(false, performance.now() - t0));
  const first = performance.now() - t0;
  return {
    firstRowsMs: first,
    totalMs: first,
    peakHeapMb: (peak.stop() - base) / 1e6,
    rendered,
    rows: acc.total,
  };
}

async function main(): Promise<void> {
  const tStart = performance.now();
  const sandbox = await startSandbox({ rows: ROWS });
  console.log(
    `sandbox with ${ROWS.toLocaleString('en-US')} orders ready in ${((performance.now() - tStart) / 1000).toFixed(1)} s`,
  );
  const client = new DataClient({
    baseUrl: sandbox.urls.dataApi,
    token: async () => sandbox.tokens.dataApi,
    cacheKey: '1',
  });
  const render = renderer();
  try {
    const s = await streamed(client, render);
    const w = await wholeBody(client, render);
    const fmt = (f: Figures) =>
      `first rows ${f.firstRowsMs.toFixed(0)} ms, all ${f.rows.toLocaleString('en-US')} rows ${f.totalMs.toFixed(0)} ms, peak heap +${f.peakHeapMb.toFixed(0)} MB, ${f.rendered} row elements`;
    console.log(`streamed (cap ${CAP.toLocaleString('en-US')}): ${fmt(s)}`);
    console.log(`whole body:             ${fmt(w)}`);
    console.log(
      `ratios (whole body / streamed): time to first rows ×${(w.firstRowsMs / s.firstRowsMs).toFixed(1)}, peak heap ×${(w.peakHeapMb / Math.max(1, s.peakHeapMb)).toFixed(1)}`,
    );
    if (s.rows !== ROWS || w.rows !== ROWS)
      throw new Error(`expected ${ROWS} rows, got ${s.rows} / ${w.rows}`);
  } finally {
    await sandbox.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
