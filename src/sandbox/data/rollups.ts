// Rollups declared in a model's `pre_aggregations`, really built as tables of the engine and used
// the way the engine matches them: a query whose members are all in a rollup, whose measures are
// additive (count, sum, min, max; others only at the rollup's exact grain), whose time dimension
// is the rollup's with a granularity and a date range the rollup's granularity divides, and which
// has no segment and is not ungrouped, is answered from the rollup's table. Its result names the
// rollup in `usedPreAggregations` and its `lastRefreshTime` is the rollup's build time.
import { createHash } from 'node:crypto';
import { alignedTo } from './dates';
import type { DataEngine } from './engine';
import { compileLoad, type RollupUse } from './load';
import {
  GRANULARITIES,
  Model,
  type CubeDef,
  type Granularity,
  type MemberDef,
  type PreAggregationDef,
} from './model';
import { normalizeQuery, type NormalizedFilter, type NormalizedQuery } from './normalize';

export interface BuiltRollup {
  def: PreAggregationDef;
  /** The cube that declares it. */
  cube: string;
  /** The engine table that holds it. */
  table: string;
  use: RollupUse;
  /** The members of the rollup, read from its table. */
  model: Model;
}

/** Measure types a rollup can aggregate further (sum of counts, min of mins, ...). */
const ADDITIVE: Record<string, MemberDef['agg']> = { count: 'sum', sum: 'sum', min: 'min', max: 'max' };

/** Granularities a query granularity can be computed from (finer ones that divide it). */
const FINER: Record<Granularity, Granularity[]> = {
  year: ['year', 'quarter', 'month', 'day', 'hour', 'minute', 'second'],
  quarter: ['quarter', 'month', 'day', 'hour', 'minute', 'second'],
  month: ['month', 'day', 'hour', 'minute', 'second'],
  week: ['week', 'day', 'hour', 'minute', 'second'],
  day: ['day', 'hour', 'minute', 'second'],
  hour: ['hour', 'minute', 'second'],
  minute: ['minute', 'second'],
  second: ['second'],
};

/** Models whose rollups each engine has built, most recent last (their tables dropped when evicted). */
const built = new WeakMap<DataEngine, Map<Model, BuiltRollup[]>>();
const MODELS_PER_ENGINE = 8;

/**
 * The rollups of `model` on `engine`, built on first use (as a refresh worker would have built
 * them when the model was deployed). A rollup that cannot be built is left out.
 */
export function rollupsFor(engine: DataEngine, model: Model): BuiltRollup[] {
  let byModel = built.get(engine);
  if (!byModel) built.set(engine, (byModel = new Map()));
  const hit = byModel.get(model);
  if (hit) return hit;
  const out: BuiltRollup[] = [];
  for (const cube of model.cubes)
    for (const def of cube.preAggregations ?? []) {
      if (def.type !== 'rollup') continue;
      const r = build(engine, model, cube, def);
      if (r) out.push(r);
    }
  byModel.set(model, out);
  if (byModel.size > MODELS_PER_ENGINE) {
    const [oldest, rollups] = byModel.entries().next().value!;
    byModel.delete(oldest);
    for (const r of rollups) engine.db.run(`DROP TABLE IF EXISTS "${r.table}"`);
  }
  return out;
}

function build(
  engine: DataEngine,
  model: Model,
  cube: CubeDef,
  def: PreAggregationDef,
): BuiltRollup | undefined {
  const query = normalizeQuery(
    {
      measures: def.measures,
      dimensions: def.dimensions,
      ...(def.timeDimension
        ? { timeDimensions: [{ dimension: def.timeDimension, granularity: def.granularity }] }
        : {}),
    },
    { now: new Date() },
  );
  let compiled;
  try {
    compiled = compileLoad(query, engine, model, { unlimited: true });
  } catch {
    return undefined;
  }
  const version = createHash('sha1').update(compiled.sql).digest('hex').slice(0, 8);
  const builtAt = Date.now();
  const name = `${cube.name}_${def.name}_${version}_${builtAt.toString(36)}`;
  const table = `rollup_${name}`;
  engine.db.run(`DROP TABLE IF EXISTS "${table}"`);
  engine.db.run(`CREATE TABLE "${table}" AS ${compiled.sql}`, compiled.params);
  // The rollup's members read its columns; measures aggregate them again.
  const members = new Map<string, MemberDef>();
  for (const c of compiled.columns) {
    const sql = `r."${c.key}"`;
    if (c.kind === 'measure')
      members.set(c.key, {
        ...c.member,
        sql,
        agg: ADDITIVE[c.member.agg ?? ''] ?? 'max',
        viewAgg: undefined,
      });
    else members.set(`${c.member.cube}.${c.member.name}`, { ...c.member, sql });
  }
  const cubes = model.cubes
    .filter((c) => [...members.values()].some((m) => m.cube === c.name))
    .map((c) => ({
      ...c,
      measures: c.measures.flatMap((m) => members.get(`${c.name}.${m.name}`) ?? []),
      dimensions: c.dimensions.flatMap((m) => members.get(`${c.name}.${m.name}`) ?? []),
      segments: [],
      preAggregations: [],
    }));
  return {
    def,
    cube: cube.name,
    table,
    use: {
      table: `prod_pre_aggregations.${name}`,
      preAggregationId: `${cube.name}.${def.name}`,
      lastUpdatedAt: builtAt,
    },
    model: new Model(cubes, `"${table}" r`),
  };
}

function filterMembers(filters: NormalizedFilter[], into: string[] = []): string[] {
  for (const f of filters) {
    if (f.and) filterMembers(f.and, into);
    else if (f.or) filterMembers(f.or, into);
    else if (f.member) into.push(f.member);
  }
  return into;
}

/** The first rollup that can answer `q` exactly, if any. */
export function matchRollup(
  q: NormalizedQuery,
  model: Model,
  rollups: BuiltRollup[],
): BuiltRollup | undefined {
  if (q.ungrouped || q.segments?.length) return undefined;
  return rollups.find((r) => canUse(q, model, r.def));
}

function canUse(q: NormalizedQuery, model: Model, def: PreAggregationDef): boolean {
  const filtered = filterMembers(q.filters);
  const measures = [
    ...(q.measures ?? []),
    ...filtered.filter((m) => model.findMember(m)?.kind === 'measure'),
  ];
  const dimensions = [...q.dimensions, ...filtered.filter((m) => model.findMember(m)?.kind !== 'measure')];
  if (!measures.every((m) => def.measures.includes(m))) return false;
  if (!dimensions.every((d) => def.dimensions.includes(d))) return false;
  const g = def.granularity;
  for (const td of q.timeDimensions) {
    if (td.dimension !== def.timeDimension || !g) return false;
    if (td.granularity && !(GRANULARITIES as readonly string[]).includes(td.granularity)) return false;
    if (td.granularity && !FINER[td.granularity as Granularity].includes(g)) return false;
    if (td.dateRange && !alignedTo(td.dateRange, g)) return false;
  }
  const additive = measures.every((m) => ADDITIVE[model.findMember(m)?.member.agg ?? ''] !== undefined);
  if (additive) return true;
  // Averages and distinct counts cannot be aggregated again: only the rollup's own grain serves them.
  const grouped = q.timeDimensions.filter((td) => td.granularity);
  return (
    new Set(dimensions).size === def.dimensions.length &&
    (def.timeDimension ? grouped.length === 1 && grouped[0]!.granularity === g : grouped.length === 0)
  );
}
