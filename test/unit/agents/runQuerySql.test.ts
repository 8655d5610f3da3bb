// run_query's SQL path and what it is summarised as before it runs (the line VS Code asks the user
// to allow), the one-of rule between sql and query, and how a deployment or report is named in the
// answers (`"Sales" (4)`). Over a recording gateway; vscode-free.
import assert from 'node:assert/strict';
import type { PlatformGateway } from '../../../src/agents/gateway';
import { runQuery } from '../../../src/agents/tools/data';
import { named } from '../../../src/agents/tools/format';
import type { ToolOutput } from '../../../src/agents/tools/types';

function gateway() {
  const sent: { deployment: number; sql: string; timeoutMs: unknown }[] = [];
  const g = {
    profile: () => ({ name: 'Team', production: false, sandbox: false }),
    deploymentName: async () => 'Sales',
    async *cubesql(deployment: number, sql: string, o: { timeoutMs?: number }) {
      sent.push({ deployment, sql, timeoutMs: o.timeoutMs });
      yield { type: 'schema', schema: [{ name: 'status' }, { name: 'n' }] };
      yield {
        type: 'rows',
        rows: [
          ['new', 1],
          ['paid', 2],
        ],
      };
      yield { type: 'rows', rows: [['sent', 3]] };
    },
    load: async () => {
      throw new Error('no JSON query expected');
    },
  };
  return { sent, ctx: { gateway: g as unknown as PlatformGateway, redact: (t: string) => t } };
}

const exec = (ctx: ReturnType<typeof gateway>['ctx'], input: Record<string, unknown>) =>
  runQuery.execute(ctx, runQuery.input.parse(input) as never, undefined) as Promise<ToolOutput>;

describe('agent tools: run_query with SQL, its summary and the one-of rule', () => {
  it('says what it will run: the SQL, or the JSON query', () => {
    assert.equal(runQuery.summary!({ sql: 'SELECT 1' } as never), 'Run SQL: SELECT 1');
    assert.equal(
      runQuery.summary!({ query: { measures: ['orders.count'] } } as never),
      'Run the JSON query {"measures":["orders.count"]}',
    );
  });

  it('sends the SQL to the deployment and pages the rows it streams', async () => {
    const g = gateway();
    const out = await exec(g.ctx, { deploymentId: 4, sql: 'SELECT status, n FROM t', limit: 2, offset: 1 });
    assert.deepEqual(g.sent, [{ deployment: 4, sql: 'SELECT status, n FROM t', timeoutMs: 120_000 }]);
    assert.deepEqual(out.table, {
      columns: ['status', 'n'],
      rows: [
        ['paid', 2],
        ['sent', 3],
      ],
    });
    assert.deepEqual(out.page, { returned: 2, hasMore: false, total: 3 });
    assert.equal(out.text, 'SQL on deployment "Sales" (4): 3 rows; rows 2-3 shown.');
  });

  it('refuses both sql and query, or neither, before anything is sent', async () => {
    for (const input of [
      { deploymentId: 4, sql: 'SELECT 1', query: { measures: ['m'] } },
      { deploymentId: 4 },
    ]) {
      const g = gateway();
      await assert.rejects(exec(g.ctx, input), /^Error: Give exactly one of "sql" or "query"\.$/);
      assert.deepEqual(g.sent, []);
    }
  });

  it('names a thing by its quoted name and id, else by its id alone', () => {
    const cases: [unknown, number | string, string][] = [
      ['Sales', 4, '"Sales" (4)'],
      ['Sales', 'abc', '"Sales" ("abc")'],
      ['', 4, '4'],
      [undefined, 'abc', '"abc"'],
      [null, 7, '7'],
      ['Line\nbreak', 1, '"Line\\nbreak" (1)'],
    ];
    assert.deepEqual(
      cases.map(([name, id]) => named(name, id)),
      cases.map((c) => c[2]),
    );
  });
});
