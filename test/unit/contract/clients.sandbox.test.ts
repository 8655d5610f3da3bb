// The clients against the sandbox through a validating proxy: the extension's everyday flows, every
// request and every response judged by the published documents. Zero violations.
import * as assert from 'node:assert/strict';
import {
  AiClient,
  DataClient,
  PlatformClient,
  recipientRemoval,
  type ChatEvent,
  type Page,
} from '../../../src/api';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { startValidatingProxy, type RecordingServer } from '../../contract/contractServers';
import { requireReference } from '../../contract/openapiDocs';

const fast = { retries: 2, baseDelayMs: 5, maxDelayMs: 20 };

async function all<T>(fetch: (after?: string) => Promise<Page<T>>): Promise<T[]> {
  const out: T[] = [];
  let after: string | undefined;
  for (let i = 0; i < 50; i++) {
    const page = await fetch(after);
    out.push(...page.items);
    const next = page.pageInfo?.hasNextPage ? (page.pageInfo.endCursor ?? undefined) : undefined;
    if (!next) return out;
    after = next;
  }
  throw new Error('more than 50 pages');
}

describe('clients contract: the clients against the sandbox through the validating proxy', function () {
  this.timeout(120_000);
  let sb: SandboxHandle;
  let proxy: RecordingServer;
  let platform: PlatformClient;
  let data: DataClient;
  let ai: AiClient;

  before(async function () {
    const ref = requireReference(this);
    sb = await startSandbox({ rows: 2000, continueWaitMs: 200, aiEventDelayMs: 1, dbtStepMs: 20 });
    proxy = await startValidatingProxy(ref, new URL(sb.urls.platform).origin);
    const via = (url: string) => `${proxy.url}${new URL(url).pathname}`;
    platform = new PlatformClient({
      baseUrl: via(sb.urls.platform),
      token: async () => sb.tokens.admin,
      retry: fast,
    });
    data = new DataClient({
      baseUrl: via(sb.urls.dataApi),
      token: async () => sb.tokens.dataApi,
      retry: fast,
    });
    ai = new AiClient({
      baseUrl: via(sb.urls.ai[0]!.url),
      apiKey: async () => sb.tokens.aiApiKey,
      retry: fast,
    });
  });

  after(async () => {
    if (!sb) return;
    await Promise.all([platform.close(), data.close(), ai.close()]);
    await proxy.close();
    await sb.close();
  });

  it('runs every client operation with zero request or response violations', async () => {
    const deployments = await all((after) =>
      platform.listDeployments({ first: 2, ...(after ? { after } : {}) }),
    );
    assert.ok(deployments.length >= 2, 'at least two deployments');
    const d = deployments[0]!.id;
    await platform.getDeployment(d);
    await platform.listEnvironments(d, { first: 10 });
    await platform.listEnvVars(d, { first: 10 });
    await all((after) => platform.listFolders(d, { first: 5, ...(after ? { after } : {}) }));
    const reports = await platform.listReports(d, { first: 5, search: 'e', sortBy: 'name' });
    const report = reports.items[0]!;
    await platform.getReport(d, report.id);
    await platform.connectReportToWorkbook(d, report.id, {
      externalWorkbookId: 'sheet-1',
      resultLocation: 'A1',
    });
    const workbooks = await all((after) =>
      platform.listWorkbooks(d, { first: 5, ...(after ? { after } : {}) }),
    );
    const wb = workbooks[0]!;
    await platform.getWorkbook(d, wb.id);
    await platform.duplicateWorkbook(d, wb.id, { shared: false });
    const published = await platform.publishDashboard(d, wb.id, {
      workbookId: wb.id,
      title: 'Contract',
      description: 'Contract description',
      config: {
        title: 'Contract',
        widgets: [{ id: 'w1', type: 'TEXT', position: { x: 0, y: 0, w: 4, h: 2 }, config: { text: 'Hi' } }],
      },
    });
    assert.ok(published.publicId, 'published');
    await platform.updateAiWidgetThread(d, wb.id, { threadId: 't-1', widgetId: 'w1' });
    const notifications = await all((after) =>
      platform.listNotifications(d, { first: 100, ...(after ? { after } : {}) }),
    );
    assert.ok(notifications.length > 100, 'several pages of notifications');
    const n = await platform.createNotification(d, {
      dashboardPublicId: published.publicId,
      scheduleType: 'DAILY',
      hour: 7,
      filters: [{ member: 'orders.status', operator: 'is_not_empty' }],
    });
    const added = await platform.addRecipients(d, n.id, [
      { type: 'USER', email: 'user3@sandbox.example' },
      { type: 'SLACK', channelId: 'C42', channelName: 'alerts' },
    ]);
    assert.equal(added.createdRecipients.length, 2);
    const recipients = await all((after) =>
      platform.listRecipients(d, n.id, { first: 1, ...(after ? { after } : {}) }),
    );
    assert.equal(recipients.length, 2, 'both recipients, one page each');
    await platform.removeRecipients(
      d,
      n.id,
      recipients.map((r) => recipientRemoval(r)),
    );
    const job = await platform.startDbtSync(d, { branchName: 'main' });
    await platform.getDbtSyncJob(d, job.syncJobId);
    await platform.getAppConfig();
    // Account settings edits, as the edit commands send them: every field prefilled, no secret.
    const i = await platform.admin.getOAuthIntegration(601);
    const text = (v: unknown) => String(v ?? '');
    await platform.admin.updateOAuthIntegration(601, {
      name: i.name,
      type: text(i.type),
      clientId: text(i.clientId),
      authUrl: text(i.authUrl),
      tokenUrl: 'https://acme.snowflakecomputing.com/oauth/token',
      redirectUri: text(i.redirectUri),
      scopes: ['session:role:analyst'],
    });
    await platform.admin.getOidcTokenConfig(701);
    await platform.admin.updateOidcTokenConfig(701, { isEnabled: false, targetEnvVar: null });
    const users = await all((after) => platform.listUsers({ first: 2, ...(after ? { after } : {}) }));
    assert.ok(users.length > 2, 'several pages of users');
    assert.ok(await platform.mintDataApiToken(d, { expiresIn: 300 }));
    await platform.deleteEmbedTenant('globex');
    // The workspace, as the tree and its actions use it.
    const root = await all((after) => platform.listWorkspace(d, { first: 3, ...(after ? { after } : {}) }));
    assert.ok(
      root.some((i) => i.type === 'FOLDER'),
      'folders at the root',
    );
    await platform.listSharedWorkspace(d, { first: 10 });
    const folder = await platform.createFolder(d, { name: 'Via proxy' });
    await platform.renameFolder(d, folder.id, { name: 'Via proxy, renamed' });
    const created = await platform.createReport(d, { name: 'Proxy report', sqlQuery: 'SELECT 1' });
    await platform.updateReport(d, created.id, { sqlQuery: 'SELECT 2' });
    await platform.refreshReport(d, created.id);
    await platform.disconnectReportFromWorkbook(d, created.id, {
      externalWorkbookId: 'sheet-1',
      resultLocation: 'A1',
    });
    await platform.moveWorkspaceItem(d, { type: 'REPORT', id: created.id, folderId: folder.id });
    const inFolder = await platform.listWorkspace(d, { folderId: folder.id });
    assert.deepEqual(
      inFolder.items.map((i) => i.id),
      [created.id],
      'moved into the new folder',
    );
    const chain = await platform.getFolderAncestors(d, folder.id);
    assert.deepEqual(
      chain.map((f) => f.id),
      [folder.id],
    );
    const newWb = await platform.createWorkbook(d, { name: 'Proxy workbook', folderId: folder.id });
    await platform.updateWorkbook(d, newWb.id, { slug: 'proxy-workbook' });
    await platform.upsertWorkbookBySlug(d, 'proxy-workbook', { name: 'Proxy workbook, upserted' });
    await platform.getEmbedAccess(d, wb.id);
    await platform.updateEmbedAccess(d, wb.id, { embedTenantName: 'acme', action: 'read' });
    await platform.bulkMoveWorkspaceItems(d, { items: [{ type: 'WORKBOOK', id: newWb.id }], folderId: null });
    const gone = await platform.bulkDeleteWorkspaceItems(d, {
      items: [
        { type: 'REPORT', id: created.id },
        { type: 'WORKBOOK', id: newWb.id },
      ],
    });
    assert.equal(gone.deleted.length, 2);
    await platform.deleteFolder(d, folder.id);
    const r2 = await platform.createReport(d, { name: 'Deleted alone', sqlQuery: 'SELECT 3' });
    await platform.deleteReport(d, r2.id);
    const w2 = await platform.createWorkbook(d, { name: 'Deleted alone' });
    await platform.deleteWorkbook(d, w2.id);

    await data.meta({ refresh: true });
    await data.load({
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      order: { 'orders.count': 'desc' },
    });
    for await (const _chunk of data.cubesql('SELECT status FROM orders LIMIT 10')) {
      // drained: every line is judged by the proxy
    }
    const events: ChatEvent[] = [];
    for await (const e of ai.streamChat({
      input: 'Orders by status',
      sessionSettings: { externalId: 'contract' },
    }))
      events.push(e);
    assert.ok(events.length > 0);

    const operations = new Set(proxy.exchanges.map((e) => e.operation ?? `${e.method} ${e.url}`));
    console.log(
      `      clients via proxy: ${proxy.exchanges.length} exchanges over ${operations.size} operations, ${proxy.violations.length} violations`,
    );
    assert.deepEqual(
      proxy.violations.map((v) => `${v.kind} ${v.method} ${v.url}: ${v.errors.slice(0, 3).join('; ')}`),
      [],
    );
  });
});
