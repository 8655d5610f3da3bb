// The shapes of the sandbox's semantic model (cubes, members, segments, pre-aggregations). Apart
// from model.ts so the compiler that builds a model from files can name them without importing it.

export type MemberType = 'number' | 'string' | 'time' | 'boolean';

export interface MemberDef {
  cube: string;
  name: string; // short name
  title: string;
  shortTitle: string;
  type: MemberType;
  /** Only when the cube file gives one (the engine invents none). */
  description?: string;
  /** Listed in /v1/meta and allowed in results: `public`/`shown`, false by default for primary keys. */
  visible?: boolean;
  primaryKey?: boolean;
  /** Measures: `drill_members`, as full member names. */
  drillMembers?: string[];
  /** The member's `sql` as written in the cube file (extended /v1/meta). */
  source?: string;
  /** The measure type as the engine names it (`count`, `sum`, `countDistinct`, ...). */
  aggType?: string;
  /** `meta` of the cube file, passed through. */
  meta?: Record<string, unknown>;
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

export interface SegmentDef {
  name: string;
  /** The segment's own title (its short title); /v1/meta prefixes the cube's title. */
  title: string;
  sql: string;
  description?: string;
  visible?: boolean;
  /** As written in the cube file. */
  source?: string;
}

/** A rollup declared in `pre_aggregations` (members as full names). */
export interface PreAggregationDef {
  name: string;
  type: string;
  measures: string[];
  dimensions: string[];
  timeDimension?: string;
  granularity?: Granularity;
  /** The references as written (extended /v1/meta). */
  source: { measures?: string; dimensions?: string; timeDimension?: string };
}

export interface CubeDef {
  name: string;
  title: string;
  description: string;
  measures: MemberDef[];
  dimensions: MemberDef[];
  segments: SegmentDef[];
  /** The sample table the cube reads (`orders`, `customers`, `products`); the cube's name if absent. */
  table?: string;
  /** Declared joins (a query over several cubes needs them). */
  joins?: { name: string; relationship: string }[];
  /** The join conditions as written, by joined cube (extended /v1/meta). */
  joinSql?: Record<string, string>;
  /** The cube file it was declared in. */
  fileName?: string;
  preAggregations?: PreAggregationDef[];
}

export const GRANULARITIES = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type Granularity = (typeof GRANULARITIES)[number];
