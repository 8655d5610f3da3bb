// Dates as people read them: "3 days ago", "in 2 hours", with the exact time for tooltips. Plain
// functions of a date and "now" (no vscode, no DOM), so every feature and webview can share them.

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

function toDate(value: unknown): Date | undefined {
  if (typeof value !== 'string' && typeof value !== 'number' && !(value instanceof Date)) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** "3 days ago", "in 2 hours", "just now"; undefined when `value` is not a date. */
export function relativeTime(value: unknown, now: Date = new Date(), locale = 'en'): string | undefined {
  const d = toDate(value);
  if (!d) return undefined;
  const diff = d.getTime() - now.getTime();
  const fmt = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return fmt.format(Math.trunc(diff / ms), unit);
  }
  return 'just now';
}

/** The exact time, unambiguous across time zones: "2026-01-05 09:00 UTC". */
export function exactTime(value: unknown): string | undefined {
  const d = toDate(value);
  if (!d) return undefined;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
