// Chart view: Vega-Lite through vega-embed, expressions evaluated by vega-interpreter (ast: true), so
// the notebook webview needs no 'unsafe-eval'. Data loading is disabled: the rows are ours. Every
// chosen measure is a series; time axes get ticks at the data's own granularity (monthly data:
// one tick per month or quarter, labelled with the year); category labels are never vertical.
import { embedChart } from '../shared/vegaEmbed';
import { vegaThemeConfig, type ChartColours } from '../shared/chartTheme';
import type { ResultPayload } from '../../src/shared/notebookOutput';
import { defaultChoice, validChoice, type ChartChoice } from '../../src/shared/chartChoice';

export type Granularity = 'year' | 'quarter' | 'month' | 'week' | 'day' | 'hour' | 'minute';

const DAY = 86_400_000;

/** The time granularity of a column's values: the smallest gap between distinct instants. */
export function granularityOf(values: readonly unknown[], name = ''): Granularity {
  const named = /\.(year|quarter|month|week|day|hour|minute)$/i.exec(name)?.[1]?.toLowerCase();
  if (named) return named as Granularity;
  const times = [
    ...new Set(
      values.map((v) => (typeof v === 'string' || typeof v === 'number' ? Date.parse(String(v)) : NaN)),
    ),
  ]
    .filter((t) => Number.isFinite(t))
    .sort((a, b) => a - b);
  let gap = Infinity;
  for (let i = 1; i < times.length; i++) gap = Math.min(gap, times[i]! - times[i - 1]!);
  if (!Number.isFinite(gap)) return 'day';
  if (gap >= 360 * DAY) return 'year';
  if (gap >= 85 * DAY) return 'quarter';
  if (gap >= 27 * DAY) return 'month';
  if (gap >= 6.5 * DAY) return 'week';
  if (gap >= 0.9 * DAY) return 'day';
  if (gap >= 3_600_000 * 0.9) return 'hour';
  return 'minute';
}

/** Axis settings for a time axis of `count` distinct points at a granularity. */
export function timeAxis(g: Granularity, count: number, maxTicks = 12): Record<string, unknown> {
  const steps: Record<Granularity, { interval: string; base: number; format: string; options: number[] }> = {
    year: { interval: 'year', base: 1, format: '%Y', options: [1, 2, 5, 10] },
    quarter: { interval: 'month', base: 3, format: '%b %Y', options: [1, 2, 4] },
    month: { interval: 'month', base: 1, format: '%b %Y', options: [1, 2, 3, 6, 12] },
    week: { interval: 'week', base: 1, format: '%d %b %Y', options: [1, 2, 4, 13] },
    day: { interval: 'day', base: 1, format: '%d %b', options: [1, 2, 7, 14] },
    hour: { interval: 'hour', base: 1, format: '%H:%M', options: [1, 2, 3, 6, 12] },
    minute: { interval: 'minute', base: 1, format: '%H:%M', options: [1, 5, 15, 30] },
  };
  const s = steps[g];
  const step = s.options.find((k) => Math.ceil(count / k) <= maxTicks) ?? s.options[s.options.length - 1]!;
  return {
    format: s.format,
    tickCount: { interval: s.interval, step: s.base * step },
    labelAngle: 0,
    labelOverlap: true,
    grid: true,
  };
}

/** Category labels: flat when they fit, else at an angle (never vertical), long ones cut. */
function categoryAxis(labels: string[], width: number): Record<string, unknown> {
  const longest = labels.reduce((m, l) => Math.max(m, l.length), 0);
  const fits = labels.length * Math.min(longest, 20) * 7 < width;
  return { labelAngle: fits ? 0 : -40, labelLimit: 140, labelOverlap: false };
}

const KEY = (i: number) => `c${i}`;

/** The axis label format of a measure's format hint (d3-format, compact): $250k, 12%, 1.2k. */
export function numberFormat(format: string | undefined): string | undefined {
  if (format === 'currency') return '$~s';
  if (format === 'percent') return '.0%';
  return undefined;
}

/** A measure's axis title: its title, with its unit when the annotation gives one. */
export function measureTitle(title: string, format: string | undefined): string {
  return `${title}${format === 'currency' ? ' ($)' : format === 'percent' ? ' (%)' : ''}`;
}

/**
 * Measures in two groups by magnitude: those within 10x of the largest, and the rest. One shared
 * axis would draw the small ones as a flat line at 0 (order counts beside revenue).
 */
export function magnitudeGroups(maxima: number[]): [number[], number[]] {
  const top = Math.max(0, ...maxima.map((m) => Math.abs(m)));
  const big: number[] = [];
  const small: number[] = [];
  maxima.forEach((m, k) => (top > 0 && Math.abs(m) * 10 < top ? small : big).push(k));
  return [big, small];
}

export function buildSpec(
  p: ResultPayload,
  colours?: ChartColours,
  choice?: ChartChoice,
  width = 600,
): Record<string, unknown> | undefined {
  const c =
    (choice && validChoice(choice, p.columns)) ?? validChoice(p.chart, p.columns) ?? defaultChoice(p.columns);
  if (!c) return undefined;
  const idx = (name: string) => p.columns.findIndex((col) => col.name === name);
  const xi = idx(c.x);
  const xcol = p.columns[xi]!;
  const si = c.series ? idx(c.series) : -1;
  const title = (name: string) => p.columns[idx(name)]?.title ?? name;
  const num = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v);
  const rows = p.rows.slice(0, 5000);
  const values = rows.map((r) => {
    const o: Record<string, unknown> = { x: r[xi] };
    if (si >= 0) o.s = r[si] === null || r[si] === undefined ? '∅' : String(r[si]);
    c.y.forEach((name, k) => (o[KEY(k)] = num(r[idx(name)])));
    return o;
  });
  const temporal = xcol.kind === 'time';
  const many = c.y.length > 1;
  const formatOf = (name: string) => p.columns[idx(name)]?.format;
  /** The y axis of some measures: titled by them, labels formatted by their shared format. */
  const yAxisOf = (ks: number[], orient?: 'left' | 'right') => {
    const formats = [...new Set(ks.map((k) => formatOf(c.y[k]!)))];
    const format = formats.length === 1 ? formats[0] : undefined;
    const label = numberFormat(format);
    return {
      title:
        ks.length === 1
          ? measureTitle(title(c.y[ks[0]!]!), format)
          : measureTitle(ks.map((k) => title(c.y[k]!)).join(' · '), format),
      axis: { ...(label ? { format: label } : {}), ...(orient ? { orient } : {}) },
    };
  };
  const grain = temporal
    ? granularityOf(
        rows.map((r) => r[xi]),
        xcol.name,
      )
    : undefined;
  const xAxis = grain
    ? timeAxis(grain, new Set(rows.map((r) => r[xi])).size)
    : categoryAxis([...new Set(rows.map((r) => String(r[xi])))], width);
  // Bars over time are as wide as their period (a month's bar fills its month).
  const BAR_UNITS: Record<Granularity, string> = {
    year: 'year',
    quarter: 'yearquarter',
    month: 'yearmonth',
    week: 'yearweek',
    day: 'yearmonthdate',
    hour: 'yearmonthdatehours',
    minute: 'yearmonthdatehoursminutes',
  };
  const timeUnit = grain && c.type === 'bar' ? { timeUnit: BAR_UNITS[grain], bandPosition: 0 } : {};
  const measureNames = c.y.map(title);
  const transform: Record<string, unknown>[] = [];
  let yField = KEY(0);
  let colour: Record<string, unknown> | undefined;
  if (many) {
    // One series per measure (folded into long form), named by the measure's title.
    transform.push({ fold: c.y.map((_, k) => KEY(k)), as: ['m', 'v'] });
    transform.push({
      calculate: `[${measureNames.map((n) => JSON.stringify(n)).join(',')}][indexof([${c.y.map((_, k) => JSON.stringify(KEY(k))).join(',')}], datum.m)]`,
      as: 'measure',
    });
    yField = 'v';
    if (si >= 0) transform.push({ calculate: "datum.s + ' · ' + datum.measure", as: 'series' });
    colour = { field: si >= 0 ? 'series' : 'measure', type: 'nominal', title: si >= 0 ? null : 'Measure' };
  } else if (si >= 0) {
    colour = { field: 's', type: 'nominal', title: title(c.series!) };
  }
  const stacked = c.type === 'bar' || c.type === 'area';
  const xEnc = {
    field: 'x',
    type: temporal ? 'temporal' : 'nominal',
    title: title(c.x),
    axis: xAxis,
    ...timeUnit,
    ...(temporal ? {} : { sort: many || si >= 0 ? null : '-y' }),
  };
  const frame = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    data: { values },
    width: 'container',
    height: 260,
    ...(colours ? { config: vegaThemeConfig(colours) } : { background: 'transparent' }),
  };
  // Measures of different magnitudes: the small ones get their own scale on a right-hand axis.
  const maxima = c.y.map((_, k) =>
    values.reduce(
      (m, v) => Math.max(m, Math.abs(typeof v[KEY(k)] === 'number' ? (v[KEY(k)] as number) : 0)),
      0,
    ),
  );
  const [left, right] = magnitudeGroups(maxima);
  if (many && si < 0 && right.length > 0) {
    const layer = (ks: number[], orient: 'left' | 'right', type: string) => ({
      transform: [
        { fold: ks.map(KEY), as: ['m', 'v'] },
        {
          calculate: `[${ks.map((k) => JSON.stringify(measureNames[k])).join(',')}][indexof([${ks.map((k) => JSON.stringify(KEY(k))).join(',')}], datum.m)]`,
          as: 'measure',
        },
      ],
      mark: { type, tooltip: true, ...(type === 'line' ? { point: rows.length <= 60 } : {}) },
      encoding: {
        x: xEnc,
        y: { field: 'v', type: 'quantitative', ...yAxisOf(ks, orient), stack: null },
        color: { field: 'measure', type: 'nominal', title: 'Measure' },
        ...(type === 'bar' && !temporal ? { xOffset: { field: 'measure', type: 'nominal' } } : {}),
      },
    });
    return {
      ...frame,
      // The chosen type on the left; the right-hand measures as lines, so bars never hide them.
      layer: [layer(left, 'left', c.type), layer(right, 'right', c.type === 'bar' ? 'line' : c.type)],
      resolve: { scale: { y: 'independent' } },
    };
  }
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    data: { values },
    ...(transform.length ? { transform } : {}),
    mark: { type: c.type, tooltip: true, ...(c.type === 'line' ? { point: rows.length <= 60 } : {}) },
    encoding: {
      x: xEnc,
      y: {
        field: yField,
        type: 'quantitative',
        ...yAxisOf(c.y.map((_, k) => k)),
        // Grouped bars beside each other by category; stacked bars over time and stacked areas.
        ...(colour && stacked && (temporal || c.type === 'area') ? {} : { stack: null }),
      },
      ...(colour ? { color: colour } : {}),
      ...(c.type === 'bar' && colour && !temporal
        ? { xOffset: { field: colour.field, type: 'nominal' } }
        : {}),
    },
    width: 'container',
    height: 260,
    ...(colours ? { config: vegaThemeConfig(colours) } : { background: 'transparent' }),
  };
}

export function drawChart(el: HTMLElement, spec: Record<string, unknown>): Promise<void> {
  return embedChart(el, spec);
}
