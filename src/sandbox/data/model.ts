// The sandbox's semantic model: cubes over the sample tables, compiled from cube files
// (../build/seedModel.ts is the sample model; each branch of a deployment compiles its own). Each
// member knows its SQL for /v1/load (over the aliased base tables o, c, p) and, for measures, its
// aggregate over the cube's view for /v1/cubesql's MEASURE().
import { compileModel } from '../build/compiler';
import { SEED_FILES } from '../build/seedModel';

export * from './modelTypes';
import type { CubeDef, MemberDef } from './modelTypes';

/** A compiled model: member lookup, the /v1/meta answer, and the join check of load queries. */
export class Model {
  private readonly byName = new Map<string, { member: MemberDef; kind: 'measure' | 'dimension' }>();
  /**
   * @param source The FROM of every query of this model, when it is not the sample tables (the
   *   model of a rollup's table, rollups.ts).
   */
  constructor(
    readonly cubes: CubeDef[],
    readonly source?: string,
  ) {
    for (const cube of cubes) {
      for (const x of cube.measures)
        this.byName.set(`${cube.name}.${x.name}`, { member: x, kind: 'measure' });
      for (const x of cube.dimensions)
        this.byName.set(`${cube.name}.${x.name}`, { member: x, kind: 'dimension' });
    }
  }

  findMember(name: string): { member: MemberDef; kind: 'measure' | 'dimension' } | undefined {
    return this.byName.get(name);
  }

  findSegment(name: string): { cube: string; sql: string } | undefined {
    const [cube, seg] = name.split('.');
    const s = this.cubes.find((c) => c.name === cube)?.segments.find((x) => x.name === seg);
    return s ? { cube: cube!, sql: s.sql } : undefined;
  }

  /** The sample table of a cube. */
  tableOf(cube: string): string {
    return this.cubes.find((c) => c.name === cube)?.table ?? cube;
  }

  /**
   * A query over several cubes needs one of them to declare joins to all the others (the join SQL
   * itself is fixed: the sample tables relate in one way only). An error sentence otherwise.
   */
  joinProblem(cubes: ReadonlySet<string>): string | undefined {
    if (cubes.size < 2) return undefined;
    const names = [...cubes];
    const root = this.cubes.find(
      (c) => cubes.has(c.name) && names.every((n) => n === c.name || c.joins?.some((j) => j.name === n)),
    );
    return root ? undefined : `Can't find join path to join ${names.map((n) => `'${n}'`).join(', ')}`;
  }

  meta(extended: boolean): unknown {
    return metaOf(this, extended);
  }

  /** Drill members split into measures and dimensions, as the engine groups them. */
  drillGrouped(names: readonly string[]): { measures: string[]; dimensions: string[] } {
    return {
      measures: names.filter((n) => this.byName.get(n)?.kind === 'measure'),
      dimensions: names.filter((n) => this.byName.get(n)?.kind === 'dimension'),
    };
  }
}

let seeded: Model | undefined;
/** The sample model, compiled from the seed cube files (once). */
export function defaultModel(): Model {
  if (!seeded) {
    const { cubes, errors } = compileModel(SEED_FILES);
    if (errors.length) throw new Error(`The sandbox's sample model does not compile: ${errors[0]!.message}`);
    seeded = new Model(cubes);
  }
  return seeded;
}

export function findMember(name: string): { member: MemberDef; kind: 'measure' | 'dimension' } | undefined {
  return defaultModel().findMember(name);
}

export function findSegment(name: string): { cube: string; sql: string } | undefined {
  return defaultModel().findSegment(name);
}

/** The /v1/meta answer of the sample model. */
export function meta(extended: boolean): unknown {
  return defaultModel().meta(extended);
}

/** The d3 format the engine describes a numeric member's format with (formatDescription). */
export function formatDescription(format: string | undefined): { name: string; specifier: string } {
  switch (format) {
    case 'currency':
      return { name: 'currency', specifier: '$,.2~f' };
    case 'percent':
      return { name: 'percent', specifier: '.2~%' };
    case 'id':
      return { name: 'id', specifier: '.0f' };
    default:
      return { name: 'number', specifier: ',.2~f' };
  }
}

/** The join graph's connected component of each cube, numbered like the engine's (from 1). */
function connectedComponents(cubes: CubeDef[]): Map<string, number> {
  const links = new Map<string, Set<string>>();
  const link = (a: string, b: string) => {
    if (!links.has(a)) links.set(a, new Set());
    links.get(a)!.add(b);
  };
  for (const c of cubes)
    for (const j of c.joins ?? []) {
      link(c.name, j.name);
      link(j.name, c.name);
    }
  const out = new Map<string, number>();
  let id = 1;
  // Components are numbered from the cubes that declare joins, in order; a cube without any join
  // has none (the engine leaves it out).
  for (const c of cubes) {
    if (!c.joins?.length) continue;
    const stack = [c.name];
    while (stack.length) {
      const n = stack.pop()!;
      if (out.has(n)) continue;
      out.set(n, id);
      for (const m of links.get(n) ?? []) stack.push(m);
    }
    id++;
  }
  return out;
}

/** True for a member that /v1/meta lists and results may carry. */
export const isVisible = (m: { visible?: boolean }) => m.visible !== false;

function metaOf(model: Model, extended: boolean): unknown {
  const cubes = model.cubes;
  const components = connectedComponents(cubes);
  const measure = (x: MemberDef) => ({
    name: `${x.cube}.${x.name}`,
    title: x.title,
    ...(x.description !== undefined ? { description: x.description } : {}),
    shortTitle: x.shortTitle,
    ...(x.format ? { format: x.format } : {}),
    formatDescription: formatDescription(x.format),
    cumulativeTotal: false,
    cumulative: false,
    type: x.type,
    aggType: x.aggType ?? x.agg ?? x.type,
    drillMembers: x.drillMembers ?? [],
    drillMembersGrouped: model.drillGrouped(x.drillMembers ?? []),
    ...(x.meta ? { meta: x.meta } : {}),
    isVisible: true,
    public: true,
    ...(extended && x.source !== undefined ? { sql: x.source } : {}),
  });
  const dimension = (x: MemberDef) => ({
    name: `${x.cube}.${x.name}`,
    title: x.title,
    type: x.type,
    ...(x.description !== undefined ? { description: x.description } : {}),
    shortTitle: x.shortTitle,
    suggestFilterValues: true,
    ...(x.format ? { format: x.format } : {}),
    // Dimensions describe their format only when they are numbers.
    ...(x.type === 'number' ? { formatDescription: formatDescription(x.format) } : {}),
    ...(x.meta ? { meta: x.meta } : {}),
    isVisible: true,
    public: true,
    primaryKey: x.primaryKey === true,
    ...(extended && x.source !== undefined ? { sql: x.source } : {}),
  });
  return {
    // Hidden members (primary keys unless shown) are not listed; a cube left with none is dropped.
    cubes: cubes
      .map((c) => ({
        name: c.name,
        type: 'cube',
        title: c.title,
        isVisible: true,
        public: true,
        ...(c.description ? { description: c.description } : {}),
        ...(components.has(c.name) ? { connectedComponent: components.get(c.name) } : {}),
        measures: c.measures.filter(isVisible).map(measure),
        dimensions: c.dimensions.filter(isVisible).map(dimension),
        segments: c.segments.filter(isVisible).map((s) => ({
          name: `${c.name}.${s.name}`,
          title: `${c.title} ${s.title}`,
          shortTitle: s.title,
          ...(s.description !== undefined ? { description: s.description } : {}),
          isVisible: true,
          public: true,
          ...(extended ? { sql: s.source ?? s.sql } : {}),
        })),
        hierarchies: [],
        folders: [],
        nestedFolders: [],
        ...(extended
          ? {
              fileName: c.fileName,
              joins: (c.joins ?? []).map((j) => ({
                ...j,
                ...(c.joinSql?.[j.name] ? { sql: c.joinSql[j.name] } : {}),
              })),
              preAggregations: (c.preAggregations ?? []).map((p) => ({
                name: p.name,
                type: p.type,
                ...(p.granularity ? { granularity: p.granularity } : {}),
                ...(p.source.measures ? { measureReferences: p.source.measures } : {}),
                ...(p.source.dimensions ? { dimensionReferences: p.source.dimensions } : {}),
                ...(p.source.timeDimension ? { timeDimensionReference: p.source.timeDimension } : {}),
                scheduledRefresh: true,
              })),
            }
          : {}),
      }))
      .filter((c) => c.measures.length || c.dimensions.length || c.segments.length),
  };
}
