// Date ranges as the engine reads them: relative strings ("last 30 days", "this quarter", "from
// 2025-01-01 to 2025-03-31") resolved against a clock in the query's time zone, pairs of dates
// expanded to local timestamps ("2025-01-01" → "2025-01-01T00:00:00.000"); and time truncation
// to a granularity, formatted like the engine (no "Z").
import type { Granularity } from './model';
import { RequestError } from './userError';

type Unit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A wall-clock time (its UTC fields are the local fields) as the engine prints it. */
export function localText(d: Date): string {
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`
  );
}

/** `now` in the time zone, as a wall-clock time (UTC fields = local fields). */
export function wallClock(now: Date, timezone: string): Date {
  if (timezone === 'UTC') return new Date(now.getTime());
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(now);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return new Date(
    Date.UTC(
      get('year'),
      get('month') - 1,
      get('day'),
      get('hour'),
      get('minute'),
      get('second'),
      now.getUTCMilliseconds(),
    ),
  );
}

/** True when the name is a time zone this runtime knows (the engine checks IANA names). */
export function validTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function add(d: Date, n: number, unit: Unit): Date {
  const t = new Date(d.getTime());
  switch (unit) {
    case 'second':
      return new Date(t.getTime() + n * 1000);
    case 'minute':
      return new Date(t.getTime() + n * 60_000);
    case 'hour':
      return new Date(t.getTime() + n * 3_600_000);
    case 'day':
      return new Date(t.getTime() + n * 86_400_000);
    case 'week':
      return new Date(t.getTime() + n * 7 * 86_400_000);
    default: {
      // Months clamp to the last day of the target month (31 Jan + 1 month = 28/29 Feb).
      const months = unit === 'year' ? 12 * n : unit === 'quarter' ? 3 * n : n;
      const y = t.getUTCFullYear();
      const m = t.getUTCMonth() + months;
      const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
      t.setUTCDate(1);
      t.setUTCFullYear(y, m, Math.min(d.getUTCDate(), last));
      return t;
    }
  }
}

function startOf(d: Date, unit: Unit): Date {
  const y = d.getUTCFullYear();
  const mo = d.getUTCMonth();
  const day = d.getUTCDate();
  switch (unit) {
    case 'second':
      return new Date(Math.floor(d.getTime() / 1000) * 1000);
    case 'minute':
      return new Date(Math.floor(d.getTime() / 60_000) * 60_000);
    case 'hour':
      return new Date(Math.floor(d.getTime() / 3_600_000) * 3_600_000);
    case 'day':
      return new Date(Date.UTC(y, mo, day));
    case 'week': // ISO weeks start on Monday
      return new Date(Date.UTC(y, mo, day - ((d.getUTCDay() + 6) % 7)));
    case 'month':
      return new Date(Date.UTC(y, mo, 1));
    case 'quarter':
      return new Date(Date.UTC(y, Math.floor(mo / 3) * 3, 1));
    case 'year':
      return new Date(Date.UTC(y, 0, 1));
  }
}

const endOf = (d: Date, unit: Unit) => new Date(add(startOf(d, unit), 1, unit).getTime() - 1);

const UNITS = 'day|week|month|year|quarter|hour|minute|second';

/** A single date as the engine's parser reads it (ISO dates and times, today/yesterday/tomorrow). */
function parseOne(text: string, now: Date): Date | undefined {
  const t = text.trim();
  if (t === 'today' || t === 'now') return now;
  if (t === 'yesterday') return add(now, -1, 'day');
  if (t === 'tomorrow') return add(now, 1, 'day');
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[t ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/.exec(t);
  if (!m) return undefined;
  const d = new Date(
    Date.UTC(
      +m[1]!,
      +m[2]! - 1,
      +m[3]!,
      +(m[4] ?? 0),
      +(m[5] ?? 0),
      +(m[6] ?? 0),
      +(m[7] ?? '0').padEnd(3, '0'),
    ),
  );
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** A relative or absolute date string as [from, to] local timestamps (the engine's dateParser). */
export function parseDateRange(input: string, timezone: string, now: Date): [string, string] {
  const s = input.toLowerCase();
  const local = wallClock(now, timezone);
  const span = (u: string): Unit => u as Unit;
  let range: [Date, Date];
  const one = new RegExp(`(this|last|next)\\s+(${UNITS})`).exec(s);
  const many = new RegExp(`(last|next)\\s+(\\d+)\\s+(${UNITS})`).exec(s);
  if (one) {
    const unit = span(one[2]!);
    const shift = one[1] === 'last' ? -1 : one[1] === 'next' ? 1 : 0;
    const at = add(local, shift, unit);
    range = [startOf(at, unit), endOf(at, unit)];
  } else if (many) {
    const unit = span(many[3]!);
    const n = Number(many[2]);
    range =
      many[1] === 'last'
        ? [startOf(add(local, -n, unit), unit), endOf(add(local, -1, unit), unit)]
        : [startOf(add(local, 1, unit), unit), endOf(add(local, n, unit), unit)];
  } else if (/today/.test(s)) {
    range = [startOf(local, 'day'), endOf(local, 'day')];
  } else if (/yesterday/.test(s)) {
    const d = add(local, -1, 'day');
    range = [startOf(d, 'day'), endOf(d, 'day')];
  } else if (/tomorrow/.test(s)) {
    const d = add(local, 1, 'day');
    range = [startOf(d, 'day'), endOf(d, 'day')];
  } else {
    const exact: Unit = (['second', 'minute', 'hour'] as const).find((g) => s.includes(g)) ?? 'day';
    const fromTo = /^from(.{0,50})to(.{0,50})$/.exec(s);
    const [a, b] = fromTo ? [fromTo[1]!.trim(), fromTo[2]!.trim()] : [s, s];
    const from = parseOne(a, local);
    if (!from) throw new RequestError(`Can't parse date: '${a}'`);
    const to = parseOne(b, local);
    if (!to) throw new RequestError(`Can't parse date: '${b}'`);
    range = [startOf(from, exact), endOf(to, exact)];
  }
  return [localText(range[0]), localText(range[1])];
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** One bound of a pair as the engine writes it: dates get the day's first or last millisecond. */
function bound(d: string, end: boolean): string {
  if (DATE_ONLY.test(d)) return `${d}T${end ? '23:59:59.999' : '00:00:00.000'}`;
  const parsed = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(d) ? d : `${d.replace(' ', 'T')}Z`);
  if (Number.isNaN(parsed)) throw new RequestError(`Can't parse date: '${d}'`);
  return localText(new Date(parsed));
}

/** A dateRange (a string, or one or two dates) as the engine normalises it. */
export function resolveDateRange(input: string | string[], timezone: string, now: Date): [string, string] {
  if (typeof input === 'string') return parseDateRange(input, timezone, now);
  const pair = input.length === 1 ? [input[0]!, input[0]!] : input;
  return [bound(pair[0]!, false), bound(pair[1]!, true)];
}

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

/**
 * Whether a [from, to] range (local timestamps) starts and ends on boundaries of `g`: a rollup of
 * that granularity can answer it exactly.
 */
export function alignedTo(range: [string, string], g: Granularity): boolean {
  const from = new Date(`${range[0]}Z`);
  const toNext = new Date(new Date(`${range[1]}Z`).getTime() + 1);
  const unit = g as Unit;
  return (
    startOf(from, unit).getTime() === from.getTime() && startOf(toNext, unit).getTime() === toNext.getTime()
  );
}
