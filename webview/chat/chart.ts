// Draws a tool result's Vega-Lite spec with the result's rows. The spec arrives without data (it is
// paired with the SQL result here).
import { chartColours, onThemeChange, vegaThemeConfig } from '../shared/chartTheme';
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

const drawn = new Map<HTMLElement, { spec: Record<string, unknown>; values: Record<string, unknown>[] }>();
let watching = false;

export async function drawChart(
  el: HTMLElement,
  spec: Record<string, unknown>,
  values: Record<string, unknown>[],
): Promise<void> {
  drawn.set(el, { spec, values });
  if (!watching) {
    watching = true;
    // The theme's colours are resolved when drawing: draw every chart on the page again on a switch.
    onThemeChange(document, () => {
      for (const [chart, d] of drawn) {
        if (!chart.isConnected) drawn.delete(chart);
        else void embedChart(chart, themed(d.spec, d.values)).catch(() => undefined);
      }
    });
  }
  await embedChart(el, themed(spec, values));
}

/** The agent's spec with our rows, the container width and the theme's colours. */
export function themed(
  spec: Record<string, unknown>,
  values: Record<string, unknown>[],
): Record<string, unknown> {
  // Never let a spec load remote data: the rows are ours, and the webview has no network anyway.
  const { data: _ignored, ...rest } = spec;
  const theme = vegaThemeConfig(chartColours(document));
  const own = typeof rest.config === 'object' && rest.config ? (rest.config as Record<string, unknown>) : {};
  return {
    ...rest,
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    data: { values },
    width: 'container',
    background: 'transparent',
    // The theme wins for colours of text and lines; the agent's other settings stay.
    config: {
      ...own,
      ...theme,
      axis: { ...(own.axis as object), ...(theme.axis as object) },
      // Category labels at an angle, never vertical.
      axisBand: { labelAngle: -40, labelLimit: 140, ...(own.axisBand as object) },
    },
  };
}
