// Date ranges (pairs or relative strings like "last quarter", from the sandbox's fixed "today") and
// time truncation to a granularity, formatted like the live service (no "Z").
import type { Granularity } from './model';
import { UserError } from './userError';

const pad = (n: number) => String(n).padStart(2, '0');
const day = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);

/** A dateRange (pair or relative string) as [from, to] inclusive timestamps. */
export function dateRange(range: string | [string, string], today: Date): [string, string] {
  if (Array.isArray(range)) {
    if (range.length !== 2 || range.some((x) => typeof x !== 'string' || Number.isNaN(Date.parse(x)))) {
      throw new UserError(
        'dateRange must be two dates like ["2025-01-01", "2025-03-31"] or a relative string like "last quarter".',
      );
    }
    const [a, b] = range;
    return [
      a.length === 10 ? `${a}T00:00:00.000` : a.replace('Z', ''),
      b.length === 10 ? `${b}T23:59:59.999` : b.replace('Z', ''),
    ];
  }
  const s = range.trim().toLowerCase();
  const y = today.getUTCFullYear();
  const mo = today.getUTCMonth();
  const span = (from: Date, toExclusive: Date): [string, string] => [
    `${day(from)}T00:00:00.000`,
    `${day(addDays(toExclusive, -1))}T23:59:59.999`,
  ];
  const monthStart = (yy: number, mm: number) => new Date(Date.UTC(yy, mm, 1));
  const qStart = Math.floor(mo / 3) * 3;
  const weekStart = addDays(today, -((today.getUTCDay() + 6) % 7));
  const relative = /^(last|next) (\d+) (day|week|month|year)s?$/.exec(s);
  if (relative) {
    const n = Number(relative[2]);
    const unit = relative[3];
    if (relative[1] === 'last') {
      const from =
        unit === 'day'
          ? addDays(today, -n)
          : unit === 'week'
            ? addDays(today, -7 * n)
            : unit === 'month'
              ? monthStart(y, mo - n)
              : new Date(Date.UTC(y - n, mo, today.getUTCDate()));
      return span(from, today);
    }
  }
  switch (s) {
    case 'today':
      return span(today, addDays(today, 1));
    case 'yesterday':
      return span(addDays(today, -1), today);
    case 'this week':
      return span(weekStart, addDays(weekStart, 7));
    case 'last week':
      return span(addDays(weekStart, -7), weekStart);
    case 'this month':
      return span(monthStart(y, mo), monthStart(y, mo + 1));
    case 'last month':
      return span(monthStart(y, mo - 1), monthStart(y, mo));
    case 'this quarter':
      return span(monthStart(y, qStart), monthStart(y, qStart + 3));
    case 'last quarter':
      return span(monthStart(y, qStart - 3), monthStart(y, qStart));
    case 'this year':
      return span(monthStart(y, 0), monthStart(y + 1, 0));
    case 'last year':
      return span(monthStart(y - 1, 0), monthStart(y, 0));
    default:
      throw new UserError(
        `Can't parse date range '${range}'. Use a pair of dates, or e.g. "last quarter", "this year", "last 30 days".`,
      );
  }
}

/** SQLite expression truncating an ISO timestamp column to a granularity, formatted like the live service. */
/**
 * SQL truncating a stored time (always `YYYY-MM-DDTHH:MM:SS.sss`, see engine.ts) to `g`. Cutting the
 * text is several times cheaper than strftime() per row; only weeks need date arithmetic.
 */
export function truncate(sql: string, g: Granularity): string {
  switch (g) {
    case 'second':
      return `substr(${sql}, 1, 19) || '.000'`;
    case 'minute':
      return `substr(${sql}, 1, 16) || ':00.000'`;
    case 'hour':
      return `substr(${sql}, 1, 13) || ':00:00.000'`;
    case 'day':
      return `substr(${sql}, 1, 10) || 'T00:00:00.000'`;
    case 'week':
      return `strftime('%Y-%m-%dT00:00:00.000', ${sql}, '-' || ((CAST(strftime('%w', ${sql}) AS INTEGER) + 6) % 7) || ' days')`;
    case 'month':
      return `substr(${sql}, 1, 7) || '-01T00:00:00.000'`;
    case 'quarter':
      return `substr(${sql}, 1, 5) || CASE WHEN substr(${sql}, 6, 2) < '04' THEN '01' WHEN substr(${sql}, 6, 2) < '07' THEN '04' WHEN substr(${sql}, 6, 2) < '10' THEN '07' ELSE '10' END || '-01T00:00:00.000'`;
    case 'year':
      return `substr(${sql}, 1, 4) || '-01-01T00:00:00.000'`;
  }
}
