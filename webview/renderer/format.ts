// Cell formatting and sorting for the results table. DOM-free.
import type { ResultColumn } from '../../src/shared/notebookOutput';

const numberFmt = new Intl.NumberFormat(undefined, { maximumFractionDigits: 4 });
const currencyFmt = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });
const percentFmt = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 });

export function formatCell(v: unknown, col: ResultColumn): string {
  if (v === null || v === undefined) return '∅';
  if (col.kind === 'number') {
    const n = typeof v === 'number' ? v : Number(v);
    if (typeof v === 'string' && v.trim() === '') return v;
    if (!Number.isFinite(n)) return String(v);
    if (col.format === 'currency') return currencyFmt.format(n);
    if (col.format === 'percent') return percentFmt.format(n > 1 ? n / 100 : n);
    return numberFmt.format(n);
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
