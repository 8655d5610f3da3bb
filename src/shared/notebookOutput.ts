// The result payload a notebook cell output carries, shared by the extension host (which builds it)
// and the notebook renderer (which draws it). vscode-free and DOM-free.

export const RESULT_MIME = 'application/vnd.dashboard-platform.result+json';
export const ERROR_MIME = 'application/vnd.dashboard-platform.error+json';

export type ColumnKind = 'number' | 'time' | 'string' | 'boolean';

export interface ResultColumn {
  /** Member or column name (the row key). */
  name: string;
  /** Display title (from the load annotation), defaults to name. */
  title?: string;
  kind: ColumnKind;
  /** Server type string (cubesql column_type or annotation type). */
  type?: string;
  /** Format hint ('currency', 'percent', ...), when the server gave one. */
  format?: string;
  /**
   * How numbers are written: a d3-format specifier (`$,.2~f`), from the member's
   * formatDescription in /v1/meta (or its format).
   */
  specifier?: string;
  /** ISO 4217 currency of a currency format (USD when absent). */
  currency?: string;
  /** true for measures (chart y), false for dimensions. */
  measure?: boolean;
}

/**
 * A rollup (pre-aggregation) that served a result: the badge on the result says its name and how
 * old its data is. Built from a load result's `usedPreAggregations` (see `rollupsUsed` in
 * src/api/schemas/data.ts); other views (chat) can show the same data.
 */
export interface RollupBadge {
  /** `cube.rollup_name`. */
  id: string;
  /** When the rollup was built (ISO 8601), if the engine said. */
  builtAt?: string;
}

export interface ResultPayload {
  version: 1;
  source: 'cubesql' | 'load';
  columns: ResultColumn[];
  /** At most the row cap. */
  rows: unknown[][];
  /** Every row the server sent (may exceed rows.length when capped). */
  totalRows: number;
  /** The server is still streaming. */
  partial?: boolean;
  capped?: boolean;
  elapsedMs?: number;
  requestId?: string;
  /** The view to open with (cell metadata `view`), default table. */
  view?: 'table' | 'chart';
  /** The chart the user chose for this cell (cell metadata `chart`). */
  chart?: ChartChoice;
  /** Names this output when the renderer saves a chart choice back to the cell. */
  outputKey?: string;
  /** The rollups that served the result (load results only). */
  rollups?: RollupBadge[];
  /** When the data was last refreshed (the result's lastRefreshTime). */
  lastRefreshTime?: string;
}

/** "orders.orders_by_status · built 5 min ago" for a badge, against `now` (ms). */
export function rollupBadgeText(r: RollupBadge, now: number): string {
  return r.builtAt ? `${r.id} · built ${ageText(now - Date.parse(r.builtAt))}` : r.id;
}

/** A duration as people say it: "just now", "3 min ago", "2 h ago", "4 days ago". */
export function ageText(ms: number): string {
  if (!Number.isFinite(ms) || ms < 60_000) return 'just now';
  const min = Math.floor(ms / 60_000);
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.floor(h / 24)} days ago`;
}

export const CHART_TYPES = ['line', 'bar', 'area', 'point'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

/** The user's chart choice for a result, saved in the cell's metadata as `chart`. */
export interface ChartChoice {
  type: ChartType;
  /** Column name on the x axis. */
  x: string;
  /** Column names plotted on y (one series each). */
  y: string[];
  /** A column whose values split the data into series (coloured), if any. */
  series?: string;
}

export interface ErrorPayload {
  message: string;
  requestId?: string;
  kind?: string;
  status?: number;
}

/** Maps a cubesql column_type or annotation type to a column kind. */
export function columnKind(type: string | undefined): ColumnKind {
  const t = (type ?? '').toLowerCase();
  if (/^(number|int|integer|bigint|double|float|decimal|numeric|real|count|sum|avg|min|max)/.test(t)) {
    return 'number';
  }
  if (/time|date/.test(t)) return 'time';
  if (/bool/.test(t)) return 'boolean';
  return 'string';
}

/** CSV text of the given columns and rows (RFC 4180 quoting). */
export function toCsv(columns: readonly ResultColumn[], rows: readonly unknown[][]): string {
  const lines = [columns.map((c) => csvCell(c.name)).join(',')];
  for (const r of rows) lines.push(r.map(csvCell).join(','));
  return lines.join('\r\n') + '\r\n';
}

export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Rows as objects keyed by column name (the plain application/json output). */
export function toObjects(
  columns: readonly ResultColumn[],
  rows: readonly unknown[][],
): Record<string, unknown>[] {
  return rows.map((r) => Object.fromEntries(columns.map((c, i) => [c.name, r[i]])));
}
