// The user's chart choice for a notebook result (type, x, measures, series), saved in the cell's
// metadata as `chart` and sent with the result payload. Shared by the controller and the renderer.
import { CHART_TYPES, type ChartChoice, type ChartType, type ResultColumn } from './notebookOutput';

export { CHART_TYPES, type ChartChoice, type ChartType };

/** A saved choice if it is well-formed and fits these columns; otherwise undefined. */
export function validChoice(v: unknown, columns: readonly ResultColumn[]): ChartChoice | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const c = v as Record<string, unknown>;
  const names = new Set(columns.map((col) => col.name));
  const numeric = new Set(columns.filter((col) => col.kind === 'number').map((col) => col.name));
  if (!CHART_TYPES.includes(c.type as ChartType)) return undefined;
  if (typeof c.x !== 'string' || !names.has(c.x)) return undefined;
  if (!Array.isArray(c.y)) return undefined;
  const y = c.y.filter((n): n is string => typeof n === 'string' && numeric.has(n) && n !== c.x);
  if (y.length === 0) return undefined;
  const series =
    typeof c.series === 'string' && names.has(c.series) && c.series !== c.x ? c.series : undefined;
  return { type: c.type as ChartType, x: c.x, y, ...(series ? { series } : {}) };
}

/** The chart a result opens with: every measure by the time (else category) dimension. */
export function defaultChoice(columns: readonly ResultColumn[]): ChartChoice | undefined {
  const time = columns.find((c) => c.kind === 'time');
  const x = time ?? columns.find((c) => c.kind === 'string');
  if (!x) return undefined;
  const numbers = columns.filter((c) => c.kind === 'number' && c.name !== x.name);
  const measures = numbers.filter((c) => c.measure !== false);
  const y = (measures.length > 0 ? measures : numbers).map((c) => c.name);
  if (y.length === 0) return undefined;
  return { type: time ? 'line' : 'bar', x: x.name, y };
}
