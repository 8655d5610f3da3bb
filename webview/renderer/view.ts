// Builds the output view of one result: toolbar (Table/Chart, Copy), "showing N of M rows", table.
import {
  rollupBadgeText,
  type ChartChoice,
  type ErrorPayload,
  type ResultPayload,
} from '../../src/shared/notebookOutput';
import { defaultChoice, validChoice } from '../../src/shared/chartChoice';
import { createChooser } from './chooser';
import { rowsToTsv } from './format';
import { createTable, type TableHandle } from './table';
import { el } from './dom';

export const STYLE = `
.dp-root{font-family:var(--vscode-font-family);font-size:var(--vscode-font-size,13px);color:var(--vscode-foreground)}
.dp-bar{display:flex;gap:8px;align-items:center;margin:4px 0}
.dp-bar button{background:var(--vscode-button-secondaryBackground);color:var(--vscode-button-secondaryForeground);border:none;padding:2px 8px;cursor:pointer}
.dp-bar button[aria-pressed=true]{background:var(--vscode-button-background);color:var(--vscode-button-foreground)}
.dp-count{opacity:.8;margin-left:auto}
.dp-head{font-weight:600;border-bottom:1px solid var(--vscode-panel-border,#8884)}
.dp-head>div,.dp-tr>div{padding:2px 6px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.dp-th{cursor:pointer}.dp-th[data-sort=asc]::after{content:' ▲'}.dp-th[data-sort=desc]::after{content:' ▼'}
.dp-number{text-align:right;font-variant-numeric:tabular-nums}
.dp-rownum{opacity:.6;cursor:copy;text-align:right}
.dp-tr:nth-child(even){background:var(--vscode-list-hoverBackground,#8881)}
.dp-selected{outline:1px solid var(--vscode-focusBorder)}
.dp-error{color:var(--vscode-errorForeground);white-space:pre-wrap}
.dp-chart{width:100%;min-height:270px}
.dp-chooser{display:flex;flex-wrap:wrap;gap:4px 12px;align-items:center;margin:4px 0}
.dp-chooser select{background:var(--vscode-dropdown-background);color:var(--vscode-dropdown-foreground);border:1px solid var(--vscode-dropdown-border,transparent)}
.dp-ys label{margin-right:8px;white-space:nowrap}
.dp-rollup{background:var(--vscode-badge-background);color:var(--vscode-badge-foreground);border-radius:9px;padding:1px 8px;font-size:11px;white-space:nowrap}
`;

export interface ResultView {
  root: HTMLElement;
  table: TableHandle;
  showChart(): Promise<void>;
  /** Draws the chart again (after a theme change) if it has been drawn. */
  redraw(): Promise<void>;
  /** Applies a saved chart choice (from the cell's metadata). */
  setChoice(choice: ChartChoice): Promise<void>;
  choice(): ChartChoice | undefined;
}

export function countText(p: ResultPayload): string {
  const n = p.rows.length;
  const m = p.totalRows;
  const f = (x: number) => x.toLocaleString('en-US');
  const base = n === m ? `${f(m)} row${m === 1 ? '' : 's'}` : `showing ${f(n)} of ${f(m)} rows`;
  return `${base}${p.partial ? ' (streaming…)' : ''}${p.elapsedMs !== undefined ? ` · ${(p.elapsedMs / 1000).toFixed(2)} s` : ''}`;
}

export function renderResult(
  doc: Document,
  p: ResultPayload,
  copy: (t: string) => void,
  drawChart?: (el: HTMLElement, p: ResultPayload, choice: ChartChoice) => Promise<void>,
  onChoice?: (choice: ChartChoice) => void,
): ResultView {
  const root = el(doc, 'div', 'dp-root');
  const bar = el(doc, 'div', 'dp-bar');
  const tableBtn = el(doc, 'button', undefined, 'Table');
  tableBtn.setAttribute('aria-pressed', 'true');
  const chartBtn = el(doc, 'button', undefined, 'Chart');
  chartBtn.setAttribute('aria-pressed', 'false');
  let choice = validChoice(p.chart, p.columns) ?? defaultChoice(p.columns);
  const canChart = !!choice && !!drawChart;
  chartBtn.disabled = !canChart;
  chartBtn.title = canChart
    ? 'Chart the measures by the time or category dimension (choose type, x, y and series)'
    : 'A chart needs a time or category column and a measure';
  const copyBtn = el(doc, 'button', undefined, 'Copy');
  copyBtn.title = 'Copy all shown rows (tab-separated, with header)';
  copyBtn.addEventListener('click', () => copy(rowsToTsv(p.columns, p.rows)));
  const count = el(doc, 'span', 'dp-count');
  count.textContent = countText(p);
  bar.append(tableBtn, chartBtn, copyBtn);
  // Served from a rollup: say which, and how old its data is.
  for (const r of p.rollups ?? []) {
    const badge = el(doc, 'span', 'dp-rollup');
    badge.setAttribute('role', 'status');
    badge.textContent = `Rollup ${rollupBadgeText(r, Date.now())}`;
    badge.title =
      `Answered from the pre-aggregation ${r.id}` +
      (r.builtAt ? `, built ${new Date(r.builtAt).toLocaleString()}` : '') +
      '. Its data is as fresh as its last build.';
    bar.append(badge);
  }
  bar.append(count);
  const table = createTable(doc, p, copy);
  const chartEl = el(doc, 'div', 'dp-chart');
  const chartPane = el(doc, 'div', 'dp-chart-pane');
  chartPane.style.display = 'none';
  let drawn = false;
  const draw = async () => {
    if (!choice || !drawChart) return;
    drawn = true;
    await drawChart(chartEl, p, choice);
  };
  const chooser = choice
    ? createChooser(doc, p.columns, choice, (next) => {
        choice = next;
        onChoice?.(next);
        void draw();
      })
    : undefined;
  if (chooser) chartPane.append(chooser.el);
  chartPane.append(chartEl);
  const showTable = () => {
    table.el.style.display = '';
    chartPane.style.display = 'none';
    tableBtn.setAttribute('aria-pressed', 'true');
    chartBtn.setAttribute('aria-pressed', 'false');
    table.renderWindow();
  };
  const showChart = async () => {
    if (!canChart) return;
    table.el.style.display = 'none';
    chartPane.style.display = '';
    tableBtn.setAttribute('aria-pressed', 'false');
    chartBtn.setAttribute('aria-pressed', 'true');
    if (!drawn) await draw();
  };
  tableBtn.addEventListener('click', showTable);
  chartBtn.addEventListener('click', () => void showChart());
  root.append(bar, table.el, chartPane);
  return {
    root,
    table,
    showChart,
    redraw: () => (drawn ? draw() : Promise.resolve()),
    setChoice: async (next) => {
      const valid = validChoice(next, p.columns);
      if (!valid || JSON.stringify(valid) === JSON.stringify(choice)) return;
      choice = valid;
      chooser?.set(valid);
      if (drawn) await draw();
    },
    choice: () => choice,
  };
}

export function renderError(doc: Document, e: ErrorPayload): HTMLElement {
  const text = `${e.status ? `Error ${e.status}: ` : 'Error: '}${e.message}${e.requestId ? `\nrequestId: ${e.requestId}` : ''}`;
  return el(doc, 'div', 'dp-root dp-error', text);
}
