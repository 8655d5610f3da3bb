// The notebook renderer's view in jsdom: virtualization (only rows in view are in the DOM, even at
// 100,000 rows), sorting, the "showing N of M rows" line, copy, errors and the chart spec.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { JSDOM, VirtualConsole } from 'jsdom';
import type { ResultPayload } from '../../src/shared/notebookOutput';

const root = path.resolve(__dirname, '..', '..', '..');

interface Lib {
  renderResult(
    doc: Document,
    p: ResultPayload,
    copy: (t: string) => void,
    draw?: unknown,
  ): {
    root: HTMLElement;
    table: { renderedRows(): number; sort(c: number, d?: 1 | -1): void; el: HTMLElement };
  };
  renderError(doc: Document, e: { message: string; requestId?: string }): HTMLElement;
  buildSpec(p: ResultPayload): Record<string, unknown> | undefined;
  countText(p: ResultPayload): string;
}

function load(): { lib: Lib; doc: Document } {
  const code = buildSync({
    stdin: {
      contents:
        "export { renderResult, renderError, countText } from './view'; export { buildSpec } from './chart';",
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
  Object.assign(dom.window, { structuredClone });
  dom.window.eval(code);
  return { lib: (dom.window as unknown as { R: Lib }).R, doc: dom.window.document };
}

function payload(n: number, total = n): ResultPayload {
  const rows: unknown[][] = [];
  for (let i = 0; i < n; i++)
    rows.push([
      `s${i % 7}`,
      `2024-01-${String((i % 28) + 1).padStart(2, '0')}T00:00:00.000`,
      (i * 37) % 1000,
    ]);
  return {
    version: 1,
    source: 'cubesql',
    columns: [
      { name: 'status', kind: 'string' },
      { name: 'day', kind: 'time' },
      { name: 'amount', kind: 'number', measure: true, format: 'currency' },
    ],
    rows,
    totalRows: total,
    capped: total > n,
  };
}

describe('notebook renderer', () => {
  const { lib, doc } = load();

  it('renders only the rows in view at 100,000 rows, quickly', () => {
    const t0 = Date.now();
    const v = lib.renderResult(doc, payload(100_000), () => undefined);
    doc.body.replaceChildren(v.root);
    const ms = Date.now() - t0;
    assert.ok(
      v.table.renderedRows() > 0 && v.table.renderedRows() < 60,
      `rendered ${v.table.renderedRows()}`,
    );
    assert.ok(ms < 1500, `first render took ${ms} ms`);
    const spacer = v.table.el.querySelector('.dp-scroll > div') as HTMLElement;
    assert.equal(spacer.style.height, `${100_000 * 22}px`);
  });

  it('says "showing N of M rows" when capped', () => {
    assert.match(lib.countText(payload(10, 25)), /^showing 10 of 25 rows/);
    assert.match(lib.countText(payload(3)), /^3 rows/);
    const v = lib.renderResult(doc, payload(10, 25), () => undefined);
    assert.match(v.root.querySelector('.dp-count')!.textContent!, /showing 10 of 25 rows/);
  });

  it('sorts by a column (numbers numerically) and formats cells', () => {
    const v = lib.renderResult(doc, payload(50), () => undefined);
    v.table.sort(2, -1);
    const first = v.table.el.querySelector('.dp-tr .dp-td.dp-number')!.textContent!;
    assert.match(first, /^\$9\d\d/);
    (v.table.el.querySelectorAll('.dp-th')[0] as HTMLElement).click();
    assert.equal(v.table.el.querySelector('.dp-tr .dp-td')!.textContent, 's0');
    assert.equal(v.table.el.querySelectorAll('.dp-tr .dp-time')[0]!.textContent, '2024-01-01');
  });

  it('copies a row and all rows', () => {
    const copied: string[] = [];
    const v = lib.renderResult(doc, payload(3), (t) => copied.push(t));
    (v.table.el.querySelector('.dp-rownum') as HTMLElement).click();
    const copyAll = [...v.root.querySelectorAll('button')].find((b) => b.textContent === 'Copy')!;
    copyAll.click();
    assert.equal(copied[0], 's0\t2024-01-01T00:00:00.000\t0');
    assert.equal(copied[1]!.split('\n')[0], 'status\tday\tamount');
    assert.equal(copied[1]!.split('\n').length, 4);
  });

  it('shows the server message and requestId of an error', () => {
    const el = lib.renderError(doc, { message: 'Unknown column x', requestId: 'req-1' });
    assert.match(el.textContent!, /Unknown column x[\s\S]*requestId: req-1/);
  });

  it('charts a measure by a time dimension as a line, and offers no chart without a measure', () => {
    const spec = lib.buildSpec(payload(5))!;
    assert.equal((spec.mark as { type: string }).type, 'line');
    const noMeasure = {
      ...payload(2),
      columns: [{ name: 'a', kind: 'string' as const }],
      rows: [['x'], ['y']],
    };
    assert.equal(lib.buildSpec(noMeasure), undefined);
  });
});
