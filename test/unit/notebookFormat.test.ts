// The .dpnb format: stable, diff-friendly output; parse errors with reason and line/column.
import * as assert from 'node:assert/strict';
import {
  decodeNotebook,
  MAX_DEPTH,
  NotebookParseError,
  NotebookSaveError,
  parseNotebook,
  stringifyNotebook,
  type NotebookFile,
} from '../../src/notebook/notebookFormat';
import { forgetSecrets, rememberSecret } from '../../src/api/log';
import { CubeSqlAccumulator, loadPayload } from '../../src/notebook/results';
import {
  checkLoadQuery,
  jsonMemberContext,
  MemberIndex,
  sqlCompletionContext,
  fromClauseInsertion,
  suggestMember,
} from '../../src/notebook/memberIndex';
import { rollupBadgeText, toCsv } from '../../src/shared/notebookOutput';

const file: NotebookFile = {
  version: 1,
  metadata: { deploymentId: 7, profile: 'Sandbox' },
  cells: [
    { kind: 'markdown', source: '# Title' },
    { kind: 'sql', source: 'SELECT 1', metadata: { z: 1, a: 2 } },
    { kind: 'json', source: '{"measures":["orders.count"]}', outputs: [[{ mime: 'text/plain', data: 'x' }]] },
  ],
};

describe('notebook format', () => {
  it('writes keys in a fixed order with 2-space indent, one cell per block, and round-trips', () => {
    const text = stringifyNotebook(file);
    assert.ok(
      text.startsWith(
        '{\n  "version": 1,\n  "metadata": {\n    "profile": "Sandbox",\n    "deploymentId": 7\n  },',
      ),
    );
    assert.ok(text.includes('"metadata": {\n        "a": 2,\n        "z": 1\n      }'));
    assert.ok(text.endsWith('}\n'));
    // The round trip gives back the input itself (not just something stable).
    assert.deepEqual(parseNotebook(text), file);
    assert.equal(stringifyNotebook(parseNotebook(text)), text);
  });

  it('keeps keys it does not know (top level, metadata, cells, output items) and the order of outputs', () => {
    const text = JSON.stringify({
      version: 1,
      generator: 'dpnb 2.0',
      metadata: { profile: 'P', theme: { dark: true } },
      cells: [
        {
          id: 'c-1',
          tags: ['a', 'b'],
          kind: 'sql',
          source: 'SELECT 1',
          outputs: [
            [{ mime: 'text/plain', data: 'third' }],
            [
              { mime: 'text/plain', data: 'first', encoding: 'utf8' },
              { mime: 'application/json', data: '2' },
            ],
          ],
        },
      ],
    });
    const again = JSON.parse(stringifyNotebook(parseNotebook(text))) as Record<string, unknown>;
    assert.equal(again.generator, 'dpnb 2.0');
    assert.deepEqual(again.metadata, { profile: 'P', theme: { dark: true } });
    const [cell] = again.cells as Record<string, unknown>[];
    assert.equal(cell!.id, 'c-1');
    assert.deepEqual(cell!.tags, ['a', 'b']);
    assert.deepEqual(cell!.outputs, [
      [{ mime: 'text/plain', data: 'third' }],
      [
        { mime: 'text/plain', data: 'first', encoding: 'utf8' },
        { mime: 'application/json', data: '2' },
      ],
    ]);
    // Known keys first, unknown ones after them.
    assert.deepEqual(Object.keys(again), ['version', 'metadata', 'cells', 'generator']);
    assert.deepEqual(Object.keys(cell!), ['kind', 'source', 'outputs', 'id', 'tags']);
  });

  it('refuses invalid UTF-8 with the line of the bad byte instead of replacing it', () => {
    const bytes = Buffer.concat([
      Buffer.from('{\n  "version": 1,\n  "cells": ["'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"]}'),
    ]);
    assert.throws(
      () => decodeNotebook(bytes),
      (e: unknown) => e instanceof NotebookParseError && /not valid UTF-8/.test(e.message) && e.line === 3,
    );
    assert.equal(decodeNotebook(Buffer.from('{"version":1,"cells":[]} é')), '{"version":1,"cells":[]} é');
  });

  it('deep nesting is a clear error on open and on save, never a RangeError', () => {
    let deep = '1';
    for (let i = 0; i < 20_000; i++) deep = `[${deep}]`;
    assert.throws(
      () => parseNotebook(`{"version":1,"cells":[{"kind":"sql","source":"","metadata":{"x":${deep}}}]}`),
      (e: unknown) => e instanceof NotebookParseError && /nest more than/.test(e.message),
    );
    let value: unknown = 1;
    for (let i = 0; i < 20_000; i++) value = [value];
    assert.throws(
      () =>
        stringifyNotebook({
          version: 1,
          metadata: {},
          cells: [{ kind: 'sql', source: '', metadata: { x: value } }],
        }),
      (e: unknown) =>
        e instanceof NotebookSaveError && new RegExp(`more than ${MAX_DEPTH} levels`).test(e.message),
    );
  });

  it('saved outputs carry no known credential', () => {
    rememberSecret('nb-secret-token-98765');
    try {
      const text = stringifyNotebook({
        version: 1,
        metadata: {},
        cells: [
          {
            kind: 'sql',
            source: '',
            outputs: [[{ mime: 'text/plain', data: 'echo nb-secret-token-98765' }]],
          },
        ],
      });
      assert.ok(!text.includes('nb-secret-token-98765'));
      assert.match(text, /echo \[REDACTED\]/);
    } finally {
      forgetSecrets();
    }
  });

  it('an empty file is an empty notebook', () => {
    assert.deepEqual(parseNotebook('  \n').cells, []);
  });

  it('invalid JSON throws with the reason and the line/column', () => {
    const text = '{\n  "version": 1,\n  "cells": [\n    { "kind": "sql", "source": "x" \n  ]\n}\n';
    assert.throws(
      () => parseNotebook(text),
      (e: unknown) =>
        e instanceof NotebookParseError &&
        e.line === 5 &&
        e.column >= 1 &&
        /invalid JSON/.test(e.message) &&
        /line 5/.test(e.message),
    );
  });

  it('a schema violation names the field and where it is', () => {
    const text = '{\n  "version": 1,\n  "cells": [\n    { "kind": "python", "source": "x" }\n  ]\n}\n';
    assert.throws(
      () => parseNotebook(text),
      (e: unknown) => e instanceof NotebookParseError && /cells\.0\.kind/.test(e.reason) && e.line === 4,
    );
  });
});

describe('notebook results', () => {
  it('caps streamed rows while counting every row', () => {
    const acc = new CubeSqlAccumulator(3);
    acc.add({
      type: 'schema',
      schema: [
        { name: 'a', column_type: 'int' },
        { name: 'b', column_type: 'timestamp' },
      ],
    });
    acc.add({
      type: 'rows',
      rows: [
        [1, 'x'],
        [2, 'y'],
      ],
    });
    acc.add({
      type: 'rows',
      rows: [
        [3, 'z'],
        [4, 'w'],
      ],
    });
    const p = acc.payload(false);
    assert.equal(p.rows.length, 3);
    assert.equal(p.totalRows, 4);
    assert.equal(p.capped, true);
    assert.deepEqual(
      p.columns.map((c) => c.kind),
      ['number', 'time'],
    );
    assert.equal(toCsv(p.columns, [[1, 'a,"b"']]), 'a,b\r\n1,"a,""b"""\r\n');
  });

  it('titles load columns from the annotation, dimensions before measures', () => {
    const p = loadPayload(
      {
        results: [
          {
            data: [{ 'orders.status': 'new', 'orders.count': '5' }],
            annotation: {
              measures: { 'orders.count': { title: 'Orders Count', type: 'number' } },
              dimensions: { 'orders.status': { title: 'Orders Status', type: 'string' } },
              segments: {},
              timeDimensions: {},
            },
          },
        ],
      },
      10,
    );
    assert.deepEqual(
      p.columns.map((c) => [c.name, c.title, c.kind, c.measure]),
      [
        ['orders.status', 'Orders Status', 'string', false],
        ['orders.count', 'Orders Count', 'number', true],
      ],
    );
    assert.deepEqual(p.rows, [['new', '5']]);
  });
});

describe('notebook results from the engine', () => {
  // An engine answer: a month series served by a rollup, with the time dimension also sent under
  // its name without granularity, and an average that is not rounded.
  const engineAnswer = {
    queryType: 'regularQuery',
    results: [
      {
        query: { measures: ['orders.avg_amount', 'orders.count'] },
        data: [
          {
            'orders.created_at.month': '2026-09-01T00:00:00.000',
            'orders.created_at': '2026-09-01T00:00:00.000',
            'orders.avg_amount': '249.0420750000003',
            'orders.count': '94',
          },
        ],
        lastRefreshTime: '2026-11-27T09:00:00.000Z',
        usedPreAggregations: {
          'prod_pre_aggregations.orders_orders_by_status_x': {
            preAggregationId: 'orders.orders_by_status',
            lastUpdatedAt: Date.parse('2026-11-27T09:00:00.000Z'),
            type: 'rollup',
          },
        },
        annotation: {
          measures: {
            'orders.avg_amount': { title: 'Orders Average Amount', type: 'number', format: 'currency' },
            'orders.count': { title: 'Orders Count', type: 'number' },
          },
          dimensions: {},
          segments: {},
          timeDimensions: {
            'orders.created_at.month': {
              title: 'Orders Created at',
              type: 'time',
              granularity: { name: 'month', title: 'month', interval: '1 month' },
            },
            'orders.created_at': { title: 'Orders Created at', type: 'time' },
          },
        },
      },
    ],
  };

  it('shows a time dimension once, titled with its granularity', () => {
    const p = loadPayload(engineAnswer, 10);
    assert.deepEqual(
      p.columns.map((c) => [c.name, c.title]),
      [
        ['orders.created_at.month', 'Orders Created at (month)'],
        ['orders.avg_amount', 'Orders Average Amount'],
        ['orders.count', 'Orders Count'],
      ],
    );
    assert.deepEqual(p.rows, [['2026-09-01T00:00:00.000', '249.0420750000003', '94']]);
  });

  it('keeps a time dimension the query also asks for as a dimension', () => {
    const r = structuredClone(engineAnswer.results[0]!) as Record<string, unknown> & {
      annotation: { dimensions: Record<string, unknown> };
    };
    r.annotation.dimensions['orders.created_at'] = { title: 'Orders Created at', type: 'time' };
    const p = loadPayload({ results: [r as never] }, 10);
    assert.ok(p.columns.some((c) => c.name === 'orders.created_at'));
  });

  it('formats numbers by the model: formatDescription from meta, else the named format', () => {
    const p = loadPayload(engineAnswer, 10, 5, {
      formats: new Map([['orders.count', { specifier: ',.2~f', name: 'number' }]]),
    });
    const byName = new Map(p.columns.map((c) => [c.name, c]));
    assert.equal(byName.get('orders.count')!.specifier, ',.2~f');
    assert.equal(byName.get('orders.avg_amount')!.specifier, '$,.2~f');
    assert.equal(byName.get('orders.created_at.month')!.specifier, undefined);
  });

  it('names the rollup that served the result, with its build time', () => {
    const p = loadPayload(engineAnswer, 10);
    assert.deepEqual(p.rollups, [{ id: 'orders.orders_by_status', builtAt: '2026-11-27T09:00:00.000Z' }]);
    assert.equal(p.lastRefreshTime, '2026-11-27T09:00:00.000Z');
    assert.equal(
      rollupBadgeText(p.rollups![0]!, Date.parse('2026-11-27T09:05:30.000Z')),
      'orders.orders_by_status · built 5 min ago',
    );
    const plain = loadPayload(
      { results: [{ ...engineAnswer.results[0]!, usedPreAggregations: undefined }] },
      10,
    );
    assert.equal(plain.rollups, undefined);
  });

  it('drops the repeated time column from compact results too', () => {
    const p = loadPayload(
      {
        results: [
          {
            ...engineAnswer.results[0]!,
            data: {
              members: ['orders.created_at.month', 'orders.created_at', 'orders.count'],
              dataset: [['2026-09-01T00:00:00.000', '2026-09-01T00:00:00.000', '94']],
            },
          },
        ],
      },
      10,
    );
    assert.deepEqual(p.rows, [['2026-09-01T00:00:00.000', '94']]);
  });
});

describe('notebook member intelligence', () => {
  const index = new MemberIndex({
    cubes: [
      {
        name: 'orders',
        measures: [{ name: 'orders.count', type: 'number' }],
        dimensions: [{ name: 'orders.status', type: 'string' }],
        segments: [],
      },
      {
        name: 'customers',
        measures: [{ name: 'customers.count', type: 'number' }],
        dimensions: [{ name: 'customers.city', type: 'string' }],
        segments: [],
      },
    ],
  });
  it('refuses a member typo with the member it most likely meant', () => {
    const problems = checkLoadQuery('{"measures":["orders.count"],"dimensions":["orders.statuss"]}', index);
    assert.equal(problems.length, 1);
    assert.equal(
      problems[0]!.message,
      'Unknown member "orders.statuss" in dimensions. Did you mean "orders.status"?',
    );
    assert.equal(suggestMember('customer.city', index), 'customers.city');
    // Only members of the kind allowed there are suggested.
    assert.equal(suggestMember('orders.count', index, ['dimension']), undefined);
    // Nothing close: the cube is named, and hidden members are explained.
    assert.match(
      checkLoadQuery('{"dimensions":["orders.id"]}', index)[0]!.message,
      /cube "orders" has no such member.*hides/,
    );
    assert.match(checkLoadQuery('{"measures":["nothing.count"]}', index)[0]!.message, /no cube "nothing"/);
    // The short form of a time dimension with its granularity is not a typo.
    const withTime = new MemberIndex({
      cubes: [
        {
          name: 'orders',
          measures: [],
          dimensions: [{ name: 'orders.created_at', type: 'time' }],
          segments: [],
        },
      ],
    });
    assert.deepEqual(checkLoadQuery('{"dimensions":["orders.created_at.month"]}', withTime), []);
  });

  it('finds the load-query key of a position', () => {
    assert.equal(jsonMemberContext('{"measures": ["'), 'measures');
    assert.equal(jsonMemberContext('{"measures": [], "filters": [{"member": "'), 'filters');
    assert.equal(jsonMemberContext('{"limit": '), undefined);
  });
  it('reports unknown members and bad operators with their offsets', () => {
    const text =
      '{"measures":["orders.nope"],"filters":[{"member":"orders.status","operator":"like","values":["x"]}]}';
    const problems = checkLoadQuery(text, index);
    assert.equal(problems.length, 2);
    assert.match(problems[0]!.message, /Unknown member "orders.nope"/);
    assert.equal(text.slice(problems[0]!.start, problems[0]!.end), '"orders.nope"');
    assert.match(problems[1]!.message, /operator "like"/);
    assert.deepEqual(
      checkLoadQuery('{"measures":["orders.count"],"dimensions":["orders.status"]}', index),
      [],
    );
  });

  it('points at the exact occurrence of each problem, wherever the name repeats', () => {
    const text = JSON.stringify(
      {
        dimensions: ['orders.status', 'orders.nope'],
        measures: ['orders.count', 'orders.nope'],
        timeDimensions: [{ dimension: 'orders.status', granularity: 'day' }],
        filters: [{ or: [{ member: 'orders.nope', operator: 'equals', values: ['a'] }] }],
        order: { 'orders.nope': 'asc' },
      },
      null,
      2,
    );
    const problems = checkLoadQuery(text, index);
    const spans = problems.map((p) => [text.slice(p.start, p.end), p.start]);
    // Four different occurrences of "orders.nope", each at its own offset, plus the dimension used
    // as a time dimension... which is allowed (a dimension), so four problems.
    assert.equal(problems.length, 4, JSON.stringify(problems));
    assert.ok(spans.every(([t]) => t === '"orders.nope"'));
    assert.equal(new Set(spans.map(([, o]) => o)).size, 4, 'four distinct positions');
    const orderKey = text.lastIndexOf('"orders.nope"');
    assert.equal(problems[3]!.start, orderKey, 'the order key itself');
  });

  it('knows what a SQL completion is for', () => {
    const full = 'SELECT o.status, count FROM orders o JOIN customers AS c ON true WHERE ';
    assert.deepEqual(sqlCompletionContext('SELECT o.', full, index), { kind: 'columns', cube: 'orders' });
    assert.deepEqual(sqlCompletionContext('SELECT c.ci', full, index), {
      kind: 'columns',
      cube: 'customers',
    });
    assert.deepEqual(sqlCompletionContext('SELECT orders.', full, index), {
      kind: 'columns',
      cube: 'orders',
    });
    assert.deepEqual(sqlCompletionContext('SELECT 1 FROM ', full, index), { kind: 'cubes' });
    assert.deepEqual(sqlCompletionContext('SELECT 1 FROM ord', full, index), { kind: 'cubes' });
    assert.deepEqual(sqlCompletionContext('SELECT ', full, index), {
      kind: 'members',
      cubes: ['orders', 'customers'],
    });
    assert.deepEqual(sqlCompletionContext('SELECT ', 'SELECT  FROM nowhere', index), {
      kind: 'members',
      cubes: [],
    });
    assert.deepEqual(
      sqlCompletionContext('SELECT ', 'SELECT  FROM orders WHERE x', index),
      { kind: 'members', cubes: ['orders'] },
      'WHERE is not an alias',
    );
  });
});

describe('completing a column before FROM', () => {
  it('adds FROM <cube> at the end of the statement, or before the first later clause', () => {
    assert.deepEqual(fromClauseInsertion('SELECT ', 7, 'orders'), { offset: 7, text: '\nFROM orders' });
    assert.deepEqual(fromClauseInsertion('SELECT  ;\n', 7, 'orders'), { offset: 7, text: '\nFROM orders' });
    const text = 'SELECT \nGROUP BY 1\nORDER BY 1';
    assert.deepEqual(fromClauseInsertion(text, 7, 'orders'), { offset: 8, text: 'FROM orders\n' });
    const where = 'SELECT  WHERE status = 1';
    assert.equal(fromClauseInsertion(where, 7, 'orders').offset, where.indexOf('WHERE'));
  });
});

describe('export file names', () => {
  it('names the notebook, the cell, what the query reads and the day', async () => {
    const { exportFileName } = await import('../../src/notebook/exportName');
    const date = new Date('2026-11-23T08:00:00Z');
    assert.equal(
      exportFileName({
        notebookName: 'Sample Queries.dpnb',
        cellIndex: 1,
        kind: 'sql',
        query: 'SELECT status, MEASURE(count) FROM orders GROUP BY 1',
        format: 'csv',
        date,
      }),
      'sample-queries-cell-2-orders-2026-11-23.csv',
    );
    assert.equal(
      exportFileName({
        notebookName: 'Untitled-1.dpnb',
        cellIndex: 0,
        kind: 'json',
        query: '{"measures": ["customers.count"]}',
        format: 'json',
        date,
      }),
      'untitled-1-cell-1-customers-2026-11-23.json',
    );
  });
});
