// The Data API engine's behaviour as data: each case is a request and the properties of the answer
// the engine (1.7, the open-source semantic layer the live service runs) gives, point by point of
// issue 29, plus what our client must make of it. engine.contract.test.ts runs every case against
// the sandbox over HTTP and through DataClient, so the sandbox and the clients are held to the
// same list. The seeded model is the sandbox's (src/sandbox/build/seedModel.ts); the clock is
// fixed (ENGINE_CLOCK) so that relative ranges have known ends.

/** The fixed clock of the suite: relative ranges resolve against it. */
export const ENGINE_CLOCK = '2026-11-27T10:30:00.000Z';

export interface EngineRequest {
  method: 'GET' | 'POST';
  /** Relative to the Data API base (/cubejs-api). */
  path: '/v1/load' | '/v1/meta' | '/v1/cubesql';
  /** POST body. */
  body?: unknown;
  /** Query string parameters (objects are JSON-encoded, as the official client sends them). */
  query?: Record<string, unknown>;
  /** The Authorization header: the sandbox's token by default. */
  auth?: 'token' | 'none' | 'bad';
}

/** What the client (DataClient) makes of the answer. */
export interface ClientExpectation {
  /** The query DataClient.load sends (always with queryType "multi"). */
  load?: unknown;
  kind?: string;
  code?: string;
  /** The error message says this (what to change)... */
  message?: RegExp;
  /** ...and never this. */
  notMessage?: RegExp;
  /** The rollups DataClient's result names (rollupsUsed), [] for none. */
  rollups?: string[];
}

export interface EngineCase {
  /** Issue 29's point. */
  point: number;
  name: string;
  request: EngineRequest;
  status: number;
  /** A subset the JSON answer must contain (deep, arrays element by element). */
  subset?: unknown;
  /** Paths that must be absent ("requestId", "annotation/dimensions/customers.name/description"). */
  absent?: string[];
  /** Regular expressions for string fields, by path ("results/0/data/0/orders.avg_amount"). */
  matches?: Record<string, RegExp>;
  /** Texts the raw answer must not contain anywhere (a hidden member's name, say). */
  excludesText?: string[];
  /** The rollup (preAggregationId) that served the first result; null for none. */
  rollup?: string | null;
  client?: ClientExpectation;
}

const load = (query: unknown, queryType?: 'multi'): EngineRequest => ({
  method: 'POST',
  path: '/v1/load',
  body: queryType ? { queryType, query } : { query },
});

const NEVER_RETRY = /try again/i;

export const ENGINE_CASES: EngineCase[] = [
  // 1. Without queryType the engine answers the single result object; with "multi" the envelope.
  {
    point: 1,
    name: 'GET /v1/load without queryType answers the single result',
    request: { method: 'GET', path: '/v1/load', query: { query: { measures: ['orders.count'] } } },
    status: 200,
    subset: { dataSource: 'default', external: false, slowQuery: false, total: null, annotation: {} },
    absent: ['results', 'pivotQuery', 'queryType'],
    matches: { 'data/0/orders.count': /^\d+$/, lastRefreshTime: /^\d{4}-\d{2}-\d{2}T/ },
  },
  {
    point: 1,
    name: 'POST /v1/load without queryType answers the single result',
    request: load({ measures: ['orders.count'] }),
    status: 200,
    absent: ['results', 'pivotQuery'],
    matches: { 'data/0/orders.count': /^\d+$/ },
  },
  {
    point: 1,
    name: 'queryType "multi" answers the envelope, with the pivot query the native builder adds',
    request: load({ measures: ['orders.count'] }, 'multi'),
    status: 200,
    subset: {
      queryType: 'regularQuery',
      slowQuery: false,
      pivotQuery: { measures: ['orders.count'], queryType: 'regularQuery' },
    },
    matches: { 'results/0/data/0/orders.count': /^\d+$/ },
  },
  {
    point: 1,
    name: 'a list of queries without queryType is refused for the client',
    request: load([{ measures: ['orders.count'] }, { measures: ['orders.count'] }]),
    status: 400,
    subset: { error: "'blendingQuery' query type is not supported by the client.Please update the client." },
    absent: ['type', 'requestId'],
  },

  // 2. Rollups declared in the model are built and matched.
  {
    point: 2,
    name: 'count by status is answered by the orders_by_status rollup',
    request: load(
      { measures: ['orders.count', 'orders.total_amount'], dimensions: ['orders.status'] },
      'multi',
    ),
    status: 200,
    rollup: 'orders.orders_by_status',
    subset: { results: [{ usedPreAggregations: {} }] },
    client: {
      load: { measures: ['orders.count'], dimensions: ['orders.status'] },
      rollups: ['orders.orders_by_status'],
    },
  },
  {
    point: 2,
    name: 'a month series over a relative range is answered by the rollup',
    request: load(
      {
        measures: ['orders.count'],
        timeDimensions: [
          { dimension: 'orders.created_at', granularity: 'month', dateRange: 'last 3 months' },
        ],
      },
      'multi',
    ),
    status: 200,
    rollup: 'orders.orders_by_status',
  },
  {
    point: 2,
    name: 'a date-range-only query (whole days) is answered by the rollup',
    request: load(
      {
        measures: ['orders.total_amount'],
        timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2026-01-01', '2026-06-30'] }],
      },
      'multi',
    ),
    status: 200,
    rollup: 'orders.orders_by_status',
  },
  {
    point: 2,
    name: 'a filter on a rollup dimension is answered by the rollup',
    request: load(
      {
        measures: ['orders.count'],
        filters: [{ member: 'orders.status', operator: 'equals', values: ['shipped'] }],
      },
      'multi',
    ),
    status: 200,
    rollup: 'orders.orders_by_status',
  },
  {
    point: 2,
    name: 'an average (not additive) is not answered by the rollup',
    request: load({ measures: ['orders.avg_amount'], dimensions: ['orders.status'] }, 'multi'),
    status: 200,
    rollup: null,
    client: { load: { measures: ['orders.avg_amount'], dimensions: ['orders.status'] }, rollups: [] },
  },
  {
    point: 2,
    name: 'a dimension outside the rollup is not answered by it',
    request: load({ measures: ['orders.count'], dimensions: ['customers.country'] }, 'multi'),
    status: 200,
    rollup: null,
  },
  {
    point: 2,
    name: 'an hourly series (finer than the rollup) is not answered by it',
    request: load(
      {
        measures: ['orders.count'],
        timeDimensions: [{ dimension: 'orders.created_at', granularity: 'hour', dateRange: 'yesterday' }],
      },
      'multi',
    ),
    status: 200,
    rollup: null,
  },
  {
    point: 2,
    name: 'a range that does not start on a day is not answered by the rollup',
    request: load(
      {
        measures: ['orders.count'],
        timeDimensions: [
          { dimension: 'orders.created_at', dateRange: ['2026-01-01T12:00:00', '2026-01-31T23:59:59.999'] },
        ],
      },
      'multi',
    ),
    status: 200,
    rollup: null,
  },
  {
    point: 2,
    name: 'a segment (not in the rollup) is not answered by it',
    request: load({ measures: ['orders.count'], segments: ['orders.completed'] }, 'multi'),
    status: 200,
    rollup: null,
  },

  // 3. The normalised query is echoed.
  {
    point: 3,
    name: 'the echo carries cacheMode, the default limit and rowLimit, and empty arrays',
    request: load({ measures: ['orders.count'] }),
    status: 200,
    subset: {
      query: {
        measures: ['orders.count'],
        cacheMode: 'stale-if-slow',
        timezone: 'UTC',
        limit: 10000,
        rowLimit: 10000,
        dimensions: [],
        filters: [],
        timeDimensions: [],
      },
    },
  },
  {
    point: 3,
    name: 'order is echoed as [{id, desc}] from the object form',
    request: load({
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      order: { 'orders.count': 'desc' },
    }),
    status: 200,
    subset: { query: { order: [{ id: 'orders.count', desc: true }] } },
  },
  {
    point: 3,
    name: 'order is echoed as [{id, desc}] from the pairs form',
    request: load({
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      order: [['orders.status', 'asc']],
    }),
    status: 200,
    subset: { query: { order: [{ id: 'orders.status', desc: false }] } },
  },
  {
    point: 3,
    name: 'a pair of dates is expanded to local timestamps',
    request: load({
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2026-01-01', '2026-03-31'] }],
    }),
    status: 200,
    subset: {
      query: {
        timeDimensions: [
          {
            dimension: 'orders.created_at',
            dateRange: ['2026-01-01T00:00:00.000', '2026-03-31T23:59:59.999'],
          },
        ],
      },
    },
  },
  {
    point: 3,
    name: '"last 30 days" is resolved against the clock and ends yesterday',
    request: load({
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'last 30 days' }],
    }),
    status: 200,
    subset: {
      query: {
        timeDimensions: [
          {
            dimension: 'orders.created_at',
            dateRange: ['2026-10-28T00:00:00.000', '2026-11-26T23:59:59.999'],
          },
        ],
      },
    },
  },
  {
    point: 3,
    name: 'the request cache mode is echoed as cacheMode',
    request: {
      method: 'POST',
      path: '/v1/load',
      body: { query: { measures: ['orders.count'] }, cache: 'no-cache' },
    },
    status: 200,
    subset: { query: { cacheMode: 'no-cache' } },
  },

  // 4 and 5. Annotation and titles.
  {
    point: 4,
    name: 'measures carry their description and drill members; a time dimension its granularity interval',
    request: load({
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: 'this year' }],
    }),
    status: 200,
    subset: {
      annotation: {
        measures: {
          'orders.count': {
            title: 'Orders Count',
            shortTitle: 'Count',
            description: 'Number of orders.',
            type: 'number',
            drillMembers: [],
            drillMembersGrouped: { measures: [], dimensions: [] },
          },
        },
        timeDimensions: {
          'orders.created_at.month': {
            title: 'Orders Created at',
            shortTitle: 'Created at',
            type: 'time',
            granularity: { name: 'month', title: 'month', interval: '1 month' },
          },
        },
      },
    },
  },
  {
    point: 4,
    name: 'a member without a description in the model gets none',
    request: load({ measures: ['customers.count'], dimensions: ['customers.name'], limit: 1 }),
    status: 200,
    subset: { annotation: { dimensions: { 'customers.name': { title: 'Customers Name', type: 'string' } } } },
    absent: ['annotation/dimensions/customers.name/description'],
  },
  {
    point: 5,
    name: "a segment's annotation is titled with its cube's title",
    request: load({ measures: ['orders.count'], segments: ['orders.completed'] }),
    status: 200,
    subset: {
      annotation: {
        segments: {
          'orders.completed': { title: 'Orders Completed orders', shortTitle: 'Completed orders' },
        },
      },
    },
  },

  // 6. Values.
  {
    point: 6,
    name: 'averages are not rounded',
    request: load({ measures: ['orders.avg_amount'] }),
    status: 200,
    matches: { 'data/0/orders.avg_amount': /^\d+\.\d{3,}$/ },
  },

  // 7. Primary keys are hidden.
  {
    point: 7,
    name: 'querying a hidden primary key answers 500 with the engine message',
    request: load({ dimensions: ['orders.id'] }),
    status: 500,
    matches: {
      error:
        /^Error: You requested hidden member: 'orders__id'\. Please make it visible using `shown: true`\. Please note primaryKey fields are `shown: false` by default/,
    },
    absent: ['type', 'requestId'],
    client: {
      load: { measures: ['orders.count'], dimensions: ['orders.id'] },
      kind: 'validation',
      code: 'HIDDEN_MEMBER',
      message: /"orders\.id".*hides.*Remove it from the query, or make it visible/,
      notMessage: NEVER_RETRY,
    },
  },
  {
    point: 7,
    name: 'a hidden member can still filter',
    request: load({
      measures: ['orders.count'],
      filters: [{ member: 'orders.id', operator: 'lte', values: ['10'] }],
    }),
    status: 200,
    subset: { data: [{ 'orders.count': '10' }] },
  },

  // 8. Errors as the engine words them.
  {
    point: 8,
    name: 'an unknown member is a model-level UserError',
    request: load({ measures: ['orders.nope'] }),
    status: 400,
    subset: { type: 'UserError', error: "'nope' not found for path 'orders.nope'" },
    absent: ['requestId'],
    client: {
      load: { measures: ['orders.nope'] },
      kind: 'validation',
      code: 'UNKNOWN_MEMBER',
      message: /"orders\.nope".*Check the name/,
      notMessage: NEVER_RETRY,
    },
  },
  {
    point: 8,
    name: 'an unknown cube is a model-level UserError',
    request: load({ measures: ['nope.count'] }),
    status: 400,
    subset: { type: 'UserError', error: "Cube 'nope' not found for path 'nope.count'" },
    client: {
      load: { measures: ['nope.count'] },
      kind: 'validation',
      code: 'UNKNOWN_CUBE',
      notMessage: NEVER_RETRY,
    },
  },
  {
    point: 8,
    name: 'an unknown granularity is a model-level UserError',
    request: load({
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'fortnight' }],
    }),
    status: 400,
    subset: { type: 'UserError' },
    matches: { error: /fortnight/ },
  },
  {
    point: 8,
    name: 'an unknown filter operator is a format error without type',
    request: load({
      measures: ['orders.count'],
      filters: [{ member: 'orders.status', operator: 'like', values: ['x'] }],
    }),
    status: 400,
    subset: { error: 'Invalid query format: "filters[0]" does not match any of the allowed types' },
    absent: ['type', 'requestId'],
    client: {
      kind: 'validation',
      code: 'QUERY_FORMAT',
      message: /not in the Data API's format/,
      notMessage: NEVER_RETRY,
    },
  },
  // Refused before any query is read: the answer is only the engine's `error` sentence.
  ...(
    [
      [
        'a load without a query says the query param is required, without type',
        { method: 'GET', path: '/v1/load' },
        400,
        'Query param is required',
      ],
      [
        'a missing Authorization header is 403 without type or requestId',
        { method: 'GET', path: '/v1/meta', auth: 'none' },
        403,
        "Authorization header isn't set",
      ],
      [
        'a bad token is 403 "Invalid token"',
        { method: 'GET', path: '/v1/meta', auth: 'bad' },
        403,
        'Invalid token',
      ],
    ] as const
  ).map(([name, request, status, error]): EngineCase => ({
    point: 8,
    name,
    request,
    status,
    subset: { error },
    absent: ['type', 'requestId'],
  })),
  {
    point: 8,
    name: 'a limit above 50,000 fails the query (500) and the client says to lower it',
    request: load({ measures: ['orders.count'], limit: 60000 }),
    status: 500,
    subset: { error: 'Error: The query limit has been exceeded.' },
    client: {
      load: { measures: ['orders.count'], limit: 60000 },
      kind: 'validation',
      code: 'LIMIT',
      message: /Lower "limit"/,
    },
  },

  // 9. Continue wait: a slow query's first round is held, then answered "Continue wait".
  {
    point: 9,
    name: 'the first answer to a slow query is 200 {"error": "Continue wait"}',
    request: load({ measures: ['orders.slow_count'] }, 'multi'),
    status: 200,
    subset: { error: 'Continue wait' },
  },

  // 10. /v1/meta.
  {
    point: 10,
    name: '/v1/meta has the engine fields and hides primary keys',
    request: { method: 'GET', path: '/v1/meta' },
    status: 200,
    absent: ['compilerId'],
    // Primary keys are hidden; built-in grains are not listed as granularities.
    excludesText: ['"orders.id"', '"customers.id"', '"granularities"'],
    subset: {
      cubes: [
        {
          name: 'orders',
          type: 'cube',
          connectedComponent: 1,
          hierarchies: [],
          folders: [],
          nestedFolders: [],
          measures: [
            {
              name: 'orders.count',
              formatDescription: { name: 'number', specifier: ',.2~f' },
              cumulativeTotal: false,
              cumulative: false,
              aggType: 'count',
              drillMembers: [],
              drillMembersGrouped: { measures: [], dimensions: [] },
            },
            {
              name: 'orders.total_amount',
              format: 'currency',
              formatDescription: { name: 'currency', specifier: '$,.2~f' },
            },
          ],
          dimensions: [
            {
              name: 'orders.status',
              suggestFilterValues: true,
              primaryKey: false,
              isVisible: true,
              public: true,
            },
          ],
          segments: [
            { name: 'orders.completed', title: 'Orders Completed orders', isVisible: true, public: true },
          ],
        },
      ],
    },
  },
  {
    point: 10,
    name: "/v1/meta?extended adds the file, the rollups and each member's sql as written",
    request: { method: 'GET', path: '/v1/meta', query: { extended: '' } },
    status: 200,
    subset: {
      cubes: [
        {
          name: 'orders',
          fileName: 'model/cubes/orders.yml',
          preAggregations: [{ name: 'orders_by_status', type: 'rollup', granularity: 'day' }],
          measures: [{ name: 'orders.count' }, { name: 'orders.total_amount', sql: 'amount' }],
        },
      ],
    },
  },
];
