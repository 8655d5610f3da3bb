// A deployment's health (build status, logs shown and followed) and Export Dashboard, through
// HealthFlows and ExportFlow in plain Node (the stand-in of opsStandIn.ts): what is asked of the
// service, what lands in the output channel, what is written, and that a cancelled export writes
// nothing.
import assert from 'node:assert/strict';
import type * as ExportModule from '../../../src/deployments/exportFlow';
import type * as HealthModule from '../../../src/deployments/healthFlows';
import { loadOps, opsWorld, recorder, reset, standIn, type World } from './opsStandIn';

/* eslint-disable @typescript-eslint/no-require-imports */
const load = () => ({
  ...loadOps(),
  ...(require('../../../src/deployments/healthFlows') as typeof HealthModule),
  ...(require('../../../src/deployments/exportFlow') as typeof ExportModule),
});
/* eslint-enable @typescript-eslint/no-require-imports */

describe('deployments: build status, logs and dashboard export', () => {
  let m: ReturnType<typeof load>;
  let restore: () => void;
  before(() => ({ modules: m, restore } = standIn(load)));
  after(() => restore());

  const LOGS = 'Dashboard Platform: Deployment Logs';
  const line = (n: number) => ({ date: `2026-11-28 08:00:0${n}`, pod: 'api-0', message: `line ${n}` });

  function world(pages: unknown[] = [], w: World & { workbooks?: unknown[][] } = {}) {
    const shown = reset();
    const calls: string[] = [];
    const flows: { health?: HealthModule.HealthFlows } = {};
    const queue = [...pages];
    const ops = recorder(calls, {
      getBuildStatus: () => ({ status: 'SUCCESS' }),
      getLogs: () => {
        const p = queue.shift() ?? { items: [] };
        // The user stops following once the queue is read.
        if (queue.length === 0) flows.health?.stopFollowing();
        return p;
      },
      startDashboardExport: () => ({ jobId: 'job-1' }),
      waitForDashboardExport: (_d: never, _j: never, o: { onStatus: (s: unknown) => void }) => {
        o.onStatus({ status: 'QUEUED' });
        o.onStatus({ status: 'RENDERING', progress: 40 });
        o.onStatus({ status: 'RENDERING', progress: 30 });
        o.onStatus({ status: 'RENDERING', progress: 140 });
        return { status: 'DONE' };
      },
      downloadDashboardExport: () => ({ bytes: new Uint8Array(42) }),
    });
    const books = [...(w.workbooks ?? [[]])];
    const client = {
      ops,
      getDeployment: async (id: number) => ({ id, name: 'Revenue' }),
      listWorkbooks: async (_d: number, q: unknown) => {
        calls.push(`listWorkbooks(${JSON.stringify(q)})`);
        const items = books.shift() ?? [];
        return { items, pageInfo: { hasNextPage: books.length > 0, endCursor: `c${books.length}` } };
      },
    };
    const x = opsWorld(m, client, w);
    const health = new m.HealthFlows(x.ops);
    flows.health = health;
    return { ...x, calls, shown, health, exports: new m.ExportFlow(x.ops) };
  }

  it('Show Build Status opens the status as a read-only JSON document of that deployment', async () => {
    const x = world();
    await x.health.showBuildStatus({ deploymentId: 4 });
    assert.deepEqual(x.calls, ['getBuildStatus(4)']);
    assert.deepEqual(x.jsonShown, [
      { key: 'build-status:4', name: 'build-status-4', value: { status: 'SUCCESS' } },
    ]);
  });

  it('Show Logs writes the last 200 lines (of one pod when given) under a heading naming them', async () => {
    const x = world([{ items: [line(1), { message: 'bare' }] }]);
    assert.equal(await x.health.showLogs({ deploymentId: 4, pod: 'api-0' }), 2);
    assert.deepEqual(x.calls, ['getLogs(4, {"first":200,"pod":"api-0"})']);
    assert.deepEqual(x.ops.transcripts.get(LOGS), [
      '── logs of "Revenue", pod api-0 ──',
      '2026-11-28 08:00:01 [api-0] line 1',
      ' [?] bare',
    ]);
    const all = world([{ items: [] }]);
    assert.equal(await all.health.showLogs({ deploymentId: 4 }), 0);
    assert.deepEqual(all.calls, ['getLogs(4, {"first":200})']);
    assert.deepEqual(all.ops.transcripts.get(LOGS), ['── logs of "Revenue" ──']);
    assert.equal(all.shown.channelLog.at(-1), `${LOGS} shown (focus kept)`);
    assert.deepEqual(all.shown.channels, [LOGS]);
  });

  it('Follow Logs reads on with the cursor, at once while pages are full, until stopped', async () => {
    const x = world([
      { items: [line(1)], pageInfo: { endCursor: 'a', hasNextPage: true } },
      { items: [line(2)], pageInfo: { endCursor: 'b', hasNextPage: true } },
      { items: [line(3)], pageInfo: { endCursor: null, hasNextPage: false } },
      { items: [line(4)], pageInfo: {} },
    ]);
    // Through Show Logs with follow: the same follow.
    assert.equal(await x.health.showLogs({ deploymentId: 4, follow: true }), 4);
    assert.deepEqual(x.calls, [
      'getLogs(4, {"first":200})',
      'getLogs(4, {"first":200,"after":"a"})',
      'getLogs(4, {"first":200,"after":"b"})',
      'getLogs(4, {"first":200,"after":"b"})',
    ]);
    assert.deepEqual(x.ops.transcripts.get(LOGS), [
      '── following logs of "Revenue" ──',
      ...[1, 2, 3, 4].map((n) => `2026-11-28 08:00:0${n} [api-0] line ${n}`),
      '── stopped following logs of "Revenue" ──',
    ]);
    assert.deepEqual(
      x.shown.progress.map((p) => [p.title, p.cancellable]),
      [['Following the logs of "Revenue" (Cancel stops following)', true]],
    );
    assert.equal(x.shown.channelLog[0], `${LOGS} shown (focus kept)`);
    // Nothing is followed any more.
    assert.equal(x.health.stopFollowing(), 0);
    assert.deepEqual(x.shown.messages, ['info: No deployment logs are being followed.']);
  });

  it('a follow whose read fails says the error, still saying it stopped following', async () => {
    const x = world();
    const client = (await x.ops.client()) as unknown as { ops: { getLogs: () => Promise<never> } };
    client.ops.getLogs = async () => {
      throw new Error('The server refused.');
    };
    await assert.rejects(x.health.follow({ deploymentId: 4 }), /The server refused/);
    assert.equal(x.ops.transcripts.get(LOGS)?.at(-1), '── stopped following logs of "Revenue" ──');
  });

  it('suggests a file name from the title: letters, digits and dashes, lower case', () => {
    const cases: [string, 'png' | 'pdf', string][] = [
      ['Revenue by Region', 'png', 'revenue-by-region.png'],
      ['  Café: Q3 / Q4!  ', 'pdf', 'cafe-q3-q4.pdf'],
      ['***', 'png', 'dashboard.png'],
      ['a_b-c', 'pdf', 'a_b-c.pdf'],
    ];
    for (const [title, format, name] of cases) assert.equal(m.suggestedFileName(title, format), name, title);
  });

  const book = (id: number, name: string, pub?: { id: number; title: string }) => ({
    id,
    name,
    ...(pub ? { publishedDashboard: pub } : {}),
  });

  it('Export Dashboard lists published dashboards page by page, renders, writes the verified bytes, opens them', async () => {
    const x = world([], {
      workbooks: [
        [book(1, 'Sales', { id: 11, title: 'Sales' }), book(2, 'Draft')],
        [book(3, 'Ops', { id: 13, title: 'Ops KPIs' })],
      ],
      answers: ['Ops KPIs', 'pdf'],
    });
    x.shown.saveAs = '/tmp/out/ops-kpis.pdf';
    const target = await x.exports.exportDashboard({ deploymentId: 4 });
    assert.equal(target?.fsPath, '/tmp/out/ops-kpis.pdf');
    assert.deepEqual(x.prompter.rows.get('Export Dashboard'), [
      { label: 'Sales', description: undefined, detail: undefined },
      { label: 'Ops KPIs', description: 'workbook Ops', detail: undefined },
    ]);
    assert.deepEqual(x.calls, [
      'listWorkbooks({"first":200})',
      'listWorkbooks({"first":200,"after":"c1"})',
      'startDashboardExport(4, {"dashboardId":13,"format":"pdf"})',
      'waitForDashboardExport(4, "job-1", {"signal":{}})',
      'downloadDashboardExport(4, "job-1", {"filename":"ops-kpis","signal":{},"format":"pdf"})',
    ]);
    const dialog = x.shown.saveDialogs[0] as {
      title: string;
      defaultUri: { path: string };
      filters: unknown;
    };
    assert.equal(dialog.title, 'Save "Ops KPIs" as PDF');
    assert.match(dialog.defaultUri.path, /\/ops-kpis\.pdf$/);
    assert.deepEqual(dialog.filters, { 'PDF document': ['pdf'] });
    assert.deepEqual(x.shown.written, [{ path: '/tmp/out/ops-kpis.pdf', bytes: 42 }]);
    assert.deepEqual(x.shown.commands, [
      'vscode.open [{"scheme":"file","path":"/tmp/out/ops-kpis.pdf","fsPath":"/tmp/out/ops-kpis.pdf"}]',
    ]);
    assert.deepEqual(x.logged, ['Exported "Ops KPIs" of "Revenue" to /tmp/out/ops-kpis.pdf (42 bytes)']);
    assert.deepEqual(x.questions, [
      'pick Export Dashboard | Pick a published dashboard',
      'pick Export "Ops KPIs" | ',
    ]);
    assert.deepEqual(x.prompter.rows.get('Export "Ops KPIs"'), [
      { label: 'PNG image', description: 'png', detail: undefined },
      { label: 'PDF document', description: 'pdf', detail: undefined },
    ]);
    // The render's progress: its status, the percentage only forward and at most 100, then the download.
    assert.deepEqual(x.shown.progress, [
      {
        title: 'Exporting "Ops KPIs" of "Revenue" as PDF',
        cancellable: true,
        reports: [
          { message: 'QUEUED' },
          { message: 'RENDERING', increment: 40 },
          { message: 'RENDERING' },
          { message: 'RENDERING', increment: 60 },
          { message: 'downloading' },
        ],
      },
    ]);
  });

  it('Export Dashboard with a target and open: false saves, then offers Open', async () => {
    const x = world([], { workbooks: [[book(1, 'Sales', { id: 11, title: 'Sales' })]] });
    x.shown.buttons = ['Open'];
    await x.exports.exportDashboard({
      deploymentId: 4,
      dashboardId: 11,
      format: 'png',
      target: '/tmp/s.v2.png',
      open: false,
    });
    assert.deepEqual(x.prompter.asked, []);
    assert.deepEqual(x.shown.saveDialogs, []);
    assert.deepEqual(x.shown.written, [{ path: '/tmp/s.v2.png', bytes: 42 }]);
    assert.deepEqual(x.shown.messages, ['info: Saved "Sales" to /tmp/s.v2.png. [Open]']);
    // Only the last extension is the format's: the file keeps the rest of its name.
    assert.ok(
      x.calls.some((c) => c.includes('"filename":"s.v2"')),
      x.calls.join('\n'),
    );
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(x.shown.commands, [
      'vscode.open [{"scheme":"file","path":"/tmp/s.v2.png","fsPath":"/tmp/s.v2.png"}]',
    ]);
    assert.ok(
      x.calls.includes('startDashboardExport(4, {"dashboardId":11,"format":"png"})'),
      x.calls.join('\n'),
    );
    // A dashboard id not among the published ones is still exported under a made-up title.
    const other = world([], { workbooks: [[]] });
    await other.exports.exportDashboard({
      deploymentId: 4,
      dashboardId: 99,
      format: 'png',
      target: '/tmp/x.png',
    });
    assert.deepEqual(other.shown.progressTitles, ['Exporting "dashboard-99" of "Revenue" as PNG']);
  });

  it('a cancelled save dialog or render writes nothing; no published dashboard says so', async () => {
    const dialog = world([], {
      workbooks: [[book(1, 'Sales', { id: 11, title: 'Sales' })]],
      answers: ['Sales', 'png'],
    });
    await assert.rejects(dialog.exports.exportDashboard({ deploymentId: 4 }), { name: 'UserCancelled' });
    assert.ok(!dialog.calls.some((c) => c.startsWith('startDashboardExport')), dialog.calls.join('\n'));
    assert.deepEqual((dialog.shown.saveDialogs[0] as { filters: unknown }).filters, { 'PNG image': ['png'] });
    // Dismissed Open: nothing opened.
    const kept = world([], { workbooks: [[]] });
    await kept.exports.exportDashboard({
      deploymentId: 4,
      dashboardId: 1,
      format: 'png',
      target: '/tmp/k.png',
      open: false,
    });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(kept.shown.commands, []);
    const render = world([], { workbooks: [[]] });
    render.shown.cancelProgress = true;
    const client = (await render.ops.client()) as unknown as {
      ops: { startDashboardExport: () => Promise<never> };
    };
    client.ops.startDashboardExport = async () => {
      throw new Error('aborted');
    };
    await assert.rejects(
      render.exports.exportDashboard({
        deploymentId: 4,
        dashboardId: 1,
        format: 'png',
        target: '/tmp/y.png',
      }),
      { name: 'UserCancelled' },
    );
    assert.deepEqual(render.shown.written, []);
    const none = world([], { workbooks: [[book(2, 'Draft')]] });
    await assert.rejects(
      none.exports.exportDashboard({ deploymentId: 4 }),
      /^Error: "Revenue" has no published dashboards\.$/,
    );
  });
});
