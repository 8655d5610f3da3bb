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
} from '../../src/notebook/memberIndex';
import { toCsv } from '../../src/shared/notebookOutput';

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

  it('titles load columns from the annotation', () => {
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
        ['orders.count', 'Orders Count', 'number', true],
        ['orders.status', 'Orders Status', 'string', false],
      ],
    );
    assert.deepEqual(p.rows, [['5', 'new']]);
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
