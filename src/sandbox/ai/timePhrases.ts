// The time phrases of a question ("the last 12 months", "by week", "in March 2025", "over
// time") read into a whole-period date range, a grain and a trend, against the agent's today.
import { NUM, num } from './words';

export type Grain = 'day' | 'week' | 'month' | 'quarter' | 'year';

const pad = (n: number) => String(n).padStart(2, '0');
export const ymd = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const utc = (y: number, m: number, d = 1) => new Date(Date.UTC(y, m, d));
export const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

export interface Found {
  range?: { from: Date; to: Date; text: string };
  grain?: Grain;
  trend?: boolean;
}

/**
 * Time phrases of the question, each removed from `text` once read. Ranges end yesterday and are
 * whole periods ("the last 12 months" is the 12 calendar months before this one), so a chart by
 * month never ends on a partial month.
 */
export function readTime(text: string, today: Date): { found: Found; rest: string } {
  const found: Found = {};
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  const weekStart = addDays(today, -((today.getUTCDay() + 6) % 7));
  const qStart = Math.floor(m / 3) * 3;
  const set = (from: Date, toExclusive: Date, text: string) =>
    (found.range ??= { from, to: addDays(toExclusive, -1), text });
  const lastN = (n: number, unit: string) => {
    switch (unit) {
      case 'day':
        return set(addDays(today, -n), today, `over the last ${n} days`);
      case 'week':
        return set(addDays(weekStart, -7 * n), weekStart, `over the last ${n} weeks`);
      case 'month':
        return set(utc(y, m - n), utc(y, m), `over the last ${n} months`);
      case 'quarter':
        return set(utc(y, qStart - 3 * n), utc(y, qStart), `over the last ${n} quarters`);
      default:
        return set(
          utc(y - n, m),
          utc(y, m),
          n === 1 ? 'over the last 12 months' : `over the last ${n} years`,
        );
    }
  };
  const rules: [RegExp, (g: string[]) => void][] = [
    [
      new RegExp(`\\b(?:last|past|previous|recent)\\s+${NUM}\\s+(day|week|month|quarter|year)s?\\b`),
      (g) => lastN(num(g[1]!), g[2]!),
    ],
    // "over the last year", "in the past year": a year back from now, not the previous calendar year.
    [/\b(?:the\s+)(?:last|past|previous)\s+(year|quarter|month|week)\b/, (g) => lastN(1, g[1]!)],
    [/\bpast\s+(year|quarter|month|week)\b/, (g) => lastN(1, g[1]!)],
    [
      /\b(?:this|current)\s+(week|month|quarter|year)\b|\b(week|month|quarter|year)\s+to\s+date\b|\b(ytd|mtd|qtd)\b/,
      (g) => {
        const unit = g[1] ?? g[2] ?? { ytd: 'year', mtd: 'month', qtd: 'quarter' }[g[3]!]!;
        const from =
          unit === 'week'
            ? weekStart
            : unit === 'month'
              ? utc(y, m)
              : unit === 'quarter'
                ? utc(y, qStart)
                : utc(y, 0);
        set(from, today, `this ${unit} so far`);
      },
    ],
    [
      /\b(?:last|previous)\s+(week|month|quarter|year)\b/,
      (g) => {
        const unit = g[1]!;
        if (unit === 'week') set(addDays(weekStart, -7), weekStart, 'last week');
        else if (unit === 'month') set(utc(y, m - 1), utc(y, m), 'last month');
        else if (unit === 'quarter') set(utc(y, qStart - 3), utc(y, qStart), 'last quarter');
        else set(utc(y - 1, 0), utc(y, 0), `in ${y - 1}`);
      },
    ],
    [/\byesterday\b/, () => set(addDays(today, -1), today, 'yesterday')],
    [/\btoday\b/, () => set(today, addDays(today, 1), 'today')],
    [
      new RegExp(`\\b(${MONTHS.join('|')})\\s+(20\\d\\d)\\b`),
      (g) => {
        const mi = MONTHS.indexOf(g[1]!);
        const yy = Number(g[2]);
        set(utc(yy, mi), utc(yy, mi + 1), `in ${g[1]![0]!.toUpperCase()}${g[1]!.slice(1)} ${yy}`);
      },
    ],
    [/\bsince\s+(20\d\d)\b/, (g) => set(utc(Number(g[1]), 0), today, `since ${g[1]}`)],
    [
      /\b(?:in|during|for|of|throughout)\s+(20\d\d)\b/,
      (g) => set(utc(Number(g[1]), 0), utc(Number(g[1]) + 1, 0), `in ${g[1]!}`),
    ],
    [
      /\b(?:by|per|each|every|a|for\s+each|grouped\s+by|broken\s+down\s+by)\s+(day|week|month|quarter|year)\b/,
      (g) => (found.grain ??= g[1] as Grain),
    ],
    [
      /\b(daily|weekly|monthly|quarterly|yearly|annually|annual)\b/,
      (g) =>
        (found.grain ??= (
          {
            daily: 'day',
            weekly: 'week',
            monthly: 'month',
            quarterly: 'quarter',
            yearly: 'year',
            annually: 'year',
            annual: 'year',
          } as const
        )[g[1] as 'daily']),
    ],
    [
      /\b(?:over\s+time|trends?|trending|evolution|evolved?|timeline|history|growth|grow|grew|changed?|month\s+over\s+month|time\s+series)\b/,
      () => (found.trend = true),
    ],
  ];
  let rest = text;
  for (const [re, apply] of rules) {
    for (;;) {
      const hit = re.exec(rest);
      if (!hit) break;
      apply(hit.slice(0) as string[]);
      rest = `${rest.slice(0, hit.index)} ${rest.slice(hit.index + hit[0].length)}`;
    }
  }
  return { found, rest };
}
