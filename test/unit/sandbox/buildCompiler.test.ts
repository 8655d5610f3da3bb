// The cube-file compiler on its own: the sample files compile to the model the Data API has always
// served, and each kind of mistake is reported at its file, line and column.
import * as assert from 'node:assert/strict';
import { compileModel, type CompileError } from '../../../src/sandbox/build/compiler';
import { DeploymentRepo } from '../../../src/sandbox/build/store';
import { SEED_FILES } from '../../../src/sandbox/build/seedModel';
import { createDataEngine, type DataEngine } from '../../../src/sandbox/data';
import { fromClause } from '../../../src/sandbox/data/load';
import { defaultModel } from '../../../src/sandbox/data/model';

const ORDERS = SEED_FILES.find(([p]) => p === 'model/cubes/orders.yml')![1];

function compileWith(path: string, text: string, engine?: DataEngine) {
  const files = new Map(SEED_FILES);
  files.set(path, text);
  const check = engine
    ? (expr: string, tables: ReadonlySet<string>) => {
        try {
          engine.prepare(`SELECT ${expr} FROM ${fromClause(tables)} LIMIT 0`).free();
          return undefined;
        } catch (e) {
          return (e as Error).message;
        }
      }
    : undefined;
  return compileModel(files, check);
}

const where = (e: CompileError) => `${e.fileName}:${e.line}:${e.column}`;

describe('sandbox build: cube file compiler', function () {
  this.timeout(30_000);
  let engine: DataEngine;
  before(async () => {
    engine = await createDataEngine({ rows: 200 });
  });
  after(() => engine.db.close());

  it('compiles the sample files, SQL checked on the engine, into the served model', () => {
    const r = compileModel(SEED_FILES, (expr, tables) => {
      try {
        engine.prepare(`SELECT ${expr} FROM ${fromClause(tables)} LIMIT 0`).free();
        return undefined;
      } catch (e) {
        return (e as Error).message;
      }
    });
    assert.deepEqual(r.errors, []);
    assert.deepEqual(
      r.cubes.map((c) => c.name),
      ['orders', 'customers', 'products'],
    );
    const orders = r.cubes[0]!;
    const total = orders.measures.find((m) => m.name === 'total_amount')!;
    assert.equal(total.sql, 'o.amount');
    assert.equal(total.agg, 'sum');
    assert.equal(total.viewAgg, 'SUM(amount)');
    assert.equal(orders.measures.find((m) => m.name === 'slow_count')!.slow, true);
    assert.equal(orders.segments[0]!.sql, "o.status = 'completed'");
    assert.deepEqual(orders.joins, [
      { name: 'customers', relationship: 'many_to_one' },
      { name: 'products', relationship: 'many_to_one' },
    ]);
    const meta = defaultModel().meta(false) as { cubes: { measures: { name: string; title: string }[] }[] };
    assert.equal(meta.cubes[0]!.measures[2]!.title, 'Orders Average Amount');
  });

  it("keeps what /v1/meta shows of each member: primary key, source SQL, the measure's aggType, meta", () => {
    const r = compileWith(
      'model/cubes/returns.yml',
      [
        'cubes:',
        '  - name: returns',
        '    sql_table: orders',
        '    measures:',
        '      - name: count',
        '        type: count',
        '      - name: distinct_customers',
        '        sql: customer_id',
        '        type: count_distinct_approx',
        '        meta:',
        '          owner: finance',
        '      - name: listed_meta',
        '        sql: amount',
        '        type: sum',
        '        meta: [not, an, object]',
        '    dimensions:',
        '      - name: id',
        '        sql: id',
        '        type: number',
        '        primary_key: true',
        '      - name: status',
        '        sql: status',
        '        type: string',
      ].join('\n'),
      engine,
    );
    assert.deepEqual(r.errors, []);
    const returns = r.cubes.find((c) => c.name === 'returns')!;
    const m = (name: string) => returns.measures.find((x) => x.name === name)!;
    const d = (name: string) => returns.dimensions.find((x) => x.name === name)!;
    assert.equal(m('count').aggType, 'count');
    assert.equal(m('count').source, undefined, 'a count without sql has no source');
    assert.equal(m('distinct_customers').aggType, 'countDistinctApprox');
    assert.equal(m('distinct_customers').source, 'customer_id');
    assert.deepEqual(m('distinct_customers').meta, { owner: 'finance' });
    assert.equal(m('listed_meta').meta, undefined, 'a meta that is not an object is not shown');
    assert.equal(d('id').primaryKey, true);
    assert.equal(d('id').aggType, undefined, 'dimensions have no aggType');
    assert.equal(d('status').primaryKey, undefined);
    assert.equal(d('status').source, 'status');
  });

  it('reports a segment without sql at the segment, and keeps the others', () => {
    const r = compileWith(
      'model/cubes/segs.yml',
      [
        'cubes:',
        '  - name: segs',
        '    sql_table: orders',
        '    segments:',
        '      - name: broken',
        '        title: no sql here',
        '      - name: done',
        '        sql: "{CUBE}.status = \'completed\'"',
      ].join('\n'),
    );
    assert.deepEqual(
      r.errors.map((e) => `${where(e)} ${e.message}`),
      ['model/cubes/segs.yml:5:9 segs.broken: a segment needs "sql".'],
    );
    assert.deepEqual(
      r.cubes.find((c) => c.name === 'segs')!.segments.map((x) => x.name),
      ['done'],
    );
  });

  it('reports a YAML syntax error at its line', () => {
    const r = compileWith('model/cubes/bad.yml', 'cubes:\n  - name: x\n    measures: [\n');
    assert.equal(r.errors.length, 1);
    assert.equal(r.errors[0]!.fileName, 'model/cubes/bad.yml');
    assert.match(r.errors[0]!.message, /^YAML syntax:/);
    assert.ok(r.errors[0]!.line >= 3, where(r.errors[0]!));
  });

  it('reports an unknown measure type and an unknown property at their lines, and keeps the rest', () => {
    const text = ORDERS.replace('        type: sum\n', '        type: summ\n').replace(
      '        format: currency\n        description: Sum',
      '        formt: currency\n        description: Sum',
    );
    const r = compileWith('model/cubes/orders.yml', text);
    const lineOf = (s: string) => text.split('\n').findIndex((l) => l.includes(s)) + 1;
    assert.deepEqual(
      r.errors.map((e) => [e.line, e.message.split(':')[0]]),
      [
        [lineOf('formt:'), 'orders measures'],
        [lineOf('type: summ'), 'orders.total_amount'],
      ],
    );
    assert.match(r.errors[1]!.message, /type must be one of count, count_distinct/);
    // The other members still compile.
    assert.ok(r.cubes[0]!.measures.some((m) => m.name === 'avg_amount'));
  });

  it('checks member SQL on the engine and references between members and cubes', () => {
    const text = `cubes:
  - name: extra
    sql_table: orders
    joins:
      - name: nowhere
        sql: "{CUBE}.id = {nowhere}.id"
        relationship: many_to_one
    measures:
      - name: bad_column
        sql: amout
        type: sum
      - name: doubled
        sql: "{count} * 2"
        type: number
      - name: count
        type: count
      - name: missing_ref
        sql: "{nothing} + 1"
        type: number
    dimensions:
      - name: uses_measure
        sql: "{count}"
        type: number
`;
    const r = compileWith('model/cubes/extra.yml', text, engine);
    const byLine = new Map(r.errors.map((e) => [e.line, e.message]));
    assert.match(byLine.get(5)!, /extra joins nowhere: no cube named nowhere/);
    assert.match(byLine.get(10)!, /extra\.bad_column: sql: no such column: amout/);
    assert.match(byLine.get(18)!, /\{nothing\} is neither a cube nor a member of extra/);
    assert.match(byLine.get(22)!, /is a measure; a dimension cannot use a measure/);
    assert.equal(r.errors.length, 4, r.errors.map((e) => `${where(e)} ${e.message}`).join('\n'));
    const doubled = r.cubes.find((c) => c.name === 'extra')!.measures.find((m) => m.name === 'doubled')!;
    assert.equal(doubled.sql, '(COUNT(*)) * 2');
    assert.equal(doubled.viewAgg, '(COUNT(*)) * 2');
  });

  it('refuses duplicate cubes and members, unknown tables, and bad pre-aggregation references', () => {
    const text = `cubes:
  - name: orders
    sql_table: orders
  - name: elsewhere
    sql_table: public.invoices
  - name: twice
    sql_table: products
    dimensions:
      - name: id
        sql: id
        type: number
      - name: id
        sql: id
        type: number
    measures:
      - name: n
        type: count
    pre_aggregations:
      - name: rollup
        measures:
          - CUBE.id
        dimensions:
          - CUBE.n
        time_dimension: CUBE.id
        granularity: fortnight
`;
    const r = compileWith('model/cubes/more.yml', text);
    const messages = r.errors.map((e) => `${e.line}: ${e.message}`);
    assert.deepEqual(messages, [
      '2: Cube orders is already defined in model/cubes/orders.yml.',
      "5: Cube elsewhere: the sandbox's data source has the tables orders, customers, products (got public.invoices).",
      '12: twice.id is defined twice.',
      '21: twice pre_aggregations rollup: measures: CUBE.id is a dimension, not a measure.',
      '23: twice pre_aggregations rollup: dimensions: CUBE.n is a measure, not a dimension.',
      '24: twice pre_aggregations rollup: time_dimension: CUBE.id is not a time dimension.',
      '25: twice pre_aggregations rollup: granularity must be one of second, minute, hour, day, week, month, quarter, year.',
    ]);
  });

  it('compiles a file set once for the requests that arrive while it compiles, and again after a failure', async () => {
    let checkers = 0;
    let fail = false;
    const repo = new DeploymentRepo(1, 'Analytics', 'main', true, async () => {
      checkers++;
      await new Promise((r) => setTimeout(r, 20));
      if (fail) throw new Error('engine unavailable');
      return undefined;
    });
    const files = repo.branches.get('main')!.files;
    // A burst of queries on a fresh sandbox: one compilation, one model for all.
    const burst = await Promise.all(Array.from({ length: 20 }, () => repo.compile(files)));
    assert.equal(checkers, 1);
    assert.ok(burst.every((m) => m === burst[0]));
    assert.deepEqual(burst[0]!.result.errors, []);
    // Equal content under another map is served from the content key.
    assert.equal(await repo.compile(new Map(files)), burst[0]);
    assert.equal(checkers, 1);
    // A failed compilation is not kept.
    fail = true;
    const other = new Map(files).set('model/cubes/extra.yml', 'cubes: []\n');
    await assert.rejects(repo.compile(other), /engine unavailable/);
    fail = false;
    const again = await repo.compile(other);
    assert.deepEqual(again.result.errors, []);
    assert.equal(checkers, 3);
  });
});
