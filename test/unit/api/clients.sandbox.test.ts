// The three clients against the real sandbox over HTTP: every operation, the 4.1 rules, and each
// fault mode against the behaviour the client promises.
import * as assert from 'node:assert/strict';
import {
  AiClient,
  ApiError,
  DataClient,
  PlatformClient,
  recipientRemoval,
  type ChatEvent,
} from '../../../src/api';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';

const fast = { retries: 3, baseDelayMs: 5, maxDelayMs: 20 };

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('clients against the sandbox', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let admin: PlatformClient;
  let member: PlatformClient;
  let data: DataClient;
  let ai: AiClient;

  before(async () => {
    sb = await startSandbox({ rows: 5000, continueWaitMs: 300, aiEventDelayMs: 2, dbtStepMs: 50 });
    admin = new PlatformClient({
      baseUrl: sb.urls.platform,
      token: async () => sb.tokens.admin,
      retry: fast,
    });
    member = new PlatformClient({
      baseUrl: sb.urls.platform,
      token: async () => sb.tokens.member,
      retry: fast,
    });
    data = new DataClient({
      baseUrl: sb.urls.dataApi,
      token: async () => sb.tokens.dataApi,
      retry: fast,
      cacheKey: '1',
    });
    ai = new AiClient({ baseUrl: sb.urls.ai[0]!.url, apiKey: async () => sb.tokens.aiApiKey, retry: fast });
  });
  after(async () => {
    await Promise.all([admin.close(), member.close(), data.close?.(), ai.close?.()]);
    await sb.close();
  });
  afterEach(() => sb.faults.clear());

  describe('platform', () => {
    it('lists deployments, environments, folders, reports, workbooks, env vars and users', async () => {
      const deps = await admin.listDeployments({ first: 10 });
      assert.deepEqual(
        deps.items.map((d) => d.id),
        [1, 2, 3],
      );
      assert.equal((await admin.getDeployment(2)).name, 'Analytics (Production)');
      assert.equal((await admin.listEnvironments(1)).items.length, 3);
      const folders = await admin.listFolders(1, { first: 200 });
      assert.ok(folders.items.some((f) => f.parentId));
      const wbs = await admin.listWorkbooks(1, { first: 5 });
      assert.equal(wbs.items.length, 5);
      const wb = await admin.getWorkbook(1, wbs.items[0]!.id);
      assert.ok(wb.dashboardDraft);
      assert.equal((await admin.listEnvVars(1)).items.length, 9);
      assert.equal((await admin.listUsers({ first: 200 })).items.length, 12);
      assert.equal((await admin.getAppConfig()).applyThemeGlobally, true);
    });

    it('pages through every notification, newest first, one request a page', async () => {
      const before = sb.state.requestCounts['platform GET /v1/deployments/1/notifications'] ?? 0;
      const ids: number[] = [];
      for await (const n of admin.iterateNotifications(1, { first: 50 })) ids.push(n.id);
      assert.equal(ids.length, 230);
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => b - a),
      );
      assert.equal(sb.state.requestCounts['platform GET /v1/deployments/1/notifications']! - before, 5);
    });

    it('filters notifications by dashboard and recipient, and refuses each 4.1 conflict before sending', async () => {
      const page = await admin.listNotifications(1, {
        dashboardPublicId: 'pub1x0000001',
        recipientEmbedTenantName: 'acme',
        recipientExternalId: 'ext-0',
      });
      // (The old test's id matched nothing, and its `every` passed on the empty page.)
      assert.ok(page.items.length > 0, 'the filter matches some notifications');
      assert.ok(page.items.every((n) => n.dashboardId === 1001));
      const before = { ...sb.state.requestCounts };
      for (const q of [
        { first: 0 },
        { dashboardId: 1, dashboardPublicId: 'x' },
        { recipientUserId: 1, recipientEmail: 'a@b' },
        { recipientExternalId: 'x' },
      ]) {
        await assert.rejects(
          admin.listNotifications(1, q),
          (e: unknown) => e instanceof ApiError && e.kind === 'validation',
        );
      }
      assert.deepEqual(sb.state.requestCounts, before);
    });

    it('enforces the 4.1 rules server-side too', async () => {
      const res = await fetch(
        `${sb.urls.platform}/v1/deployments/1/notifications?dashboardId=1&dashboardPublicId=x`,
        {
          headers: { authorization: `Bearer ${sb.tokens.admin}` },
        },
      );
      assert.equal(res.status, 400);
      assert.match(((await res.json()) as { error: string }).error, /dashboardId or dashboardPublicId/);
    });

    it('tells a non-admin that notifications need the admin role', async () => {
      await assert.rejects(
        member.listNotifications(1),
        (e: unknown) => e instanceof ApiError && e.kind === 'forbidden' && /admin role/.test(e.message),
      );
    });

    it('searches and sorts reports; lastViewedAt gives one page', async () => {
      const found = await admin.listReports(1, { search: 'churn', first: 200 });
      assert.ok(found.items.length > 0 && found.items.every((r) => /churn/i.test(r.name)));
      const byName = await admin.listReports(1, { sortBy: 'name', first: 20 });
      const names = byName.items.map((r) => r.name);
      assert.deepEqual(
        names,
        [...names].sort((a, b) => a.localeCompare(b)),
      );
      const lastViewed = await admin.listReports(1, { sortBy: 'lastViewedAt', first: 10 });
      assert.equal(lastViewed.pageInfo?.hasNextPage, false);
    });

    it('publishes a new version, connects a report, duplicates, attaches an AI thread', async () => {
      const wb = (await admin.listWorkbooks(1, { first: 1 })).items[0]!;
      const p1 = await admin.publishDashboard(1, wb.id, { workbookId: wb.id, title: 'First' });
      const p2 = await admin.publishDashboard(1, wb.id, { workbookId: wb.id, title: 'Second' });
      assert.equal(p2.versionNumber, (p1.versionNumber ?? NaN) + 1);
      assert.equal(p2.status, 'published');
      await assert.rejects(admin.publishDashboard(1, wb.id, { workbookId: wb.id + 1 }), /does not match/);
      const report = (await admin.listReports(1, { first: 1 })).items[0]!;
      const connected = await admin.connectReportToWorkbook(1, report.id, {
        externalWorkbookId: 'sheet-1',
        resultLocation: 'A1',
      });
      assert.equal(connected.externalWorkbookPlacements?.[0]?.resultLocation, 'A1');
      const copy = await admin.duplicateWorkbook(1, wb.id, { shared: true });
      assert.notEqual(copy.id, wb.id);
      const withThread = await admin.updateAiWidgetThread(1, wb.id, { threadId: 't1', widgetId: 'w1' });
      assert.ok((withThread as Record<string, unknown>).aiWidgetThreads);
    });

    it('creates a notification and manages its recipients', async () => {
      const workbooks = (await admin.listWorkbooks(1, { first: 50 })).items;
      const publicId = workbooks
        .map((w) => (w.publishedDashboard as { publicId?: string } | null | undefined)?.publicId)
        .find((p) => typeof p === 'string');
      assert.ok(publicId, 'a published dashboard to notify about');
      const n = await admin.createNotification(1, {
        dashboardPublicId: publicId,
        scheduleType: 'WEEKLY',
        hour: 8,
        minute: 30,
        dayOfWeek: 1,
        timezone: 'UTC',
        notificationFormat: 'png',
      });
      assert.equal(n.humanReadableSchedule, 'Every Monday at 08:30');
      const added = await admin.addRecipients(1, n.id, [{ type: 'USER', email: 'user3@sandbox.example' }]);
      assert.equal(added.createdRecipients.length, 1);
      assert.equal(added.updatedRecipients.length + added.unchangedRecipients.length, 0);
      const listed = (await admin.listRecipients(1, n.id)).items;
      assert.equal(listed.length, 1);
      // Removal names the recipient as the documents publish it: {type, id}.
      await admin.removeRecipients(1, n.id, [recipientRemoval(listed[0]!)]);
      assert.equal((await admin.listRecipients(1, n.id)).items.length, 0);
    });

    it('runs a dbt sync to COMPLETED, and to FAILED on the "fail" branch', async () => {
      const ok = await admin.startDbtSync(1, { branchName: 'main' });
      assert.equal((await admin.waitForDbtSync(1, ok.syncJobId, { intervalMs: 20 })).status, 'COMPLETED');
      const bad = await admin.startDbtSync(1, { branchName: 'fail' });
      const job = await admin.waitForDbtSync(1, bad.syncJobId, { intervalMs: 20 });
      assert.equal(job.status, 'FAILED');
      assert.ok(job.error);
    });

    it('deletes an embed tenant; again succeeds (idempotent, as published); a name in another case is refused', async () => {
      await admin.deleteEmbedTenant('globex');
      await admin.deleteEmbedTenant('globex');
      assert.equal(sb.state.deletedEmbedTenants.filter((n) => n === 'globex').length, 1);
      await assert.rejects(
        admin.deleteEmbedTenant('Initech'),
        (e: unknown) => e instanceof ApiError && e.kind === 'validation' && /lowercase/.test(e.message),
      );
    });

    it('mints a Data API token that the Data API accepts', async () => {
      const token = await admin.mintDataApiToken(1, { expiresIn: 120 });
      const minted = new DataClient({ baseUrl: sb.urls.dataApi, token: async () => token });
      assert.ok((await minted.meta()).cubes.length >= 3);
    });
  });

  describe('data', () => {
    it('loads a query with time dimensions and filters', async () => {
      const res = await data.load({
        measures: ['orders.count'],
        dimensions: ['orders.status'],
        filters: [{ member: 'orders.status', operator: 'equals', values: ['shipped', 'completed'] }],
        timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'last year' }],
        order: { 'orders.count': 'desc' },
      });
      const rows = res.results[0]!.data as Record<string, unknown>[];
      assert.deepEqual(rows.map((r) => r['orders.status']).sort(), ['completed', 'shipped']);
    });

    it('waits through "Continue wait" and reports progress', async () => {
      const attempts: number[] = [];
      const res = await data.load(
        { measures: ['orders.slow_count'] },
        { onProgress: (p) => attempts.push(p.attempt) },
      );
      assert.ok(attempts.length > 1, 'at least one Continue-wait round');
      const rows = res.results[0]!.data as Record<string, unknown>[];
      assert.ok(Number(rows[0]!['orders.slow_count']) > 0);
    });

    it('reports a bad member as a validation error naming it', async () => {
      await assert.rejects(
        data.load({ measures: ['orders.nope'] }),
        (e: unknown) => e instanceof ApiError && e.kind === 'validation' && /orders\.nope/.test(e.message),
      );
    });

    it('streams cubesql: schema first, then row batches', async () => {
      const chunks = await collect(data.cubesql('SELECT id, status FROM orders'));
      assert.equal(chunks[0]!.type, 'schema');
      const rows = chunks
        .filter((c) => c.type === 'rows')
        .reduce((n, c) => n + (c.type === 'rows' ? c.rows.length : 0), 0);
      assert.equal(rows, 5000);
      assert.ok(chunks.length > 3, 'several batches');
    });

    it('throws the trailing error line of a query failing mid-stream', async () => {
      await assert.rejects(
        collect(data.cubesql('SELECT abs(-9223372036854775807 - 1) FROM orders')),
        (e: unknown) => e instanceof ApiError && /overflow/i.test(e.message),
      );
    });

    it('answers a slow cubesql query after Continue wait', async () => {
      const chunks = await collect(data.cubesql('SELECT status, MEASURE(slow_count) FROM orders GROUP BY 1'));
      assert.ok(chunks.some((c) => c.type === 'rows'));
    });

    it('caches meta per deployment', async () => {
      const before = sb.state.requestCounts['data GET /v1/meta'] ?? 0;
      await data.meta();
      await data.meta();
      assert.equal((sb.state.requestCounts['data GET /v1/meta'] ?? 0) - before, 1);
    });
  });

  describe('faults', () => {
    it('retries a GET after 429 with Retry-After', async () => {
      sb.faults.add({
        family: 'platform',
        route: '/v1/deployments',
        status: 429,
        retryAfterSeconds: 0,
        times: 1,
      });
      assert.equal((await admin.listDeployments()).items.length, 3);
    });

    it('retries GETs on 503 but never a publish', async () => {
      sb.faults.add({ family: 'platform', route: '/v1/app-config', status: 503, times: 2 });
      assert.ok(await admin.getAppConfig());
      const before = sb.state.publishes.length;
      sb.faults.add({ family: 'platform', route: '/publish', status: 503, times: 1 });
      await assert.rejects(
        admin.publishDashboard(1, 1001, { workbookId: 1001 }),
        (e: unknown) => e instanceof ApiError && e.kind === 'unknownOutcome',
      );
      assert.equal(sb.state.publishes.length, before, 'the failed publish was not repeated');
    });

    it('surfaces a reset in the middle of a body as a network error once retries run out', async () => {
      sb.faults.add({ family: 'platform', route: '/scim/v2/Users', resetMidBody: true });
      await assert.rejects(admin.listUsers(), (e: unknown) => e instanceof ApiError && e.kind === 'network');
    });

    it('reports a truncated NDJSON line as a protocol error', async () => {
      sb.faults.add({ family: 'data', route: '/v1/cubesql', truncateNdjson: true, times: 1 });
      await assert.rejects(
        collect(data.cubesql('SELECT id FROM orders LIMIT 3000')),
        (e: unknown) => e instanceof ApiError && e.kind === 'protocol',
      );
    });

    it('reports a malformed NDJSON line as a protocol error with its line number', async () => {
      sb.faults.add({ family: 'data', route: '/v1/cubesql', malformedNdjson: true, times: 1 });
      await assert.rejects(
        collect(data.cubesql('SELECT id FROM orders LIMIT 3000')),
        (e: unknown) => e instanceof ApiError && e.kind === 'protocol' && e.line === 2,
      );
    });

    it('completes a slow drip', async () => {
      sb.faults.add({ family: 'data', route: '/v1/cubesql', dripMs: 20, times: 1 });
      const chunks = await collect(data.cubesql('SELECT id FROM orders LIMIT 2500'));
      assert.equal(chunks.filter((c) => c.type === 'rows').length, 3);
    });

    it('adds latency', async () => {
      sb.faults.add({ family: 'platform', route: '/v1/app-config', latencyMs: 150, times: 1 });
      const t0 = Date.now();
      await admin.getAppConfig();
      assert.ok(Date.now() - t0 >= 140);
    });
  });

  describe('ai', () => {
    const settings = { externalId: 'tester' };

    it('streams a turn: cutoff, deltas merged, SQL tool call with rows, final answer, usage last', async () => {
      const events = await collect(ai.streamChat({ input: 'Orders by status?', sessionSettings: settings }));
      const types = events.map((e) => e.type);
      assert.equal(types[0], 'cutoff');
      assert.equal(types.at(-1), 'usage');
      const sql = events.find(
        (e): e is Extract<ChatEvent, { type: 'toolCall' }> =>
          e.type === 'toolCall' && e.toolCall.name === 'cubeSqlApi',
      );
      assert.ok(sql);
      const result = sql.toolCall.result as { data: unknown[][]; totalRows: number; vegaSpec: string };
      assert.ok(result.data.length > 0 && result.totalRows >= result.data.length);
      assert.ok(JSON.parse(result.vegaSpec).mark);
      const final = events.find((e) => e.type === 'final');
      assert.ok(final && final.type === 'final' && /\| Status \| Count \|/.test(final.message.content ?? ''));
    });

    it('aborts a running turn and records the abort', async () => {
      const slow = new AiClient({ baseUrl: sb.urls.ai[0]!.url, apiKey: async () => sb.tokens.aiApiKey });
      const events: ChatEvent[] = [];
      let chatId: string | undefined;
      for await (const e of slow.streamChat({
        input: 'Revenue by month, slowly please',
        sessionSettings: settings,
      })) {
        events.push(e);
        if (e.type === 'cutoff') chatId = e.chatId;
        if (e.type === 'message' && chatId && !sb.state.aiAborts.length) await slow.abort(chatId, settings);
      }
      assert.ok(events.some((e) => e.type === 'aborted'));
      assert.equal(events.at(-1)?.type, 'usage');
      assert.ok(sb.state.aiAborts.some((a) => a.chatId === chatId));
    });

    it('suspends a turn and resumes it with the same chatId and messageId', async () => {
      const messageId = `${Date.now()}-message`;
      const first = await collect(
        ai.streamChat({ input: 'Delete rows? needs approval', messageId, sessionSettings: settings }),
      );
      const cutoff = first.find((e) => e.type === 'cutoff');
      assert.ok(first.some((e) => e.type === 'suspended'));
      const chatId = cutoff && cutoff.type === 'cutoff' ? cutoff.chatId : undefined;
      const resumed = await collect(
        ai.streamChat({ input: 'Delete rows? needs approval', chatId, messageId, sessionSettings: settings }),
      );
      assert.ok(resumed.some((e) => e.type === 'final'));
      const state = await collect(ai.getChatState(chatId!, settings));
      assert.ok(state.some((e) => e.type === 'final'));
    });

    it('passes a mid-stream error line on as an error event', async () => {
      const events = await collect(ai.streamChat({ input: 'please error out', sessionSettings: settings }));
      assert.ok(events.some((e) => e.type === 'error' && /overloaded/.test(e.message)));
    });
  });
});
