// What the user reads when the engine refuses a query: every rule's exact sentence, the member a
// column alias stands for, the request id kept or added, and the errors left as they are.
import * as assert from 'node:assert/strict';
import { interpretDataError, isQueryProblem, queryMembers } from '../../../src/api/dataErrors';
import { ApiError } from '../../../src/api/errors';

/** The error the transport gives for an answer whose body said `server`. */
const answered = (server: string | undefined, init: { requestId?: string; status?: number } = {}) =>
  new ApiError('server', 'The query failed.', { serverMessage: server, status: init.status ?? 400, ...init });

function refined(server: string, query?: unknown): ApiError {
  const e = interpretDataError(answered(server), { requestId: 'sent-1', query });
  assert.ok(e instanceof ApiError);
  return e;
}

describe('api/dataErrors', () => {
  it('every rule: its code and the exact sentence, the engine words kept with one full stop', () => {
    const cases: [string, string, string][] = [
      [
        "Cube 'order' not found for path 'order.count'",
        'UNKNOWN_CUBE',
        `There is no cube "order" in this deployment's data model (asked for "order.count"). Check the cube name; completion in a query cell lists the members. The Data API said: Cube 'order' not found for path 'order.count'.`,
      ],
      [
        "'statuss' not found for path 'orders.statuss'",
        'UNKNOWN_MEMBER',
        `"orders.statuss" is not in the data model where the query uses it (measures go in "measures", dimensions in "dimensions"). Check the name; completion in a query cell lists the members. The Data API said: 'statuss' not found for path 'orders.statuss'.`,
      ],
      [
        'Granularity "fortnight" not found in time dimension "orders.created_at"',
        'UNKNOWN_GRANULARITY',
        `"fortnight" is not a granularity of orders.created_at. Use second, minute, hour, day, week, month, quarter or year (or a granularity the model defines). The Data API said: Granularity "fortnight" not found in time dimension "orders.created_at".`,
      ],
      [
        'Invalid query format: "limit" must be a number',
        'QUERY_FORMAT',
        `The query is not in the Data API's format ("limit" must be a number). Fix that part of the query. The Data API said: Invalid query format: "limit" must be a number.`,
      ],
      [
        'Query should contain either measures, dimensions or timeDimensions with granularities in order to be valid',
        'EMPTY_QUERY',
        'The query selects nothing: add a measure, a dimension, or a time dimension with a granularity. The Data API said: Query should contain either measures, dimensions or timeDimensions with granularities in order to be valid.',
      ],
      [
        'Query param is required',
        'EMPTY_QUERY',
        'The request carried no query: send a query object. The Data API said: Query param is required.',
      ],
      [
        'Unable to decode query param as JSON, error: Unexpected token',
        'QUERY_FORMAT',
        'The query is not valid JSON. Fix the JSON of the query. The Data API said: Unable to decode query param as JSON, error: Unexpected token.',
      ],
      [
        "Can't parse date: 'someday'",
        'BAD_DATE',
        `The date "someday" cannot be read. Use YYYY-MM-DD dates, or a relative range such as "last 30 days" or "this quarter". The Data API said: Can't parse date: 'someday'.`,
      ],
      [
        'Values required for filter: {"member":"orders.status","operator":"equals"}',
        'FILTER_VALUES',
        'A filter needs "values" for its operator: {"member":"orders.status","operator":"equals"}. Add the values, or use set/notSet. The Data API said: Values required for filter: {"member":"orders.status","operator":"equals"}.',
      ],
      [
        'Error: The query limit has been exceeded.',
        'LIMIT',
        'The query asks for more rows than the Data API returns at once (a limit of at most 50,000). Lower "limit", and page with "offset". The Data API said: The query limit has been exceeded.',
      ],
      [
        "Can't find join path to join 'customers', 'products'",
        'JOIN_PATH',
        "These cubes are not joined in the data model: 'customers', 'products'. Query members of joined cubes, or add a join to the model. The Data API said: Can't find join path to join 'customers', 'products'.",
      ],
      [
        'Error: This query type is not supported by the client. Please update the client.',
        'QUERY_TYPE',
        'A list of queries (data blending) needs queryType "multi" in the request. The Data API said: This query type is not supported by the client. Please update the client.',
      ],
    ];
    for (const [server, code, says] of cases) {
      const e = refined(server);
      assert.equal(e.kind, 'validation', server);
      assert.equal(e.code, code, server);
      assert.equal(e.message, says);
      assert.equal(isQueryProblem(e), true, server);
    }
    assert.equal(cases.length, 12);
  });

  it('keeps an "Error:" inside the words, trims them, and adds no second full stop', () => {
    assert.match(refined("Can't parse date: 'x'  ").message, /The Data API said: Can't parse date: 'x'\.$/);
    assert.match(
      refined('Invalid query format: bad Error: inner').message,
      /The Data API said: Invalid query format: bad Error: inner\.$/,
    );
  });

  it('keeps the status, the exchange and the cause; the request id of the answer before the sent one', () => {
    const source = new ApiError('server', 'x', {
      serverMessage: "Can't parse date: 'x'",
      status: 500,
      requestId: 'answer-1',
      method: 'POST',
      url: 'https://h/cubejs-api/v1/load',
      line: 3,
    });
    const e = interpretDataError(source, { requestId: 'sent-1' }) as ApiError;
    assert.equal(e.status, 500);
    assert.equal(e.requestId, 'answer-1');
    assert.equal(e.method, 'POST');
    assert.equal(e.url, 'https://h/cubejs-api/v1/load');
    assert.equal(e.line, 3);
    assert.equal(e.cause, source);
    assert.equal(e.serverMessage, "Can't parse date: 'x'");
    assert.equal(
      (interpretDataError(answered("Can't parse date: 'x'"), { requestId: 's' }) as ApiError).requestId,
      's',
    );
  });

  it('an error no rule knows gets the sent request id in its sentence, once', () => {
    const plain = answered('warehouse down', { status: 502 });
    const e = interpretDataError(plain, { requestId: 'sent-9' }) as ApiError;
    assert.notEqual(e, plain);
    assert.equal(e.kind, 'server');
    assert.equal(e.message, 'The query failed. (request id sent-9)');
    assert.equal(e.requestId, 'sent-9');
    assert.equal(e.status, 502);
    assert.equal(e.cause, plain);
    assert.equal(isQueryProblem(e), false);
    const named = answered('warehouse down', { requestId: 'answer-2' });
    assert.equal(interpretDataError(named, { requestId: 'sent-9' }), named, 'already named: as it was');
    const none = answered('warehouse down');
    assert.equal(interpretDataError(none), none, 'no id to add: as it was');
    const silent = answered(undefined);
    assert.equal(
      (interpretDataError(silent, { requestId: 's' }) as ApiError).message,
      'The query failed. (request id s)',
    );
  });

  it('leaves cancellations, deadlines, network errors and other errors as they are, whatever they say', () => {
    for (const kind of ['cancelled', 'timeout', 'network'] as const) {
      const e = new ApiError(kind, 'x', { serverMessage: "Can't parse date: 'x'" });
      assert.equal(interpretDataError(e, { requestId: 'sent' }), e, kind);
    }
    const other = new Error("Can't parse date: 'x'");
    assert.equal(interpretDataError(other, { requestId: 'sent' }), other);
    assert.equal(isQueryProblem(other), false);
    assert.equal(isQueryProblem(new ApiError('validation', 'x', { code: 'INPUT' })), false);
    const auth = new ApiError('auth', 'x', { serverMessage: "Can't parse date: 'x'", status: 403 });
    assert.equal((interpretDataError(auth) as ApiError).code, 'BAD_DATE', 'any other kind is read');
  });

  it('names a hidden member by its name: plain, with a granularity, or from the alias when not in the query', () => {
    const hidden = (alias: string, query?: unknown) =>
      refined(`Error: You requested hidden member: '${alias}'. Please make it visible`, query).message;
    const q = {
      measures: ['orders.count'],
      dimensions: ['orders.id', 'my__shop.id'],
      timeDimensions: [{ dimension: 'orders.placed_at', granularity: 'month' }, { dimension: 'orders.due' }],
    };
    // A cube named with "__" is found in the query, not split at its first "__".
    assert.match(hidden('my__shop__id', q), /^The query asks for "my__shop\.id", which/);
    assert.match(hidden('orders__placed_at_month', q), /"orders\.placed_at\.month"/);
    assert.match(hidden('orders__placed_at', q), /"orders\.placed_at"/);
    assert.match(hidden('orders__due', q), /"orders\.due"/);
    // Not in the query: read from the alias (the first "__" separates cube and member).
    assert.match(hidden('shop__line__no', q), /"shop\.line__no"/);
    assert.match(hidden('orders__due_day', q), /"orders\.due_day"/);
    assert.match(hidden('plain', q), /"plain"/);
    assert.match(hidden('__x', q), /"__x"/);
    assert.match(hidden('a__b'), /"a\.b"/);
  });

  it('queryMembers: measures, dimensions and time dimensions (with their granularity), nothing else', () => {
    assert.deepEqual(
      queryMembers({
        measures: ['m.a', 5, null],
        dimensions: ['d.a'],
        segments: ['s.a'],
        timeDimensions: [
          { dimension: 't.a', granularity: 'day' },
          { dimension: 't.b' },
          { dimension: 7 },
          null,
          { granularity: 'day' },
          { dimension: 't.c', granularity: 1 },
        ],
      }),
      ['m.a', 'd.a', 't.a', 't.a.day', 't.b', 't.c'],
    );
    assert.deepEqual(queryMembers(undefined), []);
    assert.deepEqual(queryMembers('orders.count'), []);
    assert.deepEqual(queryMembers({ measures: 'm.a', timeDimensions: {} }), []);
  });
});
