// The sandbox agent's planner: reads a question against the model's /v1/meta and plans the
// semantic query that answers it. Words of the question are matched to member titles, names and a
// small table of business synonyms (revenue -> amount, client -> customer), to cube names, to the
// values of low-cardinality dimensions (filters), and to phrases for time (grain, date range),
// ranking (highest, top 5) and aggregation (how many, average). Nothing is canned per question:
// every plan is made from the model. A question it cannot read is refused with what it can answer.
// The words it reads in (words.ts), the model it reads against (catalog.ts) and the calendar
// phrases (timePhrases.ts) are concerns of their own; this file joins them into a plan.
import type { LoadQuery } from '../../api/schemas/data';
import { countOf, joinable, labelOf, timeOf, type Catalog, type Cube, type Member } from './catalog';
import { addDays, readTime, ymd, type Grain } from './timePhrases';
import { content, MEMBER_WORDS, MONEY, NUM, num, singular, STOP, SYNONYMS, words } from './words';

export interface Filter {
  member: Member;
  operator: 'equals' | 'notEquals';
  values: string[];
}

export interface TimePlan {
  dimension: Member;
  granularity?: Grain;
  /** Inclusive local dates, `YYYY-MM-DD`. */
  dateRange?: [string, string];
  /** How the question said the range ("the last 12 months"). */
  rangeText?: string;
}

export interface Plan {
  kind: 'plan';
  measures: Member[];
  dimensions: Member[];
  time?: TimePlan;
  filters: Filter[];
  segments: { name: string; title: string }[];
  order?: { member: string; desc: boolean };
  limit: number;
  /** `top`: the question asks for the highest or lowest; `trend`: over time; `total`: one number. */
  intent: 'top' | 'bottom' | 'trend' | 'breakdown' | 'total';
  /** The question asked for the first N (top 5). */
  topN?: number;
}

export interface Refusal {
  kind: 'refusal';
  /** What could not be matched, in the question's words. */
  reason: string;
}

/** Values of low-cardinality string dimensions: `cube.member` -> its values. */
export type ValueIndex = ReadonlyMap<string, readonly string[]>;

interface Mention {
  start: number;
  end: number;
  candidates: Member[];
  /** After "by", "per", "which", ...: a dimension to group by. */
  grouping: boolean;
}

const GROUPING_BEFORE = new Set([
  'by',
  'per',
  'each',
  'across',
  'which',
  'what',
  'every',
  'among',
  'vs',
  'versus',
]);

export interface PlanOptions {
  /** The agent's "today" (UTC midnight): relative ranges end the day before. */
  today: Date;
  values?: ValueIndex;
}

/** Plans the semantic query for a question, or says why it cannot. */
export function planQuestion(question: string, catalog: Catalog, opts: PlanOptions): Plan | Refusal {
  let text = ` ${question.toLowerCase().replace(/[’']/g, "'")} `;

  // Time, ranking and aggregation phrases first; each is removed from the text once read.
  const { found: time, rest } = readTime(text, opts.today);
  text = rest;
  let topN: number | undefined;
  let direction: 'desc' | 'asc' | undefined;
  const takeOut = (re: RegExp, apply: (g: string[]) => void) => {
    for (;;) {
      const hit = re.exec(text);
      if (!hit) return;
      apply(hit.slice(0) as string[]);
      text = `${text.slice(0, hit.index)} ${text.slice(hit.index + hit[0].length)}`;
    }
  };
  takeOut(new RegExp(`\\b(?:top|best|first|leading)\\s+${NUM}\\b`), (g) => {
    topN = num(g[1]!);
    direction ??= 'desc';
  });
  takeOut(new RegExp(`\\b(?:bottom|worst|last)\\s+${NUM}\\b`), (g) => {
    topN = num(g[1]!);
    direction ??= 'asc';
  });
  takeOut(new RegExp(`\\b${NUM}\\s+(?:best|biggest|largest|highest|top|most|leading|strongest)\\b`), (g) => {
    topN = num(g[1]!);
    direction ??= 'desc';
  });
  takeOut(new RegExp(`\\b${NUM}\\s+(?:worst|smallest|lowest|least|weakest)\\b`), (g) => {
    topN = num(g[1]!);
    direction ??= 'asc';
  });
  takeOut(
    /\b(?:highest|most|best|largest|biggest|max|maximum|greatest|leading|strongest|top|more)\b/,
    () => (direction ??= 'desc'),
  );
  takeOut(
    /\b(?:lowest|least|fewest|smallest|worst|min|minimum|weakest|bottom|less|fewer)\b/,
    () => (direction ??= 'asc'),
  );
  let wantsCount = false;
  let wantsAverage = false;
  takeOut(/\b(?:how\s+many|number\s+of|count\s+of|volume\s+of)\b/, () => (wantsCount = true));
  let wantsDistinct = false;
  takeOut(/\b(?:distinct|unique|different)\b/, () => (wantsDistinct = true));
  if (/\b(?:average|avg|mean|typical)\b/.test(text)) wantsAverage = true;

  // Values of small dimensions ("shipped", "Germany", "not canceled") become filters.
  const filters: Filter[] = [];
  const filterOf = new Map<string, Filter>();
  const at = new Map<Filter, number>();
  const candidates = [...(opts.values ?? [])].flatMap(([name, values]) => {
    const member = catalog.members.get(name);
    return member ? values.map((value) => ({ member, value })) : [];
  });
  // Longer values first: "New York" is a city before "new" is a status.
  candidates.sort((a, b) => b.value.length - a.value.length);
  for (const { member, value } of candidates) {
    const v = value.toLowerCase().trim();
    if (v.length < 3 || STOP.has(v)) continue;
    const escaped = v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const re = new RegExp(
      `\\b(?:(not|excluding|except|without|other\\s+than|non)[\\s-]+)?${escaped}(?:s|es)?\\b`,
    );
    const hit = re.exec(text);
    if (!hit) continue;
    const operator = hit[1] ? 'notEquals' : 'equals';
    const key = `${member.name}|${operator}`;
    const f = filterOf.get(key) ?? { member, operator, values: [] };
    if (!filterOf.has(key)) {
      filterOf.set(key, f);
      filters.push(f);
    }
    f.values.push(value);
    at.set(f, Math.min(at.get(f) ?? Infinity, hit.index));
    // Blanked at the same length, so later hits keep their place in the question.
    text = `${text.slice(0, hit.index)}${' '.repeat(hit[0].length)}${text.slice(hit.index + hit[0].length)}`;
  }
  // In the question's order ("from Germany ... excluding canceled").
  filters.sort((a, b) => at.get(a)! - at.get(b)!);

  // The remaining words, matched to member phrases (longest first).
  const raw = text.split(/[^a-z0-9]+/).filter((w) => w.length > 1 || /\d/.test(w));
  const ws = raw.map((w) => SYNONYMS[singular(w)] ?? singular(w));
  const used = new Array<boolean>(ws.length).fill(false);
  const mentions: Mention[] = [];
  const all = [...catalog.members.values()];
  const maxLen = Math.max(1, ...all.flatMap((m) => m.phrases.map((p) => p.length)));
  for (let len = maxLen; len >= 1; len--) {
    for (let i = 0; i + len <= ws.length; i++) {
      if (used.slice(i, i + len).some(Boolean)) continue;
      const seq = ws.slice(i, i + len);
      if (len === 1 && STOP.has(seq[0]!) && !MEMBER_WORDS.has(seq[0]!)) continue;
      const key = seq.join(' ');
      const matching = all.filter((m) => m.phrases.some((p) => p.join(' ') === key));
      // A member's full title said as is ("Customers Count") is that member, not another whose
      // short title reads the same ("Orders Customer Count").
      const exact = matching.filter((m) => content(words(m.title)).join(' ') === key);
      const candidates = exact.length ? exact : matching;
      if (candidates.length === 0) continue;
      for (let k = i; k < i + len; k++) used[k] = true;
      const before = ws.slice(Math.max(0, i - 2), i);
      mentions.push({
        start: i,
        end: i + len,
        candidates,
        grouping: before.some((w) => GROUPING_BEFORE.has(w)),
      });
    }
  }
  mentions.sort((a, b) => a.start - b.start);

  // Cube words left over ("orders", "customers"): what is counted, or what to group by.
  const cubeMentions: { cube: Cube; index: number; grouping: boolean }[] = [];
  ws.forEach((w, i) => {
    if (used[i]) return;
    const cube = catalog.cubes.find((c) => c.words.has(w));
    if (!cube) return;
    used[i] = true;
    const before = ws.slice(Math.max(0, i - 2), i);
    cubeMentions.push({ cube, index: i, grouping: before.some((b) => GROUPING_BEFORE.has(b)) });
  });
  // "How many sales" counts orders: counting wins over money words.
  const money = !wantsCount && (ws.some((w, i) => !used[i] && MONEY.has(w)) || raw.some((w) => MONEY.has(w)));
  const moneyAt = ws.findIndex((w, i) => MONEY.has(w) || MONEY.has(raw[i]!));
  ws.forEach((w, i) => {
    if (MONEY.has(w) || MONEY.has(raw[i]!)) used[i] = true;
  });
  if (ws.some((w) => w === 'average')) wantsAverage = true;

  // Measures: mentions that can be measures and are not asked to group by.
  const measures: Member[] = [];
  const dimensions: Member[] = [];
  let timeDimension: Member | undefined;
  const cubeMentioned = (cube: string) => cubeMentions.some((c) => c.cube.name === cube);
  const measureMentions = mentions.filter(
    (m) =>
      m.candidates.some((c) => c.kind === 'measure') &&
      (!m.grouping || m.candidates.every((c) => c.kind === 'measure')),
  );
  const dimensionMentions = mentions.filter((m) => !measureMentions.includes(m));
  // A number dimension named where a measure is expected ("the highest amount") means its measure.
  for (const m of dimensionMentions.filter((x) => !x.grouping)) {
    const numeric = m.candidates.filter((c) => c.kind === 'dimension' && c.type === 'number');
    if (numeric.length === 0 || m.candidates.some((c) => c.type !== 'number')) continue;
    const word = ws.slice(m.start, m.end);
    const related = all.filter((x) => x.kind === 'measure' && word.every((w) => x.words.has(w)));
    if (related.length) {
      measureMentions.push({ ...m, candidates: related });
      dimensionMentions.splice(dimensionMentions.indexOf(m), 1);
    }
  }
  const pickAgg = (cands: Member[]) => {
    const pool = cands.filter((c) => c.kind === 'measure');
    if (wantsAverage)
      return pool.filter((c) => c.aggType === 'avg').length ? pool.filter((c) => c.aggType === 'avg') : pool;
    if (wantsCount) {
      const counts = pool.filter((c) => c.aggType === 'count' || c.aggType === 'countDistinct');
      if (counts.length) return counts;
    }
    const sums = pool.filter((c) => c.aggType === 'sum');
    return sums.length ? [...sums, ...pool.filter((c) => c.aggType !== 'sum')] : pool;
  };
  const preferCube = (cands: Member[], cubes: string[]) => {
    for (const c of cubes) {
      const hit = cands.find((x) => x.cube === c);
      if (hit) return hit;
    }
    return undefined;
  };

  // Dimensions first (they decide between "count" of orders and "count" of customers).
  for (const m of dimensionMentions) {
    const cands = m.candidates.filter((c) => c.kind === 'dimension');
    if (!cands.length) continue;
    const inMentioned = cands.filter((c) => cubeMentioned(c.cube));
    const pick =
      preferCube(
        cands,
        measureMentions.flatMap((x) => x.candidates.map((c) => c.cube)),
      ) ??
      (inMentioned[0] && cands.length > 1 ? inMentioned[0] : undefined) ??
      cands[0]!;
    if (pick.type === 'time') timeDimension ??= pick;
    else if (!dimensions.includes(pick)) dimensions.push(pick);
  }
  // "by customer", "which product": a cube named where a dimension is expected means its label.
  for (const c of cubeMentions) {
    if (!c.grouping) continue;
    const label = labelOf(c.cube);
    if (label && !dimensions.includes(label)) dimensions.push(label);
  }
  const dimensionCubes = dimensions.map((d) => d.cube);

  for (const m of measureMentions) {
    let cands = pickAgg(m.candidates);
    if (cands.length > 1) {
      // Ties ("count"): the cube the question names, else the dimensions' cube.
      const named = cubeMentions.filter((c) => !c.grouping).map((c) => c.cube.name);
      const pick = preferCube(cands, [...named, ...dimensionCubes]);
      cands = pick ? [pick] : cands;
    }
    const pick = cands[0];
    if (pick && !measures.includes(pick)) measures.push(pick);
  }
  const counted = cubeMentions.filter((c) => !c.grouping);
  // Money words ("revenue", "sales") mean the model's currency measure: a sum, an average when asked.
  if (money && !measures.some((x) => x.format === 'currency')) {
    const reachable = (cube: string) => joinable(catalog, [cube, ...dimensionCubes]);
    const pool = pickAgg(
      all.filter(
        (x) =>
          x.kind === 'measure' && (x.format === 'currency' || x.words.has('revenue')) && reachable(x.cube),
      ),
    );
    const best = pool.filter((x) => x.aggType === pool[0]?.aggType);
    const pick = preferCube(best, [...counted.map((c) => c.cube.name), ...dimensionCubes]) ?? best[0];
    // In the question's order: "revenue and order count" charts revenue first.
    const first = measureMentions[0]?.start ?? Infinity;
    if (pick) {
      if (moneyAt < first) measures.unshift(pick);
      else measures.push(pick);
    }
  }
  if (measures.length === 0) {
    // "How many orders", "orders by status", "which status is most common": a count.
    const cube =
      counted[0]?.cube ??
      catalog.cubes.find((c) => c.name === dimensionCubes[0]) ??
      (timeDimension ? catalog.cubes.find((c) => c.name === timeDimension!.cube) : undefined);
    // "How many distinct customers ordered": a distinct count of that cube's rows, where another
    // cube declares one ("orders.customer_count"); else the cube's own count.
    const distinct =
      wantsDistinct && cube
        ? all.find(
            (x) =>
              x.kind === 'measure' &&
              x.aggType === 'countDistinct' &&
              x.cube !== cube.name &&
              [...cube.words].some((w) => x.words.has(w)) &&
              joinable(catalog, [x.cube, ...dimensionCubes, ...(timeDimension ? [timeDimension.cube] : [])]),
          )
        : undefined;
    const count = distinct ?? (cube ? countOf(cube) : undefined);
    if (count && (wantsCount || counted.length || dimensions.length || direction || timeDimension))
      measures.push(count);
  }

  // Words that matched nothing: a question about something the model does not have.
  const unknown = ws.filter(
    (w, i) => !used[i] && !STOP.has(w) && !MEMBER_WORDS.has(w) && !/^\d+$/.test(w) && w !== 'average',
  );
  const groupingUnknown = ws.some(
    (w, i) =>
      !used[i] &&
      !STOP.has(w) &&
      ws.slice(Math.max(0, i - 2), i).some((b) => GROUPING_BEFORE.has(b) && b !== 'what'),
  );
  if (measures.length === 0 && dimensions.length === 0) {
    return {
      kind: 'refusal',
      reason: unknown.length
        ? `nothing in the data model matches "${unknown.slice(0, 4).join(' ')}"`
        : 'the question names no measure or dimension of the data model',
    };
  }
  if (groupingUnknown && unknown.length) {
    return {
      kind: 'refusal',
      reason: `the data model has no dimension matching "${unknown.slice(0, 3).join(' ')}"`,
    };
  }
  if (measures.length === 0) {
    // Only dimensions: count the rows of their cube per value.
    const cube = catalog.cubes.find((c) => c.name === dimensions[0]!.cube);
    const count = cube ? countOf(cube) : undefined;
    if (count) measures.push(count);
  }

  const cubesUsed = [...measures, ...dimensions, ...filters.map((f) => f.member)].map((m) => m.cube);
  if (!joinable(catalog, cubesUsed)) {
    const names = [...new Set(cubesUsed)];
    return {
      kind: 'refusal',
      reason: `the data model has no join between ${names.map((n) => `"${catalog.cubes.find((c) => c.name === n)?.title ?? n}"`).join(' and ')}`,
    };
  }

  // Time: a grain or a range needs the time dimension of the measure's cube (or a joined one).
  let timePlan: TimePlan | undefined;
  const wantsTime = time.grain !== undefined || time.trend || time.range !== undefined || timeDimension;
  if (wantsTime) {
    const dim =
      timeDimension ??
      timeOf(catalog.cubes.find((c) => c.name === measures[0]!.cube)) ??
      catalog.cubes
        .filter((c) => joinable(catalog, [...cubesUsed, c.name]))
        .map((c) => timeOf(c))
        .find(Boolean);
    if (!dim) {
      return {
        kind: 'refusal',
        reason: `"${measures[0]!.title}" has no time dimension to answer by date`,
      };
    }
    const days = time.range
      ? (time.range.to.getTime() - time.range.from.getTime()) / 86_400_000 + 1
      : undefined;
    const grain: Grain | undefined =
      time.grain ??
      (time.trend || timeDimension
        ? days !== undefined && days <= 31
          ? 'day'
          : days !== undefined && days <= 120
            ? 'week'
            : 'month'
        : undefined);
    if (time.range && grain === 'week') {
      // Whole weeks (Monday to Sunday, never past yesterday): a partial first or last week would
      // read as a dip.
      const r = time.range;
      r.from = addDays(r.from, -((r.from.getUTCDay() + 6) % 7));
      const sunday = addDays(r.to, (7 - r.to.getUTCDay()) % 7);
      if (sunday < opts.today) r.to = sunday;
    }
    timePlan = {
      dimension: dim,
      ...(grain ? { granularity: grain } : {}),
      ...(time.range
        ? {
            dateRange: [ymd(time.range.from), ymd(time.range.to)] as [string, string],
            rangeText: time.range.text,
          }
        : {}),
    };
  }

  // Segments ("completed orders") when their words are all in the question.
  const qWords = new Set(words(question));
  const segments = catalog.cubes
    .filter((c) => cubesUsed.includes(c.name))
    .flatMap((c) => c.segments)
    .filter((s) => s.words.length > 0 && s.words.every((w) => qWords.has(w)))
    .filter((s) => !filters.some((f) => f.values.some((v) => s.words.includes(words(v)[0] ?? ''))));

  const intent: Plan['intent'] = timePlan?.granularity
    ? 'trend'
    : dimensions.length === 0
      ? 'total'
      : direction === 'asc'
        ? 'bottom'
        : direction === 'desc' ||
            /\bwhich\b|\bwhat\s+\w+\s+(?:has|have|had|is|are|was|were)\b/.test(question.toLowerCase())
          ? 'top'
          : 'breakdown';
  const order = timePlan?.granularity
    ? { member: `${timePlan.dimension.name}.${timePlan.granularity}`, desc: false }
    : dimensions.length
      ? { member: measures[0]!.name, desc: intent !== 'bottom' }
      : undefined;
  return {
    kind: 'plan',
    measures,
    dimensions,
    ...(timePlan ? { time: timePlan } : {}),
    filters,
    segments: segments.map((s) => ({ name: s.name, title: s.title })),
    ...(order ? { order } : {}),
    limit: topN ?? (timePlan?.granularity ? 1000 : dimensions.length ? 100 : 1),
    intent,
    ...(topN ? { topN } : {}),
  };
}

/** The /v1/load query of a plan. */
export function loadQuery(plan: Plan): LoadQuery {
  const t = plan.time;
  return {
    measures: plan.measures.map((m) => m.name),
    ...(plan.dimensions.length ? { dimensions: plan.dimensions.map((d) => d.name) } : {}),
    ...(t
      ? {
          timeDimensions: [
            {
              dimension: t.dimension.name,
              ...(t.granularity ? { granularity: t.granularity } : {}),
              ...(t.dateRange ? { dateRange: t.dateRange } : {}),
            },
          ],
        }
      : {}),
    ...(plan.filters.length
      ? {
          filters: plan.filters.map((f) => ({
            member: f.member.name,
            operator: f.operator,
            values: f.values,
          })),
        }
      : {}),
    ...(plan.segments.length ? { segments: plan.segments.map((s) => s.name) } : {}),
    ...(plan.order
      ? { order: [[plan.order.member, plan.order.desc ? 'desc' : 'asc']] as [string, 'asc' | 'desc'][] }
      : {}),
    limit: plan.limit,
    total: true,
  };
}
