// Draws a tool result's Vega-Lite spec with the result's rows. The spec arrives without data (it is
// paired with the SQL result here).
import { embedChart } from '../shared/vegaEmbed';

export function parseSpec(spec: unknown): Record<string, unknown> | undefined {
  let value = spec;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Turns schema + positional rows into the objects Vega-Lite wants; numeric strings become numbers. */
export function rowsToValues(columns: string[], rows: unknown[][]): Record<string, unknown>[] {
  return rows.map((row) => {
    const out: Record<string, unknown> = {};
    columns.forEach((name, i) => {
      const v = row[i];
      out[name] = typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
    });
    return out;
  });
}

export async function drawChart(
  el: HTMLElement,
  spec: Record<string, unknown>,
  values: Record<string, unknown>[],
): Promise<void> {
  // Never let a spec load remote data: the rows are ours, and the webview has no network anyway.
  const { data: _ignored, ...rest } = spec;
  // SVG presentation attributes cannot use var(): resolve the theme's colour now.
  const fg = getComputedStyle(document.body).getPropertyValue('--vscode-foreground').trim() || '#888';
  const full = {
    ...rest,
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    data: { values },
    width: 'container',
    background: 'transparent',
    config: {
      ...(typeof rest.config === 'object' && rest.config ? (rest.config as object) : {}),
      axis: { labelColor: fg, titleColor: fg, domainColor: fg, tickColor: fg },
      legend: { labelColor: fg, titleColor: fg },
      title: { color: fg },
      view: { stroke: 'transparent' },
    },
  };
  await embedChart(el, full);
}
