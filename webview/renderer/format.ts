// Cell formatting and sorting for the results table. DOM-free. Numbers follow the member's format
// (the d3 specifier of its formatDescription: "$,.2~f", ".2~%", ",.2~f"), with the same number of
// decimals down a whole column: a "~" (trim) specifier drops the decimals no value of the column
// needs, instead of trimming each value on its own (which made 1,234.5 sit above 1,234.56).
import type { ResultColumn } from '../../src/shared/notebookOutput';

/** What a d3-format specifier says, as far as tables need it. */
export interface NumberSpec {
  currency: boolean;
  group: boolean;
  /** Decimals (or significant digits for "s"). */
  precision?: number;
  trim: boolean;
  type: string;
  /** Negative numbers in parentheses (accounting). */
  paren: boolean;
}

const SPEC = /^(?:.?[<>=^])?([+\-( ])?([$#])?0?(\d+)?(,)?(?:\.(\d+))?(~)?([a-z%])?$/i;

/** Parses a d3-format specifier (fill, align and width are read and ignored); undefined if it is not one. */
export function parseSpecifier(spec: string | undefined): NumberSpec | undefined {
  const m = spec === undefined ? null : SPEC.exec(spec);
  if (!m) return undefined;
  return {
    paren: m[1] === '(',
    currency: m[2] === '$',
    group: m[4] === ',',
    ...(m[5] !== undefined ? { precision: Number(m[5]) } : {}),
    trim: m[6] === '~',
    type: m[7] ?? '',
  };
}

/** The engine's default specifiers of its named formats. */
const NAMED: Record<string, string> = { currency: '$,.2~f', percent: '.2~%', number: ',.2~f' };

/** The specifier a column's numbers are written with. */
export function specifierOf(col: ResultColumn): string {
  return col.specifier ?? NAMED[col.format ?? ''] ?? NAMED.number!;
}

/** Decimals a value needs at most `max` decimals (trailing zeros dropped). */
function decimalsNeeded(n: number, max: number): number {
  const text = Math.abs(n).toFixed(max);
  const frac = text.split('.')[1] ?? '';
  return frac.replace(/0+$/, '').length;
}

/** A formatter of numbers by a specifier, with `decimals` fixed (from the column). */
function numberText(spec: NumberSpec, decimals: number, currency: string | undefined): (n: number) => string {
  const percent = spec.type === '%';
  let fmt: Intl.NumberFormat;
  if (spec.type === 's') {
    fmt = new Intl.NumberFormat(undefined, {
      notation: 'compact',
      maximumSignificantDigits: Math.max(1, spec.precision ?? 3),
      ...(spec.currency ? { style: 'currency', currency: currency ?? 'USD' } : {}),
    });
  } else if (spec.type === 'e') {
    return (n) => n.toExponential(decimals);
  } else {
    fmt = new Intl.NumberFormat(undefined, {
      ...(spec.currency ? { style: 'currency', currency: currency ?? 'USD' } : {}),
      useGrouping: spec.group,
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
  }
  return (n) => {
    const v = percent ? n * 100 : n;
    const text = fmt.format(spec.paren && v < 0 ? -v : v) + (percent ? '%' : '');
    return spec.paren && v < 0 ? `(${text})` : text;
  };
}

const toNumber = (v: unknown): number | undefined => {
  if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : undefined;
};

/**
 * The formatter of one column's cells. Numbers: by the column's specifier, every value of the
 * column with the same decimals (the most any value needs, within the specifier's precision, when
 * it trims). Times: the date, with the time when it is not midnight.
 */
export function columnFormatter(col: ResultColumn, values: readonly unknown[]): (v: unknown) => string {
  if (col.kind !== 'number') return (v) => formatCell(v, col);
  const spec = parseSpecifier(specifierOf(col)) ?? parseSpecifier(NAMED.number)!;
  let decimals = spec.type === 'd' ? 0 : (spec.precision ?? 6);
  if (spec.trim && spec.type !== 's' && spec.type !== 'e') {
    const scale = spec.type === '%' ? 100 : 1;
    let need = 0;
    for (const v of values) {
      const n = toNumber(v);
      if (n !== undefined) need = Math.max(need, decimalsNeeded(n * scale, decimals));
      if (need === decimals) break;
    }
    decimals = need;
  }
  const text = numberText(spec, decimals, col.currency);
  return (v) => {
    if (v === null || v === undefined) return '∅';
    const n = toNumber(v);
    return n === undefined ? String(v) : text(n);
  };
}

/** One cell on its own (no column context: its own decimals). */
export function formatCell(v: unknown, col: ResultColumn): string {
  if (v === null || v === undefined) return '∅';
  if (col.kind === 'number') {
    if (typeof v === 'string' && v.trim() === '') return v;
    const n = toNumber(v);
    if (n === undefined) return String(v);
    return columnFormatter(col, [n])(n);
  }
  if (col.kind === 'time' && typeof v === 'string') {
    // 2024-01-01T00:00:00.000 -> 2024-01-01 (midnight) or 2024-01-01 12:30:00
    const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(\.\d+)?Z?$/.exec(v);
    if (m) return m[2] === '00:00:00' ? m[1]! : `${m[1]} ${m[2]}`;
    return v;
  }
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** Row order (indices) sorted by column `c`; nulls last; numbers numerically. */
export function sortedOrder(rows: readonly unknown[][], c: number, dir: 1 | -1, numeric: boolean): number[] {
  const order = rows.map((_, i) => i);
  const key = (v: unknown) => (numeric ? (v === null || v === undefined || v === '' ? NaN : Number(v)) : v);
  const keys = rows.map((r) => key(r[c]));
  order.sort((a, b) => {
    const x = keys[a];
    const y = keys[b];
    const xn = x === null || x === undefined || (typeof x === 'number' && Number.isNaN(x));
    const yn = y === null || y === undefined || (typeof y === 'number' && Number.isNaN(y));
    if (xn || yn) return xn === yn ? a - b : xn ? 1 : -1;
    if (numeric) return ((x as number) - (y as number)) * dir || a - b;
    return String(x).localeCompare(String(y)) * dir || a - b;
  });
  return order;
}

/** Tab-separated text of rows (for the clipboard). */
export function rowsToTsv(cols: readonly ResultColumn[], rows: readonly unknown[][], header = true): string {
  const cell = (v: unknown) =>
    (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)).replace(
      /[\t\r\n]/g,
      ' ',
    );
  const lines = rows.map((r) => r.map(cell).join('\t'));
  if (header) lines.unshift(cols.map((c) => c.name).join('\t'));
  return lines.join('\n');
}
