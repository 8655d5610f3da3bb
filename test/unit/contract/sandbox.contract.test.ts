// Every route of the sandbox, driven through the validating proxy: each request and response must
// validate against the published documents (error statuses included where the documents describe
// them), and the sandbox must serve no route the documents do not publish.
import * as assert from 'node:assert/strict';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { startValidatingProxy, type RecordingServer } from '../../contract/contractServers';
import { familyOf, requireReference, type Reference } from '../../contract/openapiDocs';
import { buildCalls } from './buildCalls';
import { deployOpsCalls } from './deployOpsCases';
import { adminCalls } from './adminCalls';
import { adminUsersCalls } from './adminUsersCases';
import { embedDashboardCalls } from './embedDashboardCases';
import { embedGroupCalls } from './embedGroupCases';
import { settingsCalls } from './settingsCalls';
import { deploymentCalls } from './deploymentCases';
import { serviceCalls } from './serviceCases';

interface Call {
  method: string;
  path: string;
  body?: unknown;
  auth?: 'admin' | 'member' | 'data' | 'ai' | 'none' | string;
  status: number;
  /** A body sent as is, with `contentType` (multipart uploads). */
  raw?: string;
  contentType?: string;
  /** Records the answer's `id` under this name, for `{name}` in later paths. */
  capture?: string;
  /** The credential the read-back uses, when the write's own cannot read (an embed user's read). */
  readAs?: string;
}

const ADD = {
  recipients: [
    { type: 'USER', userId: 3 },
    { type: 'SLACK', channelId: 'C0NEW', channelName: '#new' },
  ],
};
const SESSION = { externalId: 'contract-user' };

/** The workspace feed, folder, report and workbook writes and embed access, in order (they build on each other). */
function workspaceCalls(): Call[] {
  const b = '/api/v1/deployments/3';
  return [
    { method: 'GET', path: `${b}/workspace?first=5`, status: 200 },
    {
      method: 'GET',
      path: `${b}/workspace?folderId=301&types=WORKBOOK&types=REPORT&orderByField=updated_at&orderByDirection=DESC`,
      status: 200,
    },
    { method: 'GET', path: `${b}/workspace?search=dash&first=3`, status: 200 },
    { method: 'GET', path: `${b}/workspace?types=BOGUS`, status: 400 },
    { method: 'GET', path: `${b}/shared-workspace`, status: 200 },
    { method: 'GET', path: `${b}/shared-workspace?folderId=301`, status: 200 },
    { method: 'POST', path: `${b}/folders`, body: { name: 'Contract' }, status: 200, capture: 'folder' },
    { method: 'POST', path: `${b}/folders`, body: { name: 'Child', parentId: 301 }, status: 200 },
    { method: 'POST', path: `${b}/folders`, body: {}, status: 400 },
    { method: 'PUT', path: `${b}/folders/{folder}`, body: { name: 'Contract renamed' }, status: 200 },
    { method: 'GET', path: `${b}/folders/321/ancestors`, status: 200 },
    { method: 'GET', path: `${b}/folders/9999/ancestors`, status: 404 },
    {
      method: 'POST',
      path: `${b}/workspace/move`,
      body: { type: 'REPORT', id: 30001, folderId: 302 },
      status: 200,
    },
    {
      method: 'POST',
      path: `${b}/workspace/move`,
      body: { type: 'FOLDER', id: 301, folderId: 320 },
      status: 400,
    },
    {
      method: 'POST',
      path: `${b}/workspace/bulk-move`,
      body: {
        items: [
          { type: 'WORKBOOK', id: 3001 },
          { type: 'REPORT', id: 99 },
        ],
        folderId: null,
      },
      status: 200,
    },
    {
      method: 'POST',
      path: `${b}/workspace/bulk-delete`,
      body: {
        items: [
          { type: 'REPORT', id: 30002 },
          { type: 'FOLDER', id: 301 },
        ],
      },
      status: 200,
    },
    { method: 'DELETE', path: `${b}/folders/{folder}`, status: 200 },
    { method: 'DELETE', path: `${b}/folders/301`, status: 400 },
    {
      method: 'POST',
      path: `${b}/reports`,
      body: { name: 'Contract report', sqlQuery: 'SELECT 1', folderId: 302 },
      status: 200,
      capture: 'report',
    },
    {
      method: 'PUT',
      path: `${b}/reports/{report}`,
      body: { name: 'Renamed', sqlQuery: 'SELECT 2' },
      status: 200,
    },
    { method: 'PUT', path: `${b}/reports/{report}/refresh`, body: {}, status: 200 },
    {
      method: 'DELETE',
      path: `${b}/reports/{report}/connect-workbook`,
      body: { externalWorkbookId: 'sheet-1', resultLocation: 'Sheet1!A1' },
      status: 200,
    },
    { method: 'DELETE', path: `${b}/reports/{report}`, status: 200 },
    { method: 'DELETE', path: `${b}/reports/{report}`, status: 404 },
    // Reports as code: created, then updated, by its publicId; one held by another deployment is a 409.
    {
      method: 'PUT',
      path: `${b}/reports/by-public-id/Contract0001`,
      body: { publicId: 'Contract0001', name: 'As code', sqlQuery: 'SELECT 3', source: 'PLAYGROUND' },
      status: 200,
    },
    {
      method: 'PUT',
      path: `${b}/reports/by-public-id/Contract0001`,
      body: { name: 'As code, renamed', title: 'As code' },
      status: 200,
    },
    { method: 'PUT', path: `${b}/reports/by-public-id/rep1x0000001`, body: { name: 'Taken' }, status: 409 },
    { method: 'PUT', path: `${b}/reports/by-public-id/short`, body: { name: 'Bad id' }, status: 400 },
    {
      method: 'POST',
      path: `${b}/workbooks`,
      body: { name: 'Contract workbook' },
      status: 200,
      capture: 'workbook',
    },
    {
      method: 'PUT',
      path: `${b}/workbooks/{workbook}`,
      body: { name: 'Renamed workbook', slug: 'contract-wb' },
      status: 200,
    },
    { method: 'PUT', path: `${b}/workbooks/by-slug/contract-wb`, body: { name: 'Upserted' }, status: 200 },
    { method: 'PUT', path: `${b}/workbooks/by-slug/brand-new`, body: { name: 'New by slug' }, status: 200 },
    {
      method: 'PUT',
      path: `${b}/workbooks/3001/dashboard`,
      body: {
        dashboardDraft: {
          title: 'Draft',
          widgets: [{ type: 'TEXT', position: { x: 0, y: 0, w: 4, h: 2 }, config: { text: 'Notes' } }],
        },
      },
      status: 200,
    },
    { method: 'GET', path: `${b}/workbooks/3001/embed-access`, status: 200 },
    {
      method: 'PUT',
      path: `${b}/workbooks/3001/embed-access`,
      body: { embedTenantName: 'acme', action: 'read', allowEmbed: true },
      status: 200,
    },
    { method: 'PUT', path: `${b}/workbooks/3001/embed-access`, body: {}, status: 400 },
    { method: 'DELETE', path: `${b}/workbooks/{workbook}`, status: 200 },
  ];
}

function calls(sb: SandboxHandle): Call[] {
  const ai = new URL(sb.urls.ai[0]!.url).pathname;
  const nid = 100_001;
  return [
    { method: 'GET', path: '/api/v1/app-config', status: 200 },
    { method: 'GET', path: '/api/v1/deployments?first=2', status: 200 },
    { method: 'GET', path: '/api/v1/deployments?first=500', status: 400 },
    { method: 'GET', path: '/api/v1/deployments', auth: 'none', status: 401 },
    { method: 'GET', path: '/api/v1/deployments/2', status: 200 },
    { method: 'GET', path: '/api/v1/deployments/99', status: 404 },
    { method: 'GET', path: '/api/v1/deployments/1/environments', status: 200 },
    { method: 'GET', path: '/api/v1/deployments/1/environments?type=production', status: 200 },
    { method: 'GET', path: '/api/v1/deployments/1/env-vars?first=3', status: 200 },
    { method: 'GET', path: '/api/v1/deployments/1/folders', status: 200 },
    { method: 'GET', path: '/api/v1/deployments/1/folders?parentId=101', status: 200 },
    { method: 'GET', path: '/api/v1/deployments/1/reports?first=20', status: 200 },
    {
      method: 'GET',
      path: '/api/v1/deployments/1/reports?sortBy=name&sortDirection=ASC&search=revenue',
      status: 200,
    },
    { method: 'GET', path: '/api/v1/deployments/1/reports?sortBy=lastViewedAt&first=5', status: 200 },
    { method: 'GET', path: '/api/v1/deployments/1/reports?sortBy=bogus', status: 400 },
    { method: 'GET', path: '/api/v1/deployments/1/reports/10004', status: 200 },
    { method: 'GET', path: '/api/v1/deployments/1/reports/1', status: 404 },
    {
      method: 'PUT',
      path: '/api/v1/deployments/1/reports/10001/connect-workbook',
      body: { externalWorkbookId: 'sheet-1', resultLocation: 'Sheet1!A1' },
      status: 200,
    },
    { method: 'GET', path: '/api/v1/deployments/1/workbooks?first=25', status: 200 },
    { method: 'GET', path: '/api/v1/deployments/2/workbooks/2004', status: 200 },
    { method: 'GET', path: '/api/v1/deployments/1/workbooks/1', status: 404 },
    {
      method: 'POST',
      path: '/api/v1/deployments/1/workbooks/1001/duplicate',
      body: { shared: false },
      status: 200,
    },
    {
      method: 'POST',
      path: '/api/v1/deployments/1/workbooks/1004/publish',
      body: { workbookId: 1004, title: 'Published by the contract suite' },
      status: 200,
    },
    {
      method: 'POST',
      path: '/api/v1/deployments/1/workbooks/1004/publish',
      body: { workbookId: 'x' },
      status: 400,
    },
    {
      method: 'POST',
      path: '/api/v1/deployments/1/workbooks/1001/dashboard/ai-widget-thread',
      body: { threadId: 't-1', widgetId: 'w1' },
      status: 200,
    },
    {
      method: 'POST',
      path: '/api/v1/deployments/1/workbooks/1003/dashboard/ai-widget-thread',
      body: { threadId: 't-1', widgetId: 'w1' },
      status: 409,
    },
    { method: 'GET', path: '/api/v1/deployments/1/notifications?first=50', status: 200 },
    { method: 'GET', path: '/api/v1/deployments/1/notifications?recipientUserId=3', status: 200 },
    { method: 'GET', path: '/api/v1/deployments/1/notifications', auth: 'member', status: 403 },
    {
      method: 'GET',
      path: '/api/v1/deployments/1/notifications?dashboardId=1&dashboardPublicId=x',
      status: 400,
    },
    {
      method: 'POST',
      path: '/api/v1/deployments/1/notifications',
      body: {
        dashboardId: 1001,
        scheduleType: 'WEEKLY',
        dayOfWeek: 2,
        hour: 8,
        minute: 30,
        notificationFormat: 'pdf',
      },
      status: 200,
    },
    {
      method: 'POST',
      path: '/api/v1/deployments/1/notifications',
      body: { scheduleType: 'DAILY' },
      status: 400,
    },
    { method: 'GET', path: `/api/v1/deployments/1/notifications/${nid}/recipients`, status: 200 },
    { method: 'GET', path: `/api/v1/deployments/1/notifications/${nid}/recipients?first=1`, status: 200 },
    { method: 'POST', path: `/api/v1/deployments/1/notifications/${nid}/recipients`, body: ADD, status: 200 },
    { method: 'POST', path: `/api/v1/deployments/1/notifications/${nid}/recipients`, body: ADD, status: 200 },
    {
      method: 'DELETE',
      path: `/api/v1/deployments/1/notifications/${nid}/recipients`,
      body: {
        recipients: [
          { type: 'USER', id: 3 },
          { type: 'SLACK', id: 'C0NEW' },
        ],
      },
      status: 204,
    },
    { method: 'GET', path: '/api/v1/deployments/1/notifications/1/recipients', status: 404 },
    // polish: one notification's lifecycle
    { method: 'GET', path: `/api/v1/deployments/1/notifications/${nid}`, status: 200 },
    { method: 'GET', path: '/api/v1/deployments/1/notifications/1', status: 404 },
    { method: 'GET', path: `/api/v1/deployments/1/notifications/${nid}`, auth: 'member', status: 403 },
    {
      method: 'PUT',
      path: `/api/v1/deployments/1/notifications/${nid}`,
      body: {
        hour: 6,
        timezone: 'Europe/Paris',
        filters: [{ member: 'orders.status', operator: 'equals', value: 'x' }],
      },
      status: 200,
    },
    {
      method: 'PUT',
      path: `/api/v1/deployments/1/notifications/${nid}`,
      body: { isEnabled: false },
      status: 200,
    },
    {
      method: 'PUT',
      path: `/api/v1/deployments/1/notifications/${nid}`,
      body: { scheduleType: 'CUSTOM' },
      status: 400,
    },
    { method: 'DELETE', path: '/api/v1/deployments/1/notifications/100002', status: 204 },
    { method: 'DELETE', path: '/api/v1/deployments/1/notifications/100002', status: 404 },
    { method: 'POST', path: '/api/v1/deployments/1/dbt-sync', body: { branchName: 'main' }, status: 200 },
    { method: 'GET', path: '/api/v1/deployments/1/dbt-sync/{syncJobId}', status: 200 },
    { method: 'GET', path: '/api/v1/deployments/1/dbt-sync/nope', status: 404 },
    { method: 'POST', path: '/api/v1/deployments/2/token', body: { expiresIn: 600 }, status: 200 },
    { method: 'POST', path: '/api/v1/deployments/2/token', body: { expiresIn: 5 }, status: 400 },
    { method: 'DELETE', path: '/api/v1/embed-tenants/globex', status: 204 },
    // Idempotent as published: a tenant that does not exist is deleted too; a name in another case is a 400.
    { method: 'DELETE', path: '/api/v1/embed-tenants/nobody', status: 204 },
    { method: 'DELETE', path: '/api/v1/embed-tenants/Acme', status: 400 },
    { method: 'DELETE', path: '/api/v1/embed-tenants/acme', auth: 'member', status: 403 },
    // workspace (deployment 3, whose seed no other case reads)
    ...workspaceCalls(),
    { method: 'GET', path: '/cubejs-api/v1/meta', auth: 'data', status: 200 },
    { method: 'GET', path: '/cubejs-api/v1/meta', auth: 'none', status: 403 },
    {
      method: 'POST',
      path: '/cubejs-api/v1/load',
      auth: 'data',
      body: { queryType: 'multi', query: { measures: ['orders.count'], dimensions: ['orders.status'] } },
      status: 200,
    },
    {
      method: 'GET',
      path: `/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify({ measures: ['orders.count'] }))}&queryType=multi`,
      auth: 'data',
      status: 200,
    },
    {
      method: 'POST',
      path: '/cubejs-api/v1/load',
      auth: 'data',
      body: { query: { measures: ['nope.x'] } },
      status: 400,
    },
    {
      method: 'POST',
      path: '/cubejs-api/v1/cubesql',
      auth: 'data',
      body: {
        query: 'SELECT status, MEASURE(count) FROM orders GROUP BY 1',
        timezone: 'UTC',
        cache: 'no-cache',
      },
      status: 200,
    },
    {
      method: 'POST',
      path: '/cubejs-api/v1/cubesql',
      auth: 'data',
      body: { query: 'SELEC nothing' },
      status: 400,
    },
    {
      method: 'POST',
      path: '/cubejs-api/v1/cubesql',
      auth: 'data',
      body: { query: 'SELECT 1', bogus: true },
      status: 400,
    },
    {
      method: 'POST',
      path: `${ai}/chat/stream-chat-state`,
      auth: 'ai',
      body: { input: 'How many orders?', messageId: '1732512345678-message', sessionSettings: SESSION },
      status: 200,
    },
    { method: 'POST', path: `${ai}/chat/stream-chat-state`, auth: 'ai', body: { input: 'hi' }, status: 400 },
    {
      method: 'POST',
      path: `${ai}/chat/abort`,
      auth: 'ai',
      body: { chatId: 'nope', sessionSettings: SESSION },
      status: 404,
    },
    ...buildCalls(),
    // deployops
    ...deployOpsCalls(),
    // Databricks Metric Views, service tokens, the API description
    ...serviceCalls(),
    // settings (before admin: those delete the seeded integration and config)
    ...settingsCalls(),
    // admin
    ...adminCalls(),
    // admin users
    ...adminUsersCalls(),
    // embed tenant groups and users
    ...embedGroupCalls(),
    // embeddable dashboards: signed embedding, the session exchange, comments as an embed user
    ...embedDashboardCalls(),
    // deployments as wholes, GitHub (last: one is created and deleted)
    ...deploymentCalls(),
  ];
}

describe('contract: every sandbox route speaks the published documents', function () {
  this.timeout(120_000);
  let ref: Reference;
  let sb: SandboxHandle;
  let proxy: RecordingServer;
  before(async function () {
    ref = requireReference(this);
    sb = await startSandbox({ rows: 500, continueWaitMs: 50, aiEventDelayMs: 0, dbtStepMs: 1 });
    proxy = await startValidatingProxy(ref, `http://127.0.0.1:${sb.port}`);
  });
  after(async () => {
    await proxy?.close();
    await sb?.close();
  });

  const header = (auth: Call['auth'] = 'admin'): Record<string, string> => {
    if (auth === 'none') return {};
    if (auth === 'admin') return { authorization: `Bearer ${sb.tokens.admin}` };
    if (auth === 'member') return { authorization: `Bearer ${sb.tokens.member}` };
    if (auth === 'data') return { authorization: sb.tokens.dataApi };
    if (auth === 'ai') return { authorization: `Api-Key ${sb.tokens.aiApiKey}` };
    return { authorization: auth };
  };

  it('serves only published routes (GET /v1/load as the documented alias)', () => {
    const unpublished: string[] = [];
    const served = sb.routes();
    assert.ok(served.length >= 25, `${served.length} routes`);
    for (const r of served) {
      const pathname =
        r.family === 'platform'
          ? r.pattern.startsWith('/build/api/')
            ? r.pattern
            : `/api${r.pattern}`
          : r.family === 'data'
            ? `/cubejs-api${r.pattern}`
            : `/ai/x${r.pattern}`;
      const family = r.family === 'ai' ? 'ai' : familyOf(pathname);
      const m = family ? ref.match(family, r.method, pathname.replace(/:(\w+)/g, '1')) : undefined;
      if (!m) unpublished.push(`${r.family} ${r.method} ${r.pattern}`);
      else if (m.op.alias) assert.equal(`${r.method} ${r.pattern}`, 'GET /v1/load');
    }
    assert.deepEqual(unpublished, []);
  });

  /** GET `path` (as `auth`): status and JSON body (undefined when not JSON). */
  async function get(path: string, auth: Call['auth']): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${proxy.url}${path}`, { headers: header(auth) });
    return { status: res.status, body: parseJson(await res.text()) };
  }

  /** The published GET of the resource a write touched, when there is one. */
  function readable(pathname: string): boolean {
    const family = familyOf(pathname);
    return !!family && family !== 'data' && family !== 'ai' && !!ref.match(family, 'GET', pathname);
  }

  /**
   * Reads a successful write back: a deleted resource is gone (404), an updated or created one
   * holds every scalar field that was sent (fields the read does not carry are not compared; a
   * read that carries none of them counts as not read back).
   */
  async function readBack(
    c: Call,
    path: string,
    createdPath: string | undefined,
    body: unknown,
  ): Promise<{ ok: boolean; why?: string; skipped?: string }> {
    const pathname = path.split('?')[0]!;
    if (c.method === 'DELETE') {
      if (body !== undefined) return { ok: false, skipped: 'a removal from a list, sent as a body' };
      if (!readable(pathname)) return { ok: false, skipped: 'no published read' };
      const r = await get(pathname, c.auth);
      if (r.status === 405) return { ok: false, skipped: 'no read served at this path' };
      // A DELETE of a job (a dbt sync) cancels it: the job stays readable and says it was cancelled
      // (the status API knows no CANCELLED: it reads FAILED with the reason).
      const status = (r.body as { status?: unknown } | undefined)?.status;
      if (r.status === 200 && typeof status === 'string')
        return /cancel/i.test(JSON.stringify(r.body))
          ? { ok: true }
          : { ok: false, why: `read as ${status}, not cancelled, after the cancel` };
      // Named by its query (`?branchName=`): the list at the path no longer names it.
      const named = [...new URL(path, 'http://x').searchParams.values()].filter((v) => v.length > 5);
      if (named.length) {
        const text = JSON.stringify(r.body ?? '');
        const left = named.filter((v) => text.includes(JSON.stringify(v)));
        return left.length
          ? { ok: false, why: `${left.join(', ')} still listed after the delete` }
          : { ok: true };
      }
      return r.status === 404
        ? { ok: true }
        : { ok: false, why: `still readable (${r.status}) after the delete` };
    }
    const target =
      createdPath && readable(createdPath) ? createdPath : readable(pathname) ? pathname : undefined;
    if (!target) return { ok: false, skipped: 'no published read' };
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return { ok: false, skipped: 'nothing sent to compare' };
    const r = await get(target, c.readAs ?? c.auth);
    if (r.status !== 200) return { ok: false, why: `GET ${target}: ${r.status}` };
    // What was sent: the body's own fields, or each object of the list it carries ({files: […]}).
    const sentObjects = sentItems(body as Record<string, unknown>);
    // What was read: one resource, or a list of them (items/data/Resources/files or a bare array).
    const readObjects = listOf(r.body);
    let compared = false;
    const differ: string[] = [];
    for (const want of sentObjects) {
      // The same resource by its identity when it has one (a list holds others), else any overlap.
      const idKey = ['id', 'name', 'path', 'externalId', 'displayName'].find((k) => k in want);
      const candidates = readObjects.filter((have) =>
        idKey && idKey in have ? have[idKey] === want[idKey] : Object.keys(want).some((k) => k in have),
      );
      if (!candidates.length) {
        if (idKey && readObjects.some((have) => idKey in have))
          differ.push(`no ${idKey} ${JSON.stringify(want[idKey])} among ${readObjects.length} read`);
        continue;
      }
      compared = true;
      // A secret reads back masked ("[ENCRYPTED]"), as the documents say: not compared.
      const masked = (v: unknown) => typeof v === 'string' && /^\[(ENCRYPTED|REDACTED)\]$|^\*+$/.test(v);
      const matches = (have: Record<string, unknown>) =>
        Object.entries(want).every(([k, v]) => !(k in have) || masked(have[k]) || have[k] === v);
      if (!candidates.some(matches))
        differ.push(`${JSON.stringify(want)} not in ${JSON.stringify(candidates.slice(0, 2))}`);
    }
    if (differ.length) return { ok: false, why: `GET ${target}: ${differ.join('; ')}` };
    return compared ? { ok: true } : { ok: false, skipped: `GET ${target} carries none of the fields sent` };
  }

  it('answers every route with what the documents publish, and shows each write in a read after it', async () => {
    const list = calls(sb);
    const readBackOk: string[] = [];
    const readBackBad: string[] = [];
    const notReadBack: string[] = [];
    const statuses: string[] = [];
    const captured: Record<string, string> = {};
    for (const listed of list) {
      // An embed user's calls carry the token captured from the exchange before them.
      const fill = (t: string | undefined) => t?.replace(/\{(\w+)\}/g, (w, k: string) => captured[k] ?? w);
      const c = { ...listed, auth: fill(listed.auth), readAs: fill(listed.readAs) };
      const path = c.path.replace(/\{(\w+)\}/g, (_w, k: string) => captured[k] ?? k);
      // A raw body (a multipart upload) or JSON; {name} of a captured value is filled in either.
      const sent = (c.raw ?? (c.body !== undefined ? JSON.stringify(c.body) : undefined))?.replace(
        /\{(\w+)\}/g,
        (w, k: string) => captured[k] ?? w,
      );
      const res = await fetch(`${proxy.url}${path}`, {
        method: c.method,
        headers: {
          ...header(c.auth),
          ...(sent !== undefined ? { 'content-type': c.contentType ?? 'application/json' } : {}),
        },
        body: sent,
      });
      const text = await res.text();
      const id = /"syncJobId":"([^"]+)"/.exec(text)?.[1];
      if (id) captured.syncJobId = id;
      const transaction = /"transaction":\{"id":"([^"]+)"/.exec(text)?.[1];
      if (transaction) captured.transactionId = transaction;
      const created = /"id":(\d+)/.exec(text)?.[1];
      if (c.capture && created) captured[c.capture] = created;
      const sessionId = /"sessionId":"([^"]+)"/.exec(text)?.[1];
      if (sessionId) captured.sessionId = sessionId;
      const embedToken = /"token":"([^"]+)"/.exec(text)?.[1];
      if (embedToken && path.endsWith('/embed/session/token')) captured.embedToken = embedToken;
      const jobId = /"jobId":"([^"]+)"/.exec(text)?.[1];
      if (jobId) captured.jobId = jobId;
      const previewId = /"previewId":"([^"]+)"/.exec(text)?.[1];
      if (previewId) captured.previewId = previewId;
      if (res.status !== c.status)
        statuses.push(`${c.method} ${c.path}: ${res.status}, expected ${c.status}`);
      else if (c.status < 300 && c.method !== 'GET') {
        const createdPath = c.capture && created ? `${path.split('?')[0]}/${created}` : undefined;
        const r = await readBack(c, path, createdPath, c.raw === undefined ? c.body : undefined);
        (r.ok ? readBackOk : r.why ? readBackBad : notReadBack).push(
          `${c.method} ${c.path}${r.why ? `: ${r.why}` : r.ok ? '' : ` (${r.skipped})`}`,
        );
      }
    }
    assert.deepEqual(statuses, []);
    // Every write the sandbox took shows in the read that follows it.
    assert.deepEqual(readBackBad, [], 'writes a read afterwards does not show');
    console.log(
      `      ${readBackOk.length} writes read back; ${notReadBack.length} not (no published read of the same resource, or nothing sent to compare):\n` +
        notReadBack.map((l) => `        ${l}`).join('\n'),
    );
    assert.ok(readBackOk.length >= 30, `writes read back: ${readBackOk.length}`);
    // Requests the suite sends on purpose to get an error are allowed to be invalid.
    const deliberate = list.filter((c) => c.status >= 400).map((c) => `${c.method} ${c.path}`);
    assert.ok(captured.syncJobId, 'dbt sync started');
    const violations = proxy.violations.filter(
      (v) => v.kind !== 'request' || !deliberate.includes(`${v.method} ${v.url}`),
    );
    const report = violations.map(
      (v) => `${v.kind} ${v.method} ${v.url} ${v.status ?? ''}\n  ${v.errors.join('\n  ')}`,
    );
    assert.equal(violations.length, 0, `\n${report.join('\n')}`);
    // Every served route was driven.
    const driven = new Set(proxy.exchanges.map((e) => e.operation));
    const missing = sb
      .routes()
      .map((r) => `${r.method} ${r.pattern}`)
      .filter(
        (k) =>
          ![...driven].some((op) => op && op.split(' ')[0] === k.split(' ')[0] && shape(op) === shape(k)),
      );
    assert.deepEqual(missing, []);
    const operations = new Set(proxy.exchanges.map((e) => e.operation)).size;
    const described = proxy.exchanges.filter((e) => e.notes.length === 0).length;
    console.log(
      `      ${operations} operations × ${list.length} cases: ${proxy.exchanges.length} exchanges validated ` +
        `(${described} against a described status, ${proxy.exchanges.length - described} error statuses the documents do not describe)`,
    );
  });
});

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
/** The scalar fields of an object. */
const scalars = (o: Obj): Obj =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v === null || typeof v !== 'object'));

/** A sent body as the objects a read should show: its scalar fields, or the objects of its list field. */
function sentItems(body: Obj): Obj[] {
  const own = scalars(body);
  if (Object.keys(own).length) return [own];
  const list = Object.values(body).find((v) => Array.isArray(v) && v.every(isObj)) as Obj[] | undefined;
  return (list ?? []).map(scalars).filter((o) => Object.keys(o).length > 0);
}

/** A read as the objects it carries: a list's items (also nested in `data`), or the resource itself. */
function listOf(read: unknown): Obj[] {
  if (Array.isArray(read)) return read.filter(isObj);
  if (!isObj(read)) return [];
  for (const k of ['items', 'data', 'Resources', 'files', 'variables']) {
    const v = read[k];
    if (Array.isArray(v)) return v.filter(isObj);
    if (isObj(v)) return listOf(v);
  }
  return [read];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A path with its parameters blanked, to compare a route pattern with a published template. */
function shape(k: string): string {
  return k
    .split(' ')[1]!
    .replace(/^\/api(?=\/)/, '')
    .replace(/^\/(?=scim)/, '/')
    .replace(/\{[^}]+\}|:\w+/g, '*');
}
