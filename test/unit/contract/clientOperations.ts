// Every operation the clients perform, as the contract suites run it: the published operation it
// must send, a call with realistic arguments (the bodies the extension builds), and what the
// extension needs from the answer, judged against the response actually served.
import * as assert from 'node:assert/strict';
import {
  ApiError,
  type AiClient,
  type ChatEvent,
  type DataClient,
  type Page,
  type PlatformClient,
} from '../../../src/api';
import type { Exchange } from '../../contract/contractServers';
import { DEPLOY_OPS_OPERATIONS } from './deployOpsCases';
import { ADMIN_OPERATIONS } from './adminOperations';
import { ADMIN_USERS_OPERATIONS } from './adminUsersCases';
import { EMBED_GROUP_OPERATIONS } from './embedGroupCases';
import { SETTINGS_OPERATIONS } from './settingsOperations';
import { DEPLOYMENT_OPERATIONS } from './deploymentCases';
import { PEOPLE_OPERATIONS } from './peopleOperations';
import { EMBED_DASHBOARD_OPERATIONS } from './embedDashboardCases';
import { SERVICE_OPERATIONS } from './serviceCases';

export interface Clients {
  platform: PlatformClient;
  data: DataClient;
  ai: AiClient;
}

export interface OperationCase {
  name: string;
  /** The published operation key, e.g. `GET /api/v1/deployments`. */
  operation: string;
  run(c: Clients): Promise<unknown>;
  /** What the extension needs from the result, given what was served. */
  check(result: unknown, sent: Exchange[]): void;
}

type Json = Record<string, unknown>;

/** The JSON body served to the last request. */
function served(sent: Exchange[]): Json {
  const text = sent[sent.length - 1]?.responseText ?? '';
  return text ? (JSON.parse(text) as Json) : {};
}

/** Lines of an NDJSON body served to the last request. */
function servedLines(sent: Exchange[]): Json[] {
  const text = sent[sent.length - 1]?.responseText ?? '';
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Json);
}

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A list page: every served item is read (none set aside), ids kept as sent. */
function checkList(key: 'id' | 'name' = 'id') {
  return (result: unknown, sent: Exchange[]) => {
    const page = result as Page<Json>;
    const body = served(sent);
    const items = arr(body.items ?? body.data);
    assert.deepEqual(page.invalid ?? [], [], 'no served item set aside');
    assert.equal(page.items.length, items.length, 'every served item is shown');
    page.items.forEach((it, i) =>
      assert.deepEqual(it[key], (items[i] as Json)[key], `item ${i} ${key} as sent`),
    );
  };
}

function checkSame(...keys: string[]) {
  return (result: unknown, sent: Exchange[]) => {
    const body = served(sent);
    for (const k of keys) assert.deepEqual((result as Json)[k], body[k], `${k} as sent`);
  };
}

const D = 7;
const base = '/api/v1/deployments/{deploymentId}';

/** The dashboard a user publishes: a file's input, its description at the top and in the config. */
const dashboardInput = {
  workbookId: 11,
  dashboardId: 3,
  title: 'Revenue',
  description: 'Weekly numbers',
  config: {
    title: 'Revenue',
    description: 'Weekly numbers',
    layout: {
      breakpoints: { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 },
      cols: { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 },
      rowHeight: 60,
    },
    theme: { primaryColor: '#3366ff', widgets: { border: { width: '1px' } } },
    settings: { kind: 'CLASSIC' },
    widgets: [{ id: 'w1', type: 'CHART', position: { x: 0, y: 0, w: 6, h: 4 }, config: { reportId: 1 } }],
  },
};

export const CLIENT_OPERATIONS: OperationCase[] = [
  {
    name: 'listDeployments',
    operation: 'GET /api/v1/deployments',
    run: (c) => c.platform.listDeployments({ first: 20 }),
    check: checkList(),
  },
  {
    name: 'getDeployment',
    operation: `GET ${base}`,
    run: (c) => c.platform.getDeployment(D),
    check: checkSame('id', 'name', 'deploymentUrl'),
  },
  {
    name: 'listEnvironments',
    operation: `GET ${base}/environments`,
    run: (c) => c.platform.listEnvironments(D, { first: 20 }),
    check: checkList(),
  },
  {
    name: 'listEnvVars',
    operation: `GET ${base}/env-vars`,
    run: (c) => c.platform.listEnvVars(D, { first: 20, after: 'c1' }),
    check: checkList('name'),
  },
  {
    name: 'mintDataApiToken',
    operation: `POST ${base}/token`,
    run: (c) => c.platform.mintDataApiToken(D, { expiresIn: 600 }),
    check: (token, sent) => assert.equal(token, served(sent).cubeApiToken),
  },
  {
    name: 'listFolders',
    operation: `GET ${base}/folders`,
    run: (c) => c.platform.listFolders(D, { first: 20, parentId: 2 }),
    check: checkList(),
  },
  {
    name: 'listReports',
    operation: `GET ${base}/reports`,
    run: (c) => c.platform.listReports(D, { first: 20, search: 'rev', sortBy: 'name', folderId: 2 }),
    check: checkList(),
  },
  {
    name: 'getReport',
    operation: `GET ${base}/reports/{reportId}`,
    run: (c) => c.platform.getReport(D, 5),
    check: checkSame('id', 'name', 'canEdit', 'canManage'),
  },
  {
    name: 'connectReportToWorkbook',
    operation: `PUT ${base}/reports/{reportId}/connect-workbook`,
    run: (c) =>
      c.platform.connectReportToWorkbook(D, 5, {
        externalWorkbookId: 'sheet-1',
        resultLocation: 'Sheet1!A1',
        endResultCell: 'D20',
      }),
    check: checkSame('id', 'externalWorkbookPlacements'),
  },
  {
    name: 'listWorkbooks',
    operation: `GET ${base}/workbooks`,
    run: (c) => c.platform.listWorkbooks(D, { first: 20 }),
    check: checkList(),
  },
  {
    name: 'getWorkbook',
    operation: `GET ${base}/workbooks/{workbookId}`,
    run: (c) => c.platform.getWorkbook(D, 11),
    check: checkSame('id', 'name', 'dashboardDraft', 'dashboardPublished'),
  },
  {
    name: 'duplicateWorkbook',
    operation: `POST ${base}/workbooks/{workbookId}/duplicate`,
    run: (c) => c.platform.duplicateWorkbook(D, 11, { shared: true }),
    check: checkSame('id', 'name'),
  },
  // workspace
  {
    name: 'listWorkspace',
    operation: `GET ${base}/workspace`,
    run: (c) =>
      c.platform.listWorkspace(D, { first: 20, folderId: 2, types: ['FOLDER', 'REPORT'], search: 'rev' }),
    check: checkList(),
  },
  {
    name: 'listSharedWorkspace',
    operation: `GET ${base}/shared-workspace`,
    run: (c) => c.platform.listSharedWorkspace(D, { first: 20, folderId: 2 }),
    check: checkList(),
  },
  {
    name: 'moveWorkspaceItem',
    operation: `POST ${base}/workspace/move`,
    run: (c) => c.platform.moveWorkspaceItem(D, { type: 'REPORT', id: 5, folderId: null }),
    check: checkSame('id', 'name', 'type'),
  },
  {
    name: 'bulkMoveWorkspaceItems',
    operation: `POST ${base}/workspace/bulk-move`,
    run: (c) =>
      c.platform.bulkMoveWorkspaceItems(D, {
        items: [
          { type: 'REPORT', id: 5 },
          { type: 'FOLDER', id: 3 },
        ],
        folderId: 2,
      }),
    check: (result, sent) => {
      const body = served(sent);
      const r = result as { moved: unknown[]; failed: Json[] };
      assert.equal(r.moved.length, arr(body.moved).length, 'every moved item');
      assert.deepEqual(
        r.failed.map((f) => f.id),
        arr(body.failed).map((f) => (f as Json).id),
        'failures as sent',
      );
    },
  },
  {
    name: 'bulkDeleteWorkspaceItems',
    operation: `POST ${base}/workspace/bulk-delete`,
    run: (c) => c.platform.bulkDeleteWorkspaceItems(D, { items: [{ type: 'WORKBOOK', id: 11 }] }),
    check: (result, sent) => {
      const body = served(sent);
      const r = result as { deleted: Json[]; failed: Json[] };
      assert.deepEqual(
        r.deleted.map((x) => x.id),
        arr(body.deleted).map((x) => (x as Json).id),
      );
      assert.equal(r.failed.length, arr(body.failed).length);
    },
  },
  {
    name: 'createFolder',
    operation: `POST ${base}/folders`,
    run: (c) => c.platform.createFolder(D, { name: 'Q3', parentId: 2 }),
    check: checkSame('id', 'name', 'parentId'),
  },
  {
    name: 'renameFolder',
    operation: `PUT ${base}/folders/{folderId}`,
    run: (c) => c.platform.renameFolder(D, 2, { name: 'Finance' }),
    check: checkSame('id', 'name'),
  },
  {
    name: 'deleteFolder',
    operation: `DELETE ${base}/folders/{folderId}`,
    run: (c) => c.platform.deleteFolder(D, 2),
    check: (status) => assert.ok(typeof status === 'number' && status < 300),
  },
  {
    name: 'getFolderAncestors',
    operation: `GET ${base}/folders/{folderId}/ancestors`,
    run: (c) => c.platform.getFolderAncestors(D, 2),
    check: (result, sent) => {
      const body = sent[sent.length - 1]?.responseText ?? '[]';
      const items = JSON.parse(body) as Json[];
      assert.deepEqual(
        (result as Json[]).map((f) => f.id),
        items.map((f) => f.id),
        'the chain as sent',
      );
    },
  },
  {
    name: 'createReport',
    operation: `POST ${base}/reports`,
    run: (c) => c.platform.createReport(D, { name: 'Revenue', sqlQuery: 'SELECT 1', folderId: 2 }),
    check: checkSame('id', 'name', 'sqlQuery'),
  },
  {
    name: 'updateReport',
    operation: `PUT ${base}/reports/{reportId}`,
    run: (c) => c.platform.updateReport(D, 5, { name: 'Revenue by month', sqlQuery: 'SELECT 2' }),
    check: checkSame('id', 'name', 'sqlQuery'),
  },
  {
    name: 'deleteReport',
    operation: `DELETE ${base}/reports/{reportId}`,
    run: (c) => c.platform.deleteReport(D, 5),
    check: (status) => assert.ok(typeof status === 'number' && status < 300),
  },
  {
    name: 'refreshReport',
    operation: `PUT ${base}/reports/{reportId}/refresh`,
    run: (c) => c.platform.refreshReport(D, 5, {}),
    check: checkSame('id', 'name'),
  },
  {
    name: 'disconnectReportFromWorkbook',
    operation: `DELETE ${base}/reports/{reportId}/connect-workbook`,
    run: (c) =>
      c.platform.disconnectReportFromWorkbook(D, 5, {
        externalWorkbookId: 'sheet-1',
        resultLocation: 'Sheet1!A1',
      }),
    check: checkSame('id', 'externalWorkbookPlacements'),
  },
  {
    name: 'createWorkbook',
    operation: `POST ${base}/workbooks`,
    run: (c) => c.platform.createWorkbook(D, { name: 'Sales', folderId: 2 }),
    check: checkSame('id', 'name', 'slug'),
  },
  {
    name: 'updateWorkbook',
    operation: `PUT ${base}/workbooks/{workbookId}`,
    run: (c) => c.platform.updateWorkbook(D, 11, { name: 'Sales', slug: 'sales' }),
    check: (status) => assert.ok(typeof status === 'number' && status < 300),
  },
  {
    name: 'deleteWorkbook',
    operation: `DELETE ${base}/workbooks/{workbookId}`,
    run: (c) => c.platform.deleteWorkbook(D, 11),
    check: (status) => assert.ok(typeof status === 'number' && status < 300),
  },
  {
    name: 'upsertWorkbookBySlug',
    operation: `PUT ${base}/workbooks/by-slug/{slug}`,
    run: (c) => c.platform.upsertWorkbookBySlug(D, 'sales', { name: 'Sales' }),
    check: checkSame('id', 'name', 'slug'),
  },
  {
    name: 'getEmbedAccess',
    operation: `GET ${base}/workbooks/{workbookId}/embed-access`,
    run: (c) => c.platform.getEmbedAccess(D, 11),
    check: checkSame('allowEmbed', 'allEmbedUsers', 'tenants'),
  },
  {
    name: 'updateEmbedAccess',
    operation: `PUT ${base}/workbooks/{workbookId}/embed-access`,
    run: (c) => c.platform.updateEmbedAccess(D, 11, { embedTenantName: 'acme', action: 'read' }),
    check: checkSame('allowEmbed', 'allEmbedUsers', 'tenants'),
  },
  {
    name: 'publishDashboard',
    operation: `POST ${base}/workbooks/{workbookId}/publish`,
    run: (c) => c.platform.publishDashboard(D, 11, dashboardInput),
    // Success, with what the editor and the command report: version, status, public id.
    check: checkSame('versionNumber', 'status', 'publicId', 'restrictDataDownload', 'useBoardDashboards'),
  },
  {
    name: 'saveDashboardDraft',
    operation: `PUT ${base}/workbooks/{workbookId}/dashboard`,
    run: (c) =>
      c.platform.saveDashboardDraft(D, 11, {
        // A draft may hold a widget not given an id yet.
        dashboardDraft: {
          title: 'Revenue (draft)',
          layout: { rowHeight: 60 },
          widgets: [
            { id: 'w1', type: 'CHART', position: { x: 0, y: 0, w: 6, h: 4 }, config: { reportId: 1 } },
            { type: 'TEXT', position: { x: 6, y: 0, w: 6, h: 4 }, config: { text: 'Notes' } },
          ],
        },
      }),
    check: checkSame('dashboardDraft', 'dashboardPublished'),
  },
  {
    name: 'upsertReportByPublicId',
    operation: `PUT ${base}/reports/by-public-id/{publicId}`,
    run: (c) =>
      c.platform.upsertReportByPublicId(D, 'RevByMonth01', {
        publicId: 'RevByMonth01',
        name: 'Revenue by month',
        title: 'Revenue by month',
        sqlQuery: 'SELECT 1',
        source: 'PLAYGROUND',
      }),
    check: checkSame('id', 'publicId', 'name', 'sqlQuery', 'createdAt', 'updatedAt'),
  },
  {
    name: 'updateAiWidgetThread',
    operation: `POST ${base}/workbooks/{workbookId}/dashboard/ai-widget-thread`,
    run: (c) => c.platform.updateAiWidgetThread(D, 11, { threadId: 't-1', widgetId: 'w1', checksum: 'abc' }),
    check: checkSame('versionNumber', 'status', 'publicId'),
  },
  {
    name: 'listNotifications',
    operation: `GET ${base}/notifications`,
    run: (c) =>
      c.platform.listNotifications(D, { first: 20, dashboardPublicId: 'pub1', recipientEmail: 'a@b.c' }),
    check: (result, sent) => {
      checkList()(result, sent);
      // Filters as sent, operators unknown to us included.
      const items = arr(served(sent).items);
      (result as Page<Json>).items.forEach((n, i) =>
        assert.deepEqual(n.filters, (items[i] as Json).filters, `notification ${i} filters as sent`),
      );
    },
  },
  {
    name: 'createNotification',
    operation: `POST ${base}/notifications`,
    run: (c) =>
      c.platform.createNotification(D, {
        dashboardId: 3,
        scheduleType: 'WEEKLY',
        hour: 9,
        minute: 30,
        dayOfWeek: 1,
        timezone: 'Europe/Paris',
        notificationFormat: 'pdf',
        notificationEnabled: true,
        filters: [
          { member: 'orders.status', operator: 'is_empty' },
          { member: 'orders.total', operator: 'between', value: [1, 5] },
        ],
        timeGrains: [{ member: 'orders.created_at', grain: 'week' }],
      }),
    check: checkSame('id', 'humanReadableSchedule'),
  },
  {
    name: 'listRecipients',
    operation: `GET ${base}/notifications/{id}/recipients`,
    run: (c) => c.platform.listRecipients(D, 9, { first: 50, after: 'r1' }),
    check: (result, sent) => {
      const page = result as Page<Json>;
      const items = arr(served(sent).items);
      assert.deepEqual(page.invalid ?? [], []);
      assert.equal(page.items.length, items.length);
      page.items.forEach((r, i) => {
        assert.equal(r.type, (items[i] as Json).type, 'type as sent (unknown ones kept)');
        assert.equal(r.channelId, (items[i] as Json).channelId, 'Slack channelId as sent');
      });
    },
  },
  {
    name: 'addRecipients',
    operation: `POST ${base}/notifications/{id}/recipients`,
    run: (c) =>
      c.platform.addRecipients(D, 9, [
        { type: 'USER', email: 'ann@example.com' },
        { type: 'EMBED_USER', embedTenantName: 'acme', externalId: 'u-1' },
        { type: 'SLACK', channelId: 'C123', channelName: 'revenue' },
      ]),
    check: (result, sent) => {
      const body = served(sent);
      const r = result as Record<string, unknown[]>;
      for (const k of ['createdRecipients', 'updatedRecipients', 'unchangedRecipients'])
        assert.equal(r[k]?.length, arr(body[k]).length, `${k} counted as sent`);
    },
  },
  {
    name: 'removeRecipients',
    operation: `DELETE ${base}/notifications/{id}/recipients`,
    run: (c) =>
      c.platform.removeRecipients(D, 9, [
        { type: 'USER', id: 4 },
        { type: 'EMBED_USER', id: 12, embedTenantName: 'acme' },
        { type: 'SLACK', id: 'C123' },
      ]),
    check: (result) => assert.equal(result, undefined),
  },
  // polish: one notification's lifecycle
  {
    name: 'getNotification',
    operation: `GET ${base}/notifications/{id}`,
    run: (c) => c.platform.getNotification(D, 9),
    check: checkSame('id', 'dashboardId', 'isEnabled', 'humanReadableSchedule'),
  },
  {
    name: 'updateNotification',
    operation: `PUT ${base}/notifications/{id}`,
    run: (c) =>
      c.platform.updateNotification(D, 9, {
        scheduleType: 'MONTHLY',
        dayOfMonth: 15,
        hour: 7,
        minute: 0,
        timezone: 'Europe/Paris',
        notificationFormat: 'png',
        filters: [{ member: 'orders.status', operator: 'equals', value: 'shipped' }],
      }),
    check: checkSame('id', 'cronExpression', 'isEnabled'),
  },
  {
    name: 'pauseNotification',
    operation: `PUT ${base}/notifications/{id}`,
    run: (c) => c.platform.updateNotification(D, 9, { isEnabled: false }),
    check: checkSame('id', 'isEnabled'),
  },
  {
    name: 'deleteNotification',
    operation: `DELETE ${base}/notifications/{id}`,
    run: (c) => c.platform.deleteNotification(D, 9),
    check: (result) => assert.equal(result, undefined),
  },
  {
    name: 'startDbtSync',
    operation: `POST ${base}/dbt-sync`,
    run: (c) => c.platform.startDbtSync(D, { branchName: 'main', output: 'files' }),
    check: (result, sent) => assert.equal((result as Json).syncJobId, String(served(sent).syncJobId)),
  },
  {
    name: 'getDbtSyncJob',
    operation: `GET ${base}/dbt-sync/{syncJobId}`,
    run: (c) => c.platform.getDbtSyncJob(D, 'job-1'),
    check: checkSame('status', 'error'),
  },
  {
    name: 'deleteEmbedTenant',
    operation: 'DELETE /api/v1/embed-tenants/{embedTenantName}',
    run: (c) => c.platform.deleteEmbedTenant('acme'),
    check: (result) => assert.equal(result, undefined),
  },
  {
    name: 'getAppConfig',
    operation: 'GET /api/v1/app-config',
    run: (c) => c.platform.getAppConfig(),
    check: checkSame('applyThemeGlobally', 'restrictDataDownload', 'appTheme'),
  },
  {
    name: 'listUsers',
    operation: 'GET /scim/v2/Users',
    run: (c) => c.platform.listUsers({ first: 25, after: '26' }),
    check: (result, sent) => {
      const page = result as Page<Json>;
      const resources = arr(served(sent).Resources);
      assert.deepEqual(page.invalid ?? [], []);
      assert.equal(page.items.length, resources.length, 'every served user is shown');
      page.items.forEach((u, i) => assert.equal(u.userName, (resources[i] as Json).userName));
    },
  },
  {
    name: 'load',
    operation: 'POST /v1/load',
    run: (c) =>
      c.data.load({
        measures: ['orders.count'],
        dimensions: ['orders.status'],
        timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }],
        segments: ['orders.completed'],
        // Filters are covered by their own case in clients.test.ts.
        order: { 'orders.count': 'desc' },
        limit: 100,
      }),
    check: (result, sent) => {
      const results = arr(served(sent).results);
      assert.equal((result as { results: unknown[] }).results.length, results.length, 'every result kept');
    },
  },
  {
    name: 'cubesql',
    operation: 'POST /v1/cubesql',
    run: async (c) => {
      const chunks: unknown[] = [];
      for await (const chunk of c.data.cubesql('SELECT status FROM orders', { timezone: 'UTC' }))
        chunks.push(chunk);
      return chunks;
    },
    check: (result, sent) => {
      const lines = servedLines(sent);
      const chunks = result as { type: string; rows?: unknown[] }[];
      assert.equal(
        chunks.filter((k) => k.type === 'schema').length,
        lines.filter((l) => l.schema !== undefined).length,
        'every schema line read',
      );
      assert.deepEqual(
        chunks.filter((k) => k.type === 'rows').map((k) => k.rows),
        lines.filter((l) => l.data !== undefined).map((l) => l.data),
        'every data batch read as sent',
      );
    },
  },
  {
    name: 'meta',
    operation: 'GET /v1/meta',
    run: (c) => c.data.meta({ refresh: true }),
    check: (result, sent) => {
      const cubes = arr(served(sent).cubes);
      const got = (result as { cubes: Json[] }).cubes;
      assert.deepEqual(
        got.map((k) => k.name),
        cubes.map((k) => (k as Json).name),
        'every cube kept',
      );
    },
  },
  {
    name: 'streamChat',
    operation: 'POST /chat/stream-chat-state',
    // Generated lines are valid one by one, but three random lines are rarely a whole answer. The
    // client must read every line without failing on its shape, and end a stream that has no
    // final answer with a typed cut-off (or no-known-line) error rather than a crash (issue 20).
    run: async (c) => {
      const events: ChatEvent[] = [];
      try {
        for await (const e of c.ai.streamChat({
          input: 'Revenue by month?',
          sessionSettings: { externalId: 'ann' },
        }))
          events.push(e);
        return { events };
      } catch (error) {
        return { events, error };
      }
    },
    check: (result, sent) => {
      const { events, error } = result as { events: ChatEvent[]; error?: unknown };
      // Every message event is one the service sent (by id); a stream that ended cleanly ended
      // with a terminal line or a complete answer, each of which is an event.
      const ids = new Set(servedLines(sent).map((l) => l.id));
      if (error === undefined) assert.ok(events.length > 0, 'a complete answer yields events');
      const messages = events.flatMap((e) =>
        'message' in e && typeof e.message === 'object' ? [e.message] : [],
      );
      assert.equal(messages.filter((m) => !ids.has(m.id)).length, 0, 'only messages that were served');
      if (error !== undefined) {
        assert.ok(error instanceof ApiError, `a typed error, not ${String(error)}`);
        assert.equal(error.kind, 'protocol');
        assert.match(error.message, /cut off|None of the \d+ lines/);
      }
    },
  },
  {
    name: 'abortChat',
    operation: 'POST /chat/abort',
    run: (c) => c.ai.abort('chat-1', { internalId: 'ann@example.com' }),
    check: (result) => assert.equal(result, undefined),
  },
  // deployops
  ...DEPLOY_OPS_OPERATIONS,
  // Databricks Metric Views, service tokens, the API description
  ...SERVICE_OPERATIONS,
  // admin
  ...ADMIN_OPERATIONS,
  // admin users
  ...ADMIN_USERS_OPERATIONS,
  ...EMBED_GROUP_OPERATIONS,
  // settings
  ...SETTINGS_OPERATIONS,
  // deployments as wholes, GitHub
  ...DEPLOYMENT_OPERATIONS,
  ...PEOPLE_OPERATIONS,
  // embeddable dashboards
  ...EMBED_DASHBOARD_OPERATIONS,
];

/**
 * The published V1LoadRequestQueryFilterItem is a oneOf of three object schemas none of which
 * requires a property, so every filter matches all three and no filter validates. A load with a
 * filter must differ from the document by exactly that ambiguity, nothing else.
 */
