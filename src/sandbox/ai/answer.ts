// What the sandbox agent says about a planned query's result: the SQL it shows (the SQL API form of
// the semantic query), the tool result (schema, rows, a Vega-Lite spec without data, the rollup that
// served it), and the answer, a few sentences and a small table derived from the rows. Nothing here
// is canned per question.
import type { LoadAnswer } from './dataApi';
import { truncate } from '../data/dates';
import { capabilities, type Catalog, type Member } from './catalog';
import type { Plan } from './planner';
import { singular } from './words';

/** One output column: the member it holds and its SQL alias. */
export interface OutColumn {
  alias: string;
  member: Member;
  /** The load result's key (`orders.created_at.month` for a time dimension). */
  key: string;
  role: 'dimension' | 'time' | 'measure';
}

export function columnsOf(plan: Plan): OutColumn[] {
  const shorts = [...plan.dimensions, ...plan.measures].map((m) => m.short);
  const alias = (m: Member) =>
    shorts.filter((s) => s === m.short).length > 1 ? `${m.cube}_${m.short}` : m.short;
  const out: OutColumn[] = [];
  const t = plan.time;
  if (t?.granularity)
    out.push({
      alias: `${t.dimension.short}_${t.granularity}`,
      member: t.dimension,
      key: `${t.dimension.name}.${t.granularity}`,
      role: 'time',
    });
  for (const d of plan.dimensions) out.push({ alias: alias(d), member: d, key: d.name, role: 'dimension' });
  for (const m of plan.measures) out.push({ alias: alias(m), member: m, key: m.name, role: 'measure' });
  return out;
}

const quote = (v: string) => `'${v.replace(/'/g, "''")}'`;
const nextDay = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * The SQL API form of the plan: cube columns, MEASURE() for measures, joins from the cube that
 * declares them. It runs on the sandbox's /v1/cubesql too ("Open in notebook").
 */
export function sqlOf(plan: Plan, catalog: Catalog): string {
  const cols = columnsOf(plan);
  const select = cols.map((c) => {
    const ref = `${c.member.cube}.${c.member.short}`;
    const expr =
      c.role === 'time'
        ? truncate(ref, plan.time!.granularity!)
        : c.role === 'measure'
          ? `MEASURE(${ref})`
          : ref;
    return `${expr} AS ${c.alias}`;
  });
  const cubes = [
    ...new Set(
      [...plan.measures, ...plan.dimensions, ...plan.filters.map((f) => f.member)]
        .concat(plan.time ? [plan.time.dimension] : [])
        .map((m) => m.cube),
    ),
  ];
  const root =
    catalog.cubes.find(
      (c) => cubes.includes(c.name) && cubes.every((n) => n === c.name || c.joins?.includes(n)),
    )?.name ?? plan.measures[0]!.cube;
  const joins = cubes
    .filter((c) => c !== root)
    .map((c) => `JOIN ${c} ON ${c}.id = ${root}.${singular(c)}_id`);
  const where: string[] = [];
  const t = plan.time;
  if (t?.dateRange) {
    const ref = `${t.dimension.cube}.${t.dimension.short}`;
    where.push(`${ref} >= ${quote(t.dateRange[0])} AND ${ref} < ${quote(nextDay(t.dateRange[1]))}`);
  }
  for (const f of plan.filters) {
    const ref = `${f.member.cube}.${f.member.short}`;
    const many = f.values.length > 1;
    const op = f.operator === 'equals' ? (many ? 'IN' : '=') : many ? 'NOT IN' : '<>';
    where.push(`${ref} ${op} ${many ? `(${f.values.map(quote).join(', ')})` : quote(f.values[0]!)}`);
  }
  for (const s of plan.segments) where.push(`${s.name} IS TRUE`);
  const groups = cols.filter((c) => c.role !== 'measure').map((_, i) => String(i + 1));
  const lines = [`SELECT ${select.join(', ')}`, `FROM ${root}`, ...joins];
  if (where.length) lines.push(`WHERE ${where.join(' AND ')}`);
  if (groups.length) lines.push(`GROUP BY ${groups.join(', ')}`);
  const orderCol = plan.order && cols.find((c) => c.key === plan.order!.member);
  if (orderCol) lines.push(`ORDER BY ${orderCol.alias} ${plan.order!.desc ? 'DESC' : 'ASC'}`);
  if (groups.length) lines.push(`LIMIT ${plan.limit}`);
  return lines.join('\n');
}

// --- numbers and labels --------------------------------------------------------------------------

const toNumber = (v: unknown): number | undefined => {
  if (v === null || v === undefined || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

/** A measure's value as people read it, by its format (currency, percent, number). */
export function formatValue(v: unknown, member: Member): string {
  const n = toNumber(v);
  if (n === undefined) return v === null || v === undefined ? 'no value' : String(v);
  if (member.format === 'currency')
    return n.toLocaleString('en-US', {
      style: 'currency',
      currency: 'USD',
      maximumFractionDigits: Math.abs(n) >= 1000 ? 0 : 2,
    });
  if (member.format === 'percent')
    return `${(n * 100).toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;
  return n.toLocaleString('en-US', { maximumFractionDigits: Number.isInteger(n) ? 0 : 2 });
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A time bucket's label at its grain ("Nov 2025", "Q4 2025", "week of 3 Nov 2025"). */
export function timeLabel(v: unknown, grain: string | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(v));
  if (!m) return String(v);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  switch (grain) {
    case 'year':
      return String(y);
    case 'quarter':
      return `Q${Math.floor((mo - 1) / 3) + 1} ${y}`;
    case 'month':
      return `${MONTH_NAMES[mo - 1]} ${y}`;
    case 'week':
      return `week of ${d} ${MONTH_NAMES[mo - 1]} ${y}`;
    default:
      return `${d} ${MONTH_NAMES[mo - 1]} ${y}`;
  }
}

const dayLabel = (d: string) => timeLabel(d, 'day');

const GENERIC = new Set(['count', 'total', 'amount', 'number', 'value', 'sum']);
/** A member's name in a sentence: its short title ("total amount"), its title when that says little ("orders count"). */
const named = (m: Member) => (GENERIC.has(m.shortTitle.toLowerCase()) ? m.title : m.shortTitle || m.title);
const lower = (m: Member) => named(m).toLowerCase();
/** A dimension as a word: a cube's name dimension is the cube's rows ("customer"), else its short title. */
function dimWord(d: Member, many = false): string {
  if (d.short === 'name' || GENERIC.has(d.shortTitle.toLowerCase()))
    return many ? d.cube.replace(/_/g, ' ') : singular(d.cube.replace(/_/g, ' '));
  return many ? plural(d.shortTitle) : d.shortTitle.toLowerCase();
}

function plural(title: string): string {
  const t = title.toLowerCase();
  if (/(s|x|ch|sh)$/.test(t)) return `${t}es`;
  if (/[^aeiou]y$/.test(t)) return `${t.slice(0, -1)}ies`;
  return `${t}s`;
}

// --- the answer ----------------------------------------------------------------------------------

/** What the filters, segments and range of a plan restrict the answer to, as words. */
function scope(plan: Plan): string {
  const parts: string[] = [];
  for (const f of plan.filters)
    parts.push(
      `${f.operator === 'equals' ? '' : 'not '}${f.values.map((v) => `**${v}**`).join(' or ')} (${lower(f.member)})`,
    );
  for (const s of plan.segments) parts.push(s.title.toLowerCase());
  const t = plan.time;
  const dates = t?.dateRange ? `${dayLabel(t.dateRange[0])} – ${dayLabel(t.dateRange[1])}` : '';
  const range = t?.dateRange
    ? t.rangeText && /^in \d{4}$/.test(t.rangeText)
      ? ` ${t.rangeText}`
      : t.rangeText
        ? ` ${t.rangeText} (${dates})`
        : ` from ${dates}`
    : '';
  return `${parts.length ? ` for ${parts.join(', ')}` : ''}${range}`;
}

function table(cols: OutColumn[], rows: Record<string, unknown>[], grain: string | undefined): string {
  const head = `| ${cols.map((c) => (c.role === 'time' ? `${c.member.shortTitle} (${grain})` : c.member.shortTitle)).join(' | ')} |`;
  const rule = `|${cols.map((c) => (c.role === 'measure' ? '---:' : '---')).join('|')}|`;
  const body = rows.map(
    (r) =>
      `| ${cols
        .map((c) =>
          c.role === 'measure'
            ? formatValue(r[c.key], c.member)
            : c.role === 'time'
              ? timeLabel(r[c.key], grain)
              : String(r[c.key] ?? '∅').replace(/\|/g, '\\|'),
        )
        .join(' | ')} |`,
  );
  return [head, rule, ...body].join('\n');
}

const MAX_TABLE = 12;

/** The answer: sentences from the result, then a table of the rows when there are few. */
export function answerText(plan: Plan, result: LoadAnswer): string {
  const cols = columnsOf(plan);
  const rows = result.data;
  const total = result.total ?? rows.length;
  const [m] = plan.measures as [Member, ...Member[]];
  const grain = plan.time?.granularity;
  const where = scope(plan);
  if (rows.length === 0) {
    return `There is no data for ${lower(m)}${where}. Try a wider date range or fewer filters.`;
  }
  const sentences: string[] = [];
  if (plan.intent === 'total') {
    const r = rows[0]!;
    sentences.push(
      plan.measures.length === 1
        ? `The ${lower(m)}${where} is **${formatValue(r[m.name], m)}**.`
        : `${where ? `${where.trim()[0]!.toUpperCase()}${where.trim().slice(1)}: ` : ''}${plan.measures.map((x) => `${lower(x)} **${formatValue(r[x.name], x)}**`).join(', ')}.`,
    );
    return sentences.join(' ');
  }
  const label = (r: Record<string, unknown>) =>
    cols
      .filter((c) => c.role !== 'measure')
      .map((c) => (c.role === 'time' ? timeLabel(r[c.key], grain) : String(r[c.key] ?? '∅')))
      .join(' · ');
  const value = (r: Record<string, unknown>, x: Member = m) => toNumber(r[x.name]);
  const sorted = [...rows].sort((a, b) => (value(b) ?? -Infinity) - (value(a) ?? -Infinity));
  const top = sorted[0]!;
  const bottom = sorted[sorted.length - 1]!;
  const sum = rows.reduce((s, r) => s + (value(r) ?? 0), 0);
  const additive = m.aggType === 'count' || m.aggType === 'sum';
  const share = (r: Record<string, unknown>) =>
    additive && sum > 0 && rows.length === total
      ? ` (${Math.round(((value(r) ?? 0) / sum) * 100)}% of the total)`
      : '';
  const dims = plan.dimensions;
  const groupWord = dims.length === 1 ? `${total} ${dimWord(dims[0]!, total !== 1)}` : `${total} groups`;

  if (plan.intent === 'trend' && dims.length === 0) {
    const first = rows[0]!;
    const last = rows[rows.length - 1]!;
    sentences.push(
      `${named(m)} by ${grain}${where}: ${rows.length} ${plural(grain ?? 'period')}, from **${formatValue(first[m.name], m)}** in ${timeLabel(first[cols[0]!.key], grain)} to **${formatValue(last[m.name], m)}** in ${timeLabel(last[cols[0]!.key], grain)}.`,
    );
    if (rows.length > 2)
      sentences.push(
        `The highest ${grain} was **${label(top)}** (${formatValue(top[m.name], m)}), the lowest ${label(bottom)} (${formatValue(bottom[m.name], m)}).`,
      );
    const a = value(first);
    const b = value(last);
    if (a !== undefined && b !== undefined && a !== 0 && rows.length > 1) {
      const change = Math.round(((b - a) / Math.abs(a)) * 100);
      sentences.push(
        change === 0
          ? `The last ${grain} is level with the first.`
          : `The last ${grain} is ${Math.abs(change)}% ${change > 0 ? 'above' : 'below'} the first.`,
      );
    }
  } else if (plan.intent === 'trend') {
    sentences.push(
      `${named(m)} by ${grain} and ${dims.map((d) => dimWord(d)).join(', ')}${where}: ${rows.length} rows. The highest was **${label(top)}** (${formatValue(top[m.name], m)}).`,
    );
  } else if (plan.intent === 'top' || plan.intent === 'bottom') {
    const best = plan.intent === 'top' ? top : bottom;
    const word = plan.intent === 'top' ? 'highest' : 'lowest';
    sentences.push(
      `**${label(best)}** has the ${word} ${lower(m)}${where}: **${formatValue(best[m.name], m)}**${share(best)}.`,
    );
    const others = (plan.intent === 'top' ? sorted : [...sorted].reverse()).slice(1, 3);
    if (others.length)
      sentences.push(`Next: ${others.map((r) => `${label(r)} (${formatValue(r[m.name], m)})`).join(', ')}.`);
    if (rows.length > 3 && !plan.topN) {
      const other = plan.intent === 'top' ? bottom : top;
      sentences.push(
        `${plan.intent === 'top' ? 'Lowest' : 'Highest'} of the ${groupWord}: ${label(other)} (${formatValue(other[m.name], m)}).`,
      );
    }
  } else if (value(top) === value(bottom)) {
    sentences.push(`${named(m)}${where}: every one of the ${groupWord} has ${formatValue(top[m.name], m)}.`);
  } else {
    sentences.push(
      `${named(m)} by ${dims.map((d) => dimWord(d)).join(' and ')}${where}, ${groupWord}: **${label(top)}** leads with ${formatValue(top[m.name], m)}${share(top)}; ${label(bottom)} has the least (${formatValue(bottom[m.name], m)}).`,
    );
  }
  for (const x of plan.measures.slice(1)) {
    const best = [...rows].sort((a, b) => (value(b, x) ?? -Infinity) - (value(a, x) ?? -Infinity))[0]!;
    sentences.push(`By ${lower(x)}, **${label(best)}** is highest (${formatValue(best[x.name], x)}).`);
  }
  if (total > rows.length) sentences.push(`Showing ${rows.length} of ${total} rows.`);
  let text = sentences.join(' ');
  if (rows.length <= MAX_TABLE) text += `\n\n${table(cols, rows, grain)}`;
  return text;
}

/** Says what could not be matched and what the agent can answer instead. */
export function refusalText(reason: string, catalog: Catalog, examples: string[]): string {
  const { measures, dimensions } = capabilities(catalog);
  const list = (xs: string[]) => xs.slice(0, 8).join(', ') + (xs.length > 8 ? ', …' : '');
  return [
    `I can't answer that from this data model: ${reason}.`,
    '',
    `I can answer questions about **${list(measures)}**, by **${list(dimensions)}**, over time and with filters on their values.`,
    ...(examples.length ? ['', 'For example:', ...examples.map((e) => `- ${e}`)] : []),
  ].join('\n');
}

// --- the tool result -----------------------------------------------------------------------------

const COLUMN_TYPE: Record<string, string> = { time: 'Timestamp', string: 'String', boolean: 'Boolean' };

/** The cubeSqlApi tool's result: schema, positional rows, totalRows, the chart, the rollup used. */
export function toolResult(plan: Plan, result: LoadAnswer): Record<string, unknown> {
  const cols = columnsOf(plan);
  const spec = chartSpec(plan, cols, result.data.length);
  return {
    schema: cols.map((c) => ({
      name: c.alias,
      column_type:
        c.role === 'measure'
          ? c.member.aggType === 'count' || c.member.aggType === 'countDistinct'
            ? 'Int64'
            : 'Float64'
          : (COLUMN_TYPE[c.member.type] ?? 'Float64'),
      member: c.role === 'time' ? c.key : c.member.name,
      title: c.role === 'time' ? `${c.member.title} (${plan.time!.granularity})` : c.member.title,
      ...(c.member.format ? { format: c.member.format } : {}),
    })),
    data: result.data.slice(0, 100).map((r) => cols.map((c) => (r[c.key] == null ? null : String(r[c.key])))),
    totalRows: result.total ?? result.data.length,
    ...(spec ? { vegaSpec: JSON.stringify(spec) } : {}),
    ...(result.usedPreAggregations ? { usedPreAggregations: result.usedPreAggregations } : {}),
    ...(result.lastRefreshTime ? { lastRefreshTime: result.lastRefreshTime } : {}),
  };
}

/** The axis number format of a measure (d3-format, compact): $250k, 12%, 1.2k. */
export function axisFormat(m: Member): string {
  return m.format === 'currency' ? '$~s' : m.format === 'percent' ? '.0%' : '~s';
}
/** The tooltip number format of a measure (d3-format, exact). */
function tipFormat(m: Member): string {
  return m.format === 'currency' ? '$,.2f' : m.format === 'percent' ? '.1%' : ',.4~f';
}
/** A measure's axis title: its title with its unit. */
export function axisTitle(m: Member): string {
  return `${m.title}${m.format === 'currency' ? ' ($)' : m.format === 'percent' ? ' (%)' : ''}`;
}
const TIME_FORMAT: Record<string, string> = {
  year: '%Y',
  quarter: '%b %Y',
  month: '%b %Y',
  week: '%d %b %Y',
  day: '%d %b',
};

/**
 * A Vega-Lite spec without data for the result: bars by category (horizontal when many), a line over
 * time; two measures on two axes (left and right, each titled and formatted by its measure), more
 * measures as panels with independent scales. No chart for a single number.
 */
export function chartSpec(
  plan: Plan,
  cols: OutColumn[] = columnsOf(plan),
  rowCount = plan.limit,
): Record<string, unknown> | undefined {
  const time = cols.find((c) => c.role === 'time');
  const dims = cols.filter((c) => c.role === 'dimension');
  const measures = cols.filter((c) => c.role === 'measure');
  const x = time ?? dims[0];
  if (!x || measures.length === 0) return undefined;
  const series = time ? dims[0] : dims[1];
  const grain = plan.time?.granularity;
  // Many categories read better as horizontal bars (their labels stay level).
  const horizontal = !time && !series && measures.length === 1 && rowCount > 12;
  const xEnc: Record<string, unknown> = time
    ? {
        field: x.alias,
        type: 'temporal',
        title: `${x.member.shortTitle} (${grain})`,
        axis: { format: TIME_FORMAT[grain ?? 'day'], labelAngle: 0 },
      }
    : {
        field: x.alias,
        type: 'nominal',
        title: x.member.title,
        sort: series || measures.length > 1 ? null : horizontal ? '-x' : '-y',
      };
  const yEnc = (c: OutColumn, orient?: 'left' | 'right') => ({
    field: c.alias,
    type: 'quantitative',
    title: axisTitle(c.member),
    axis: { format: axisFormat(c.member), ...(orient ? { orient } : {}) },
  });
  const tooltip = [
    {
      field: x.alias,
      type: time ? 'temporal' : 'nominal',
      title: x.member.shortTitle,
      ...(time ? { format: TIME_FORMAT[grain ?? 'day'] } : {}),
    },
    ...(series ? [{ field: series.alias, type: 'nominal', title: series.member.shortTitle }] : []),
    ...measures.map((c) => ({
      field: c.alias,
      type: 'quantitative',
      title: c.member.shortTitle,
      format: tipFormat(c.member),
    })),
  ];
  const mark = (type: string) => ({ type, tooltip: true, ...(type === 'line' ? { point: true } : {}) });
  const base = { $schema: 'https://vega.github.io/schema/vega-lite/v5.json' };
  if (measures.length === 1) {
    const m = measures[0]!;
    const y = yEnc(m);
    return {
      ...base,
      mark: mark(time ? 'line' : 'bar'),
      encoding: {
        ...(horizontal ? { y: { ...xEnc, axis: { labelLimit: 160 } }, x: y } : { x: xEnc, y }),
        ...(series
          ? { color: { field: series.alias, type: 'nominal', title: series.member.shortTitle } }
          : {}),
        ...(series && !time ? { xOffset: { field: series.alias } } : {}),
        tooltip,
      },
    };
  }
  if (measures.length === 2 && !series) {
    // Two measures of different magnitudes: each on its own axis, coloured like its series.
    const [a, b] = measures as [OutColumn, OutColumn];
    return {
      ...base,
      encoding: { x: xEnc, tooltip },
      layer: [
        {
          mark: mark(time ? 'line' : 'bar'),
          encoding: { y: yEnc(a, 'left'), color: { datum: a.member.shortTitle, title: null } },
        },
        {
          mark: mark('line'),
          encoding: { y: yEnc(b, 'right'), color: { datum: b.member.shortTitle, title: null } },
        },
      ],
      resolve: { scale: { y: 'independent' } },
    };
  }
  // More measures (or measures by a series): one panel per measure, each with its own scale.
  return {
    ...base,
    vconcat: measures.map((m) => ({
      height: 140,
      mark: mark(time ? 'line' : 'bar'),
      encoding: {
        x: xEnc,
        y: yEnc(m),
        ...(series
          ? { color: { field: series.alias, type: 'nominal', title: series.member.shortTitle } }
          : {}),
        tooltip,
      },
    })),
    resolve: { scale: { y: 'independent' } },
  };
}
