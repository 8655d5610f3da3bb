// Chart view: Vega-Lite through vega-embed, expressions evaluated by vega-interpreter (ast: true), so
// the notebook webview needs no 'unsafe-eval'. Data loading is disabled: the rows are ours.
import { embedChart } from '../shared/vegaEmbed';
import type { ResultPayload } from '../../src/shared/notebookOutput';
import { chartSpec } from './format';

export function buildSpec(p: ResultPayload, fg = '#888'): Record<string, unknown> | undefined {
  const s = chartSpec(p.columns);
  if (!s) return undefined;
  const xi = p.columns.indexOf(s.x);
  const yi = p.columns.indexOf(s.y);
  const values = p.rows
    .slice(0, 5000)
    .map((r) => ({ x: r[xi], y: typeof r[yi] === 'string' ? Number(r[yi]) : r[yi] }));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    data: { values },
    mark: { type: s.mark, tooltip: true, point: s.mark === 'line' },
    encoding: {
      x: {
        field: 'x',
        type: s.x.kind === 'time' ? 'temporal' : 'nominal',
        title: s.x.title ?? s.x.name,
        sort: s.x.kind === 'time' ? undefined : '-y',
      },
      y: { field: 'y', type: 'quantitative', title: s.y.title ?? s.y.name },
    },
    width: 'container',
    height: 260,
    background: 'transparent',
    config: {
      axis: { labelColor: fg, titleColor: fg, domainColor: fg, tickColor: fg },
      view: { stroke: 'transparent' },
    },
  };
}

export function drawChart(el: HTMLElement, spec: Record<string, unknown>): Promise<void> {
  return embedChart(el, spec);
}
