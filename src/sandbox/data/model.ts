// The sandbox's semantic model: cubes over the sample tables, compiled from cube files
// (../build/seedModel.ts is the sample model; each branch of a deployment compiles its own). Each
// member knows its SQL for /v1/load (over the aliased base tables o, c, p) and, for measures, its
// aggregate over the cube's view for /v1/cubesql's MEASURE().
import { compileModel } from '../build/compiler';
import { SEED_FILES } from '../build/seedModel';

export type MemberType = 'number' | 'string' | 'time' | 'boolean';

export interface MemberDef {
  cube: string;
  name: string; // short name
  title: string;
  shortTitle: string;
  type: MemberType;
  description: string;
  /** SQL over the load query's aliased tables. */
  sql: string;
  /** Measures: the aggregate in load queries, over `sql`. */
  agg?: 'count' | 'sum' | 'avg' | 'countDistinct' | 'max' | 'min';
  /** Measures: the aggregate over the cube view's columns (cubesql MEASURE()). */
  viewAgg?: string;
  format?: string;
  /** Queries with this member answer "Continue wait" for a while (tests and demos of long polling). */
  slow?: boolean;
}

export interface CubeDef {
  name: string;
  title: string;
  description: string;
  measures: MemberDef[];
  dimensions: MemberDef[];
  segments: { name: string; title: string; sql: string }[];
  /** The sample table the cube reads (`orders`, `customers`, `products`); the cube's name if absent. */
  table?: string;
  /** Declared joins (a query over several cubes needs them). */
  joins?: { name: string; relationship: string }[];
}

export const GRANULARITIES = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** A compiled model: member lookup, the /v1/meta answer, and the join check of load queries. */
export class Model {
  private readonly byName = new Map<string, { member: MemberDef; kind: 'measure' | 'dimension' }>();
  constructor(readonly cubes: CubeDef[]) {
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
    return root ? undefined : `Can't find join path to join ${names.map((n) => `'${n}'`).join(', ')}.`;
  }

  meta(extended: boolean): unknown {
    return metaOf(this.cubes, extended);
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

function metaOf(cubes: CubeDef[], extended: boolean): unknown {
  const member = (x: MemberDef, kind: 'measure' | 'dimension') => ({
    name: `${x.cube}.${x.name}`,
    title: x.title,
    shortTitle: x.shortTitle,
    type: x.type,
    description: x.description,
    ...(kind === 'measure' ? { aggType: x.agg, cumulative: false } : {}),
    ...(x.format ? { format: x.format } : {}),
    ...(x.type === 'time'
      ? {
          granularities: GRANULARITIES.filter((g) => !['second', 'minute'].includes(g)).map((g) => ({
            name: g,
            title: g[0]!.toUpperCase() + g.slice(1),
          })),
        }
      : {}),
    isVisible: true,
    public: true,
    ...(extended ? { sql: x.sql } : {}),
  });
  return {
    cubes: cubes.map((c) => ({
      name: c.name,
      title: c.title,
      description: c.description,
      type: 'cube',
      public: true,
      isVisible: true,
      measures: c.measures.map((x) => member(x, 'measure')),
      dimensions: c.dimensions.map((x) => member(x, 'dimension')),
      segments: c.segments.map((s) => ({
        name: `${c.name}.${s.name}`,
        title: s.title,
        shortTitle: s.title,
        ...(extended ? { sql: s.sql } : {}),
      })),
      folders: [],
      ...(extended
        ? {
            joins: c.joins ?? [],
          }
        : {}),
    })),
    compilerId: 'sandbox-compiler-1',
  };
}
