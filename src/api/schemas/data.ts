// Data API wire shapes (load, cubesql, meta). Loose objects: fields the live service adds are kept.
import { z } from 'zod';

export const CACHE_MODES = [
  'stale-if-slow',
  'stale-while-revalidate',
  'must-revalidate',
  'no-cache',
] as const;

/** The filter operators of /v1/load queries (wire format). */
export const LOAD_FILTER_OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'notStartsWith',
  'endsWith',
  'notEndsWith',
  'gt',
  'gte',
  'lt',
  'lte',
  'set',
  'notSet',
  'inDateRange',
  'notInDateRange',
  'beforeDate',
  'beforeOrOnDate',
  'afterDate',
  'afterOrOnDate',
  'measureFilter',
] as const;

export const LoadFilterSchema: z.ZodType<LoadFilter> = z.lazy(() =>
  z.union([
    z.looseObject({ or: z.array(LoadFilterSchema) }),
    z.looseObject({ and: z.array(LoadFilterSchema) }),
    z.looseObject({
      member: z.string().optional(),
      dimension: z.string().optional(),
      operator: z.string(),
      values: z.array(z.string()).optional(),
    }),
  ]),
);
export type LoadFilter =
  | { or: LoadFilter[]; [k: string]: unknown }
  | { and: LoadFilter[]; [k: string]: unknown }
  | { member?: string; dimension?: string; operator: string; values?: string[]; [k: string]: unknown };

export const TimeDimensionSchema = z.looseObject({
  dimension: z.string(),
  granularity: z.string().optional(),
  dateRange: z.union([z.string(), z.array(z.string())]).optional(),
  compareDateRange: z.array(z.union([z.string(), z.array(z.string())])).optional(),
});

export const LoadQuerySchema = z.looseObject({
  measures: z.array(z.string()).optional(),
  dimensions: z.array(z.string()).optional(),
  segments: z.array(z.string()).optional(),
  timeDimensions: z.array(TimeDimensionSchema).optional(),
  filters: z.array(LoadFilterSchema).optional(),
  order: z
    .union([
      z.record(z.string(), z.enum(['asc', 'desc'])),
      z.array(z.tuple([z.string(), z.enum(['asc', 'desc'])])),
    ])
    .optional(),
  limit: z.number().int().optional(),
  offset: z.number().int().optional(),
  total: z.boolean().optional(),
  ungrouped: z.boolean().optional(),
  timezone: z.string().optional(),
  responseFormat: z.enum(['default', 'compact', 'columnar']).optional(),
});
export type LoadQuery = z.infer<typeof LoadQuerySchema>;

export const LoadRequestSchema = z.looseObject({
  queryType: z.literal('multi').optional(),
  query: z.union([LoadQuerySchema, z.array(LoadQuerySchema)]),
  cache: z.enum(['stale-if-slow', 'stale-while-revalidate', 'must-revalidate', 'no-cache']).optional(),
});

/** The published V1LoadRequestQuery keys: a query with any other top-level field is not sent. */
export const LoadQueryWireSchema = z.strictObject({
  measures: z.array(z.string()).optional(),
  dimensions: z.array(z.string()).optional(),
  segments: z.array(z.string()).optional(),
  timeDimensions: z.array(z.looseObject({ dimension: z.string() })).optional(),
  order: z.array(z.array(z.string())).optional(),
  limit: z.number().int().optional(),
  offset: z.number().int().optional(),
  filters: z.array(z.record(z.string(), z.unknown())).optional(),
  ungrouped: z.boolean().optional(),
  subqueryJoins: z.array(z.looseObject({ sql: z.string() })).optional(),
  joinHints: z.array(z.array(z.string())).optional(),
  timezone: z.string().optional(),
  responseFormat: z.enum(['default', 'compact', 'columnar']).optional(),
});
export const LoadRequestWireSchema = z.strictObject({
  queryType: z.string().optional(),
  cache: z.enum(CACHE_MODES).optional(),
  query: LoadQueryWireSchema,
});
export type LoadRequestWire = z.infer<typeof LoadRequestWireSchema>;

/** What a member's annotation usually holds; the documents publish only "an object", so readers check. */
export const MemberAnnotationSchema = z.looseObject({
  title: z.string().optional(),
  shortTitle: z.string().optional(),
  type: z.string().optional(),
  format: z.unknown().optional(),
  meta: z.unknown().optional(),
});
export type MemberAnnotation = z.infer<typeof MemberAnnotationSchema>;

// The documents publish each group as a bare object: any member map is accepted.
const annotationGroup = z.record(z.string(), z.unknown());
export const AnnotationSchema = z.looseObject({
  measures: annotationGroup,
  dimensions: annotationGroup,
  segments: annotationGroup,
  timeDimensions: annotationGroup,
});

/** A member's annotation when it has the usual shape, else undefined. */
export function memberAnnotation(
  group: Record<string, unknown> | undefined,
  member: string,
): MemberAnnotation | undefined {
  const parsed = MemberAnnotationSchema.safeParse(group?.[member]);
  return parsed.success ? parsed.data : undefined;
}
export type Annotation = z.infer<typeof AnnotationSchema>;

export const LoadResultDataSchema = z.union([
  z.array(z.record(z.string(), z.unknown())),
  z.looseObject({ members: z.array(z.string()), dataset: z.array(z.array(z.unknown())) }),
  z.looseObject({ members: z.array(z.string()), columns: z.array(z.array(z.unknown())) }),
]);

export const LoadResultSchema = z.looseObject({
  query: z.record(z.string(), z.unknown()).optional(),
  data: LoadResultDataSchema,
  annotation: AnnotationSchema,
  lastRefreshTime: z.string().optional(),
  dataSource: z.string().optional(),
  total: z.number().nullable().optional(),
});

/** A rollup (pre-aggregation) that served a result, from its `usedPreAggregations`. */
export interface RollupUsed {
  /** `cube.rollup_name`, or the table when the engine gave no id. */
  id: string;
  /** The table the engine read. */
  table: string;
  /** When the rollup was built, ms since the epoch (the engine sends a number; an ISO text is read too). */
  lastUpdatedAt?: number;
  type?: string;
}

/**
 * The rollups named in a result's `usedPreAggregations` (`{"<table>": {preAggregationId,
 * lastUpdatedAt, type}}`). Read tolerantly: an entry of another shape still names its table.
 */
export function rollupsUsed(result: Record<string, unknown> | undefined): RollupUsed[] {
  const used = result?.usedPreAggregations;
  if (!used || typeof used !== 'object' || Array.isArray(used)) return [];
  return Object.entries(used as Record<string, unknown>).map(([table, raw]) => {
    const u = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const at =
      typeof u.lastUpdatedAt === 'number'
        ? u.lastUpdatedAt
        : typeof u.lastUpdatedAt === 'string'
          ? Date.parse(u.lastUpdatedAt)
          : undefined;
    return {
      id: typeof u.preAggregationId === 'string' && u.preAggregationId ? u.preAggregationId : table,
      table,
      ...(at !== undefined && Number.isFinite(at) ? { lastUpdatedAt: at } : {}),
      ...(typeof u.type === 'string' ? { type: u.type } : {}),
    };
  });
}

export const LoadResponseSchema = z.looseObject({
  queryType: z.string().optional(),
  slowQuery: z.boolean().optional(),
  pivotQuery: z.unknown().optional(),
  results: z.array(LoadResultSchema),
});
export type LoadResponse = z.infer<typeof LoadResponseSchema>;

export const CONTINUE_WAIT = 'Continue wait';

// meta

export const MetaMemberSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  shortTitle: z.string().optional(),
  type: z.string(),
  description: z.string().optional(),
  format: z.unknown().optional(),
  aggType: z.string().optional(),
  public: z.boolean().optional(),
  isVisible: z.boolean().optional(),
  granularities: z.array(z.looseObject({ name: z.string(), title: z.string().optional() })).optional(),
  meta: z.unknown().optional(),
});
export type MetaMember = z.infer<typeof MetaMemberSchema>;

/** How a member's numbers are written: a d3-format specifier and an ISO currency, when known. */
export interface NumberFormat {
  /** e.g. `$,.2~f`, `,.2~f`, `.2~%`. */
  specifier?: string;
  currency?: string;
  /** The format's name (`currency`, `percent`, `number`, or the model's `format` string). */
  name?: string;
}

/**
 * A member's number format from /v1/meta: its `formatDescription` (the engine's resolved d3
 * specifier), else a custom numeric `format`, else the plain format name. Read tolerantly.
 */
export function numberFormatOf(member: {
  format?: unknown;
  formatDescription?: unknown;
  currency?: unknown;
}): NumberFormat | undefined {
  const d = member.formatDescription;
  const out: NumberFormat = {};
  if (d && typeof d === 'object') {
    const fd = d as Record<string, unknown>;
    if (typeof fd.specifier === 'string') out.specifier = fd.specifier;
    if (typeof fd.name === 'string') out.name = fd.name;
    if (typeof fd.currency === 'string') out.currency = fd.currency;
  }
  const f = member.format;
  if (!out.specifier && f && typeof f === 'object') {
    const cf = f as Record<string, unknown>;
    if (cf.type === 'custom-numeric' && typeof cf.value === 'string') out.specifier = cf.value;
  }
  if (typeof f === 'string') out.name = f;
  if (!out.currency && typeof member.currency === 'string') out.currency = member.currency;
  return out.specifier || out.name || out.currency ? out : undefined;
}

export const MetaSegmentSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  shortTitle: z.string().optional(),
  description: z.string().optional(),
});

export const MetaCubeSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  type: z.string().optional(),
  description: z.string().optional(),
  public: z.boolean().optional(),
  measures: z.array(MetaMemberSchema),
  dimensions: z.array(MetaMemberSchema),
  segments: z.array(MetaSegmentSchema).optional().default([]),
  folders: z.array(z.looseObject({ name: z.string(), members: z.array(z.unknown()) })).optional(),
  joins: z.array(z.looseObject({ name: z.string(), relationship: z.string().optional() })).optional(),
});
export type MetaCube = z.infer<typeof MetaCubeSchema>;

export const MetaSchema = z.looseObject({
  cubes: z.array(MetaCubeSchema).optional().default([]),
  compilerId: z.string().optional(),
});
export type Meta = z.infer<typeof MetaSchema>;

// cubesql

export const CubeSqlColumnSchema = z.looseObject({
  name: z.string(),
  column_type: z.string().optional().default(''),
  format: z.string().optional(),
});
export type CubeSqlColumn = z.infer<typeof CubeSqlColumnSchema>;

// Columns as published: name and column_type optional; an unnamed column gets its position.
const CubeSqlColumnsSchema = z
  .array(z.looseObject({ name: z.string().optional(), column_type: z.string().optional() }))
  .transform((cols) =>
    cols.map((c, i) => ({ ...c, name: c.name ?? `column ${i + 1}`, column_type: c.column_type ?? '' })),
  );

export const CubeSqlSchemaLineSchema = z.looseObject({
  schema: CubeSqlColumnsSchema,
  lastRefreshTime: z.string().optional(),
});

/** The published cubesql body: nothing else is sent. */
export const CubeSqlRequestSchema = z.strictObject({
  query: z.string().min(1),
  timezone: z.string().min(1).optional(),
  cache: z.enum(CACHE_MODES).optional(),
});
export type CubeSqlRequest = z.infer<typeof CubeSqlRequestSchema>;

export type CubeSqlChunk =
  { type: 'schema'; schema: CubeSqlColumn[]; lastRefreshTime?: string } | { type: 'rows'; rows: unknown[][] };
