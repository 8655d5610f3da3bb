// The catalog tools (src/agents/tools/catalog.ts) over a recording gateway: the exact calls they
// make (page size, cursor, search only when given), what they answer (text, table, page facts), the
// workbook search's own cursor (a client-side filter resumed where it stopped, at most 20 API
// pages a call, a foreign cursor refused), a report's SQL and JSON query, notifications' schedule
// and state. vscode-free.
import assert from 'node:assert/strict';
import type { PlatformGateway } from '../../../src/agents/gateway';
import {
  getReportSql,
  listDeployments,
  listNotifications,
  searchReports,
  searchWorkbooks,
} from '../../../src/agents/tools/catalog';
import type { AgentTool, ToolOutput } from '../../../src/agents/tools/types';

type Page = { items: Record<string, unknown>[]; hasMore: boolean; nextCursor?: string };

/** A gateway that records each call (method and arguments) and answers from `answers`. */
function gateway(
  answers: { pages?: Page[]; item?: Record<string, unknown>; defaultDeploymentId?: number } = {},
) {
  const calls: string[] = [];
  const pages = [...(answers.pages ?? [])];
  const page =
    (name: string) =>
    async (...a: unknown[]) => {
      calls.push(
        `${name} ${a
          .filter((x) => x !== undefined && !(x instanceof AbortSignal))
          .map((x) => JSON.stringify(x))
          .join(' ')}`,
      );
      return pages.shift() ?? { items: [], hasMore: false };
    };
  const g = {
    profile: () => ({
      name: 'Team',
      production: false,
      sandbox: false,
      ...(answers.defaultDeploymentId ? { defaultDeploymentId: answers.defaultDeploymentId } : {}),
    }),
    deploymentName: async (id: number) => (id === 4 ? 'Sales' : undefined),
    listDeployments: page('listDeployments'),
    listReports: page('listReports'),
    listWorkbooks: page('listWorkbooks'),
    listNotifications: page('listNotifications'),
    getReport: async (...a: unknown[]) => {
      calls.push(`getReport ${a.slice(0, 2).join(' ')}`);
      return answers.item;
    },
  };
  return { calls, ctx: { gateway: g as unknown as PlatformGateway, redact: (t: string) => t } };
}

const exec = (tool: AgentTool, ctx: ReturnType<typeof gateway>['ctx'], input: Record<string, unknown>) =>
  tool.execute(ctx, tool.input.parse(input) as never, undefined) as Promise<ToolOutput>;

describe('agent tools: the catalog over a recording gateway', () => {
  it('list_deployments: 50 a page, the cursor passed on, the profile and its default deployment named', async () => {
    const g = gateway({
      pages: [{ items: [{ id: 4, name: 'Sales' }], hasMore: true, nextCursor: 'c2' }],
      defaultDeploymentId: 4,
    });
    const out = await exec(listDeployments, g.ctx, { after: 'c1' });
    assert.deepEqual(g.calls, ['listDeployments {"first":50,"after":"c1"}']);
    assert.equal(out.text, 'Deployments of profile "Team" (default deployment 4).');
    assert.deepEqual(out.table, { columns: ['id', 'name'], rows: [[4, 'Sales']] });
    assert.deepEqual(out.page, { returned: 1, hasMore: true, nextCursor: 'c2' });
    const last = await exec(listDeployments, gateway().ctx, { first: 5 });
    assert.equal(last.text, 'Deployments of profile "Team".');
    assert.deepEqual(last.page, { returned: 0, hasMore: false });
  });

  it('search_reports: the search sent only when given, named in the answer', async () => {
    const g = gateway({
      pages: [
        { items: [{ id: 7, name: 'Revenue', title: 'Rev', folderId: 2 }], hasMore: false },
        { items: [], hasMore: false },
      ],
    });
    const found = await exec(searchReports, g.ctx, { deploymentId: 4, search: 'rev', first: 10 });
    const all = await exec(searchReports, g.ctx, { deploymentId: 4, search: '' });
    assert.deepEqual(g.calls, ['listReports 4 {"first":10,"search":"rev"}', 'listReports 4 {"first":50}']);
    assert.equal(found.text, 'Reports in deployment "Sales" (4) matching "rev".');
    assert.deepEqual(found.table, {
      columns: ['id', 'name', 'title', 'folderId'],
      rows: [[7, 'Revenue', 'Rev', 2]],
    });
    assert.equal(all.text, 'Reports in deployment "Sales" (4).');
    assert.equal(searchReports.summary({ search: 'a"b' } as never), 'Search reports for "a\\"b"');
    assert.equal(searchReports.summary({} as never), 'List reports');
  });

  describe('search_workbooks', () => {
    const wb = (id: number, name: string, published = false) => ({
      id,
      name,
      slug: `s${id}`,
      dashboardPublished: published,
    });
    const decode = (c: string) => JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as unknown;

    it('filters names case-insensitively and stops mid-page with a cursor that resumes there', async () => {
      const page1: Page = {
        items: [wb(1, 'Sales EU', true), wb(2, 'Ops'), wb(3, 'sales us'), wb(4, 'SALES asia')],
        hasMore: true,
        nextCursor: 'p2',
      };
      const g = gateway({ pages: [page1, page1] });
      const first = await exec(searchWorkbooks, g.ctx, { deploymentId: 4, search: 'Sales', first: 2 });
      assert.equal(first.text, 'Workbooks in deployment "Sales" (4) whose name contains "Sales".');
      assert.deepEqual(first.table, {
        columns: ['id', 'name', 'slug', 'published'],
        rows: [
          [1, 'Sales EU', 's1', 'yes'],
          [3, 'sales us', 's3', 'no'],
        ],
      });
      assert.equal(first.page!.hasMore, true);
      assert.deepEqual(decode(first.page!.nextCursor!), { s: 2 });
      const rest = await exec(searchWorkbooks, g.ctx, {
        deploymentId: 4,
        search: 'sales',
        first: 2,
        after: first.page!.nextCursor,
      });
      assert.deepEqual(rest.table!.rows, [[4, 'SALES asia', 's4', 'no']]);
      // The rest of the first page, then the next page (there may be more matches).
      assert.deepEqual(g.calls, [
        'listWorkbooks 4 {"first":100}',
        'listWorkbooks 4 {"first":100}',
        'listWorkbooks 4 {"first":100,"after":"p2"}',
      ]);
    });

    it('reads further pages until enough are found, and resumes from the API cursor', async () => {
      const g = gateway({
        pages: [
          { items: [wb(1, 'a1'), wb(2, 'b')], hasMore: true, nextCursor: 'p2' },
          { items: [wb(3, 'a3')], hasMore: true, nextCursor: 'p3' },
        ],
      });
      const out = await exec(searchWorkbooks, g.ctx, { deploymentId: 4, search: 'A', first: 2 });
      assert.deepEqual(g.calls, [
        'listWorkbooks 4 {"first":100}',
        'listWorkbooks 4 {"first":100,"after":"p2"}',
      ]);
      assert.deepEqual(
        out.table!.rows.map((r) => r[0]),
        [1, 3],
      );
      assert.deepEqual(out.page!.returned, 2);
      assert.deepEqual(decode(out.page!.nextCursor!), { a: 'p3', s: 0 });
      // A cursor in the middle of a later page keeps the API cursor.
      const h = gateway({ pages: [{ items: [wb(5, 'a5'), wb(6, 'a6'), wb(7, 'a7')], hasMore: false }] });
      const mid = await exec(searchWorkbooks, h.ctx, {
        deploymentId: 4,
        first: 1,
        after: Buffer.from('{"a":"p3","s":1}').toString('base64url'),
      });
      assert.deepEqual(h.calls, ['listWorkbooks 4 {"first":100,"after":"p3"}']);
      assert.deepEqual(
        mid.table!.rows.map((r) => r[0]),
        [6],
      );
      assert.deepEqual(decode(mid.page!.nextCursor!), { a: 'p3', s: 2 });
      assert.equal(mid.text, 'Workbooks in deployment "Sales" (4).');
    });

    it('the last page ends the list without a cursor', async () => {
      const g = gateway({ pages: [{ items: [wb(1, 'a'), wb(2, 'b')], hasMore: false }] });
      const out = await exec(searchWorkbooks, g.ctx, { deploymentId: 4, first: 2 });
      assert.deepEqual(out.page, { returned: 2, hasMore: false });
    });

    it('reads at most 20 API pages a call, then answers what it found with a cursor to go on', async () => {
      const pages = Array.from({ length: 25 }, (_, i) => ({
        items: [wb(i, 'x')],
        hasMore: true,
        nextCursor: `p${i + 1}`,
      }));
      const g = gateway({ pages });
      const out = await exec(searchWorkbooks, g.ctx, { deploymentId: 4, search: 'nothing like it' });
      assert.equal(g.calls.length, 20);
      assert.deepEqual(out.page!.returned, 0);
      assert.equal(out.page!.hasMore, true);
      assert.deepEqual(decode(out.page!.nextCursor!), { a: 'p20', s: 0 });
    });

    it('refuses a cursor it did not make, before any call', async () => {
      for (const after of [
        'not-base64-json',
        Buffer.from('{"s":"1"}').toString('base64url'),
        Buffer.from('{"s":1,"a":2}').toString('base64url'),
      ]) {
        const g = gateway();
        await assert.rejects(exec(searchWorkbooks, g.ctx, { deploymentId: 4, after }), {
          message: 'The cursor is not one this tool returned; start again without "after".',
        });
        assert.deepEqual(g.calls, []);
      }
    });
  });

  it('get_report_sql: the SQL and JSON query fenced, blank ones said absent, null fields left out', async () => {
    const g = gateway({
      item: {
        id: 7,
        name: 'Revenue',
        title: null,
        type: 'sql',
        folderId: 2,
        sqlQuery: 'SELECT 1',
        jsonQuery: '{"measures":[]}',
      },
    });
    const out = await exec(getReportSql, g.ctx, { deploymentId: 4, reportId: 7 });
    assert.deepEqual(g.calls, ['getReport 4 7']);
    assert.equal(
      out.text,
      'Report "Revenue" (7) in deployment "Sales" (4).\nSQL:\n```sql\nSELECT 1\n```\nJSON query:\n```json\n{"measures":[]}\n```',
    );
    assert.deepEqual(out.table!.rows, [
      ['id', 7],
      ['name', 'Revenue'],
      ['type', 'sql'],
      ['folderId', 2],
    ]);
    assert.deepEqual(out.data, {
      reportId: 7,
      name: 'Revenue',
      sqlQuery: 'SELECT 1',
      jsonQuery: '{"measures":[]}',
    });
    const blank = await exec(
      getReportSql,
      gateway({ item: { id: 8, name: '', sqlQuery: '  ', jsonQuery: ' ' } }).ctx,
      { deploymentId: 9, reportId: 8 },
    );
    assert.equal(blank.text, 'Report 8 in deployment "deployment 9" (9).\nThis report has no SQL query.');
    assert.deepEqual(blank.data, { reportId: 8, name: '', sqlQuery: null, jsonQuery: null });
  });

  it('list_notifications: one dashboard when given; the readable schedule, else the cron; enabled unless false', async () => {
    const g = gateway({
      pages: [
        {
          items: [
            {
              id: 1,
              dashboardId: 3,
              humanReadableSchedule: 'Every day',
              cronExpression: '0 9 * * *',
              timezone: 'UTC',
              notificationFormat: 'pdf',
              isEnabled: false,
            },
            {
              id: 2,
              dashboardId: 3,
              cronExpression: '0 9 * * 1',
              timezone: 'CET',
              notificationFormat: 'csv',
            },
          ],
          hasMore: false,
        },
        { items: [], hasMore: true, nextCursor: 'n2' },
      ],
    });
    const out = await exec(listNotifications, g.ctx, { deploymentId: 4, dashboardId: 3, after: 'a1' });
    const all = await exec(listNotifications, g.ctx, { deploymentId: 4 });
    assert.deepEqual(g.calls, [
      'listNotifications 4 {"first":50,"after":"a1","dashboardId":3}',
      'listNotifications 4 {"first":50}',
    ]);
    assert.equal(out.text, 'Notifications in deployment "Sales" (4) for dashboard 3.');
    assert.deepEqual(out.table!.columns, ['id', 'dashboardId', 'schedule', 'timezone', 'format', 'enabled']);
    assert.deepEqual(out.table!.rows, [
      [1, 3, 'Every day', 'UTC', 'pdf', 'no'],
      [2, 3, '0 9 * * 1', 'CET', 'csv', 'yes'],
    ]);
    assert.equal(all.text, 'Notifications in deployment "Sales" (4).');
    assert.deepEqual(all.page, { returned: 0, hasMore: true, nextCursor: 'n2' });
    assert.equal(listNotifications.summary({ dashboardId: 3 } as never), 'List notifications of dashboard 3');
    assert.equal(listNotifications.summary({} as never), 'List notifications');
  });

  it('the deployment: the profile default, else the only one, else a question naming the profile', async () => {
    const byDefault = gateway({ defaultDeploymentId: 4 });
    assert.equal((await exec(searchReports, byDefault.ctx, {})).text, 'Reports in deployment "Sales" (4).');
    const only = gateway({ pages: [{ items: [{ id: 6, name: 'Only' }], hasMore: false }] });
    assert.equal((await exec(searchReports, only.ctx, {})).text, 'Reports in deployment "Only" (6).');
    assert.equal(only.calls[0], 'listDeployments {"first":2}');
    const two = gateway({ pages: [{ items: [{ id: 6 }, { id: 7 }], hasMore: false }] });
    await assert.rejects(exec(searchReports, two.ctx, {}), {
      message:
        'Say which deployment: pass deploymentId (list_deployments lists them; profile "Team" has no default deployment).',
    });
    await assert.rejects(exec(searchReports, gateway().ctx, {}), {
      message: 'This profile can see no deployment.',
    });
  });
});
