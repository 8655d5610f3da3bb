// The sandbox's semantic model: three cubes over the sample tables. Each member knows its SQL for
// /v1/load (over the aliased base tables o, c, p) and, for measures, its aggregate over the cube's
// view for /v1/cubesql's MEASURE().

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
}

const m = (
  cube: string,
  name: string,
  title: string,
  type: MemberType,
  sql: string,
  extra: Partial<MemberDef> = {},
): MemberDef => ({
  cube,
  name,
  title,
  shortTitle: title.replace(/^(Orders|Customers|Products) /, ''),
  type,
  sql,
  description: extra.description ?? title,
  ...extra,
});

export const CUBES: CubeDef[] = [
  {
    name: 'orders',
    title: 'Orders',
    description: 'One row per order placed in the shop.',
    measures: [
      m('orders', 'count', 'Orders Count', 'number', '*', {
        agg: 'count',
        viewAgg: 'COUNT(*)',
        description: 'Number of orders.',
      }),
      m('orders', 'total_amount', 'Orders Total Amount', 'number', 'o.amount', {
        agg: 'sum',
        viewAgg: 'SUM(amount)',
        format: 'currency',
        description: 'Sum of order amounts (USD).',
      }),
      m('orders', 'avg_amount', 'Orders Average Amount', 'number', 'o.amount', {
        agg: 'avg',
        viewAgg: 'AVG(amount)',
        format: 'currency',
        description: 'Average order amount (USD).',
      }),
      m('orders', 'customer_count', 'Orders Customer Count', 'number', 'o.customer_id', {
        agg: 'countDistinct',
        viewAgg: 'COUNT(DISTINCT customer_id)',
        description: 'Distinct customers who ordered.',
      }),
      m('orders', 'slow_count', 'Orders Slow Count', 'number', '*', {
        agg: 'count',
        viewAgg: 'COUNT(*)',
        slow: true,
        description: 'Like count, but computed slowly: demonstrates long polling ("Continue wait").',
      }),
    ],
    dimensions: [
      m('orders', 'id', 'Orders Id', 'number', 'o.id', { description: 'Order id.' }),
      m('orders', 'status', 'Orders Status', 'string', 'o.status', {
        description: 'new, processing, shipped, completed or canceled.',
      }),
      m('orders', 'created_at', 'Orders Created At', 'time', 'o.created_at', {
        description: 'When the order was placed.',
      }),
      m('orders', 'amount', 'Orders Amount', 'number', 'o.amount', { description: 'Order amount (USD).' }),
    ],
    segments: [{ name: 'completed', title: 'Completed orders', sql: "o.status = 'completed'" }],
  },
  {
    name: 'customers',
    title: 'Customers',
    description: 'People and companies who buy from the shop.',
    measures: [
      m('customers', 'count', 'Customers Count', 'number', 'c.id', {
        agg: 'countDistinct',
        viewAgg: 'COUNT(*)',
        description: 'Number of customers.',
      }),
    ],
    dimensions: [
      m('customers', 'id', 'Customers Id', 'number', 'c.id'),
      m('customers', 'name', 'Customers Name', 'string', 'c.name'),
      m('customers', 'city', 'Customers City', 'string', 'c.city'),
      m('customers', 'country', 'Customers Country', 'string', 'c.country'),
      m('customers', 'segment', 'Customers Segment', 'string', 'c.segment', {
        description: 'Consumer, Small Business or Enterprise.',
      }),
    ],
    segments: [{ name: 'enterprise', title: 'Enterprise customers', sql: "c.segment = 'Enterprise'" }],
  },
  {
    name: 'products',
    title: 'Products',
    description: 'The catalogue.',
    measures: [
      m('products', 'count', 'Products Count', 'number', 'p.id', {
        agg: 'countDistinct',
        viewAgg: 'COUNT(*)',
        description: 'Number of products.',
      }),
      m('products', 'avg_price', 'Products Average Price', 'number', 'p.price', {
        agg: 'avg',
        viewAgg: 'AVG(price)',
        format: 'currency',
      }),
    ],
    dimensions: [
      m('products', 'id', 'Products Id', 'number', 'p.id'),
      m('products', 'name', 'Products Name', 'string', 'p.name'),
      m('products', 'category', 'Products Category', 'string', 'p.category'),
      m('products', 'price', 'Products Price', 'number', 'p.price'),
    ],
    segments: [],
  },
];

export const GRANULARITIES = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

const byName = new Map<string, { member: MemberDef; kind: 'measure' | 'dimension' }>();
for (const cube of CUBES) {
  for (const x of cube.measures) byName.set(`${cube.name}.${x.name}`, { member: x, kind: 'measure' });
  for (const x of cube.dimensions) byName.set(`${cube.name}.${x.name}`, { member: x, kind: 'dimension' });
}

export function findMember(name: string): { member: MemberDef; kind: 'measure' | 'dimension' } | undefined {
  return byName.get(name);
}

export function findSegment(name: string): { cube: string; sql: string } | undefined {
  const [cube, seg] = name.split('.');
  const s = CUBES.find((c) => c.name === cube)?.segments.find((x) => x.name === seg);
  return s ? { cube: cube!, sql: s.sql } : undefined;
}

/** The /v1/meta answer. */
export function meta(extended: boolean): unknown {
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
    cubes: CUBES.map((c) => ({
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
            joins:
              c.name === 'orders'
                ? [
                    { name: 'customers', relationship: 'many_to_one' },
                    { name: 'products', relationship: 'many_to_one' },
                  ]
                : [],
          }
        : {}),
    })),
    compilerId: 'sandbox-compiler-1',
  };
}
