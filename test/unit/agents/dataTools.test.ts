// run_query's JSON path and search_data_model over a recording gateway: the page asked of the
// server (the query's own offset and limit kept, one row more to know whether there is another
// page), the columns in the annotation's order (dimensions, time dimensions, measures, then any
// other key a row has), the total when the server gives one; the model search's filters and paging.
// vscode-free.
import assert from 'node:assert/strict';
import type { PlatformGateway } from '../../../src/agents/gateway';
import { runQuery, searchDataModel } from '../../../src/agents/tools/data';
import type { AgentTool, ToolOutput } from '../../../src/agents/tools/types';

function gateway(result: Record<string, unknown> | undefined, cubes: unknown[] = []) {
  const loads: unknown[] = [];
  const g = {
    profile: () => ({ name: 'Team', production: false, sandbox: false }),
    deploymentName: async () => 'Sales',
    load: async (_d: number, q: unknown) => (loads.push(q), { results: result ? [result] : [] }),
    cubes: async () => cubes,
  };
  return { loads, ctx: { gateway: g as unknown as PlatformGateway, redact: (t: string) => t } };
}

const exec = (tool: AgentTool, ctx: ReturnType<typeof gateway>['ctx'], input: Record<string, unknown>) =>
  tool.execute(ctx, tool.input.parse(input) as never, undefined) as Promise<ToolOutput>;

describe('agent tools: run_query with a JSON query, search_data_model', () => {
  const annotation = {
    measures: { 'orders.count': {} },
    dimensions: { 'orders.status': {} },
    timeDimensions: { 'orders.created_at.day': {} },
  };

  it('columns follow the annotation (dimensions, time dimensions, measures), then other keys rows have', async () => {
    const g = gateway({
      annotation,
      data: [
        { 'orders.count': 3, 'orders.status': 'new', 'orders.created_at.day': '2026-01-01' },
        { 'orders.count': 4, 'orders.status': 'paid', extra: 'x' },
      ],
    });
    const out = await exec(runQuery, g.ctx, {
      deploymentId: 4,
      query: { measures: ['orders.count'] },
      limit: 5,
    });
    assert.deepEqual(out.table!.columns, ['orders.status', 'orders.created_at.day', 'orders.count', 'extra']);
    assert.deepEqual(out.table!.rows, [
      ['new', '2026-01-01', 3, undefined],
      ['paid', undefined, 4, 'x'],
    ]);
    assert.deepEqual(g.loads, [
      { measures: ['orders.count'], responseFormat: 'default', offset: 0, limit: 6 },
    ]);
    assert.equal(out.text, 'JSON query on deployment "Sales" (4); rows 1-2 shown.');
    assert.deepEqual(out.page, { returned: 2, hasMore: false });
  });

  it('without an annotation the first row names the columns; one row more than asked means another page', async () => {
    const g = gateway({ data: [{ a: 1 }, { a: 2, b: 3 }, { a: 3 }] });
    const out = await exec(runQuery, g.ctx, {
      deploymentId: 4,
      query: { measures: ['m'], offset: 10 },
      limit: 2,
      offset: 4,
    });
    assert.deepEqual(out.table, {
      columns: ['a', 'b'],
      rows: [
        [1, undefined],
        [2, 3],
      ],
    });
    assert.deepEqual(g.loads, [{ measures: ['m'], offset: 14, limit: 3, responseFormat: 'default' }]);
    assert.deepEqual(out.page, { returned: 2, hasMore: true, nextOffset: 6 });
    assert.equal(out.text, 'JSON query on deployment "Sales" (4); rows 5-6 shown.');
  });

  it("a total from the server is reported (within the query's own limit); nothing past that limit is asked", async () => {
    const g = gateway({ annotation, data: [{ 'orders.count': 1 }], total: 25 });
    const out = await exec(runQuery, g.ctx, {
      deploymentId: 4,
      query: { measures: ['orders.count'], limit: 21 },
      offset: 20,
      limit: 10,
    });
    assert.deepEqual(g.loads, [
      { measures: ['orders.count'], limit: 2, offset: 20, responseFormat: 'default' },
    ]);
    assert.equal(out.text, 'JSON query on deployment "Sales" (4): 21 rows; rows 21-21 shown.');
    assert.deepEqual(out.page, { returned: 1, hasMore: false, total: 21 });
    const past = gateway({ data: [{ a: 1 }] });
    const none = await exec(runQuery, past.ctx, {
      deploymentId: 4,
      query: { measures: ['m'], limit: 5 },
      offset: 5,
    });
    assert.deepEqual(none.table!.rows, []);
    assert.equal(none.text, 'JSON query on deployment "Sales" (4); rows none shown.');
    const empty = await exec(runQuery, gateway(undefined).ctx, {
      deploymentId: 4,
      query: { measures: ['m'] },
    });
    assert.deepEqual(empty.table, { columns: [], rows: [] });
  });

  it('an invalid JSON query is refused naming the field, before anything is sent', async () => {
    const g = gateway({ data: [] });
    await assert.rejects(
      exec(runQuery, g.ctx, { deploymentId: 4, query: { measures: 'orders.count' } }),
      /^Error: The JSON query is not valid: measures: /,
    );
    assert.deepEqual(g.loads, []);
  });

  const cubes = [
    {
      name: 'orders',
      title: 'Orders',
      description: 'Every order',
      measures: [{ name: 'orders.count', type: 'number', title: 'Count' }],
      dimensions: [{ name: 'orders.status', type: 'string', description: 'Order state' }],
      segments: [{ name: 'orders.open' }],
    },
    { name: 'sales', type: 'view', measures: [{ name: 'sales.total' }], dimensions: [] },
  ];

  it('search_data_model: text in name, title or description; a cube and kinds narrow it; pages by offset', async () => {
    const all = await exec(searchDataModel, gateway(undefined, cubes).ctx, { deploymentId: 4 });
    assert.deepEqual(all.table!.rows, [
      ['orders', 'cube', '', 'Orders', 'Every order'],
      ['orders.count', 'measure', 'number', 'Count', undefined],
      ['orders.status', 'dimension', 'string', undefined, 'Order state'],
      ['orders.open', 'segment', '', undefined, undefined],
      ['sales', 'view', '', undefined, undefined],
      ['sales.total', 'measure', '', undefined, undefined],
    ]);
    assert.equal(all.text, 'Data model of deployment "Sales" (4): 6 matches in 2 cubes and views.');
    const state = await exec(searchDataModel, gateway(undefined, cubes).ctx, {
      deploymentId: 4,
      search: 'STATE',
    });
    assert.deepEqual(
      state.table!.rows.map((r) => r[0]),
      ['orders.status'],
    );
    assert.equal(state.text, 'Data model of deployment "Sales" (4): 1 match in 2 cubes and views.');
    const narrowed = await exec(searchDataModel, gateway(undefined, cubes).ctx, {
      deploymentId: 4,
      cube: 'orders',
      kinds: ['measure', 'segment'],
    });
    assert.deepEqual(
      narrowed.table!.rows.map((r) => r[0]),
      ['orders.count', 'orders.open'],
    );
    const paged = await exec(searchDataModel, gateway(undefined, cubes).ctx, {
      deploymentId: 4,
      offset: 1,
      limit: 2,
    });
    assert.deepEqual(
      paged.table!.rows.map((r) => r[0]),
      ['orders.count', 'orders.status'],
    );
    assert.deepEqual(paged.page, { returned: 2, hasMore: true, total: 6, nextOffset: 3 });
    const last = await exec(searchDataModel, gateway(undefined, cubes).ctx, { deploymentId: 4, offset: 4 });
    assert.deepEqual(last.page, { returned: 2, hasMore: false, total: 6 });
  });
});
