// The Platform (management) API of the sandbox: cursor paging with opaque cursors, the rules of
// spec 4.1 enforced server-side, admin-only notifications, publish creating new versions, dbt sync
// jobs that move through states over time.
import { PublishDashboardInputSchema } from '../../api/schemas/platform';
import type { RequestContext, Router } from '../http';
import { signJwt } from '../jwt';
import type { SandboxTokens } from '../server';
import type { SandboxState } from '../state';
import type { PlatformData, Recipient, Row } from './seed';

export interface PlatformDeps {
  data: PlatformData;
  state: SandboxState;
  tokens: SandboxTokens;
  jwtSecret: string;
  /** How long each dbt sync state lasts. */
  dbtStepMs?: number;
}

const encodeCursor = (offset: number, key: string) =>
  Buffer.from(JSON.stringify({ o: offset, k: key })).toString('base64url');
function decodeCursor(cursor: string, key: string): number | undefined {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown; k?: unknown };
    return typeof v.o === 'number' && v.k === key ? v.o : undefined;
  } catch {
    return undefined;
  }
}

/** Pages `rows` by `first`/`after`; answers 400 naming the rule on bad input. Returns undefined after answering. */
async function page(ctx: RequestContext, rows: Row[], key: string, defaultFirst = 100) {
  const firstText = ctx.query.get('first');
  const first = firstText === null ? defaultFirst : Number(firstText);
  if (!Number.isInteger(first) || first < 1 || first > 200) {
    await ctx.error(400, `first must be an integer from 1 to 200 (got ${firstText}).`);
    return undefined;
  }
  const after = ctx.query.get('after');
  let offset = 0;
  if (after) {
    const o = decodeCursor(after, key);
    if (o === undefined) {
      await ctx.error(400, 'after is not a cursor of this list (pass the previous pageInfo.endCursor).');
      return undefined;
    }
    offset = o;
  }
  const items = rows.slice(offset, offset + first);
  const end = offset + items.length;
  const hasNextPage = end < rows.length;
  return {
    items,
    pageInfo: {
      hasNextPage,
      hasPreviousPage: offset > 0,
      startCursor: items.length ? encodeCursor(offset, key) : null,
      endCursor: items.length ? encodeCursor(end, key) : null,
    },
    offset,
    first,
    total: rows.length,
  };
}

function deployment(ctx: RequestContext, deps: PlatformDeps): Row | undefined {
  const id = Number(ctx.params.deploymentId);
  return deps.data.deployments.find((d) => d.id === id);
}

const isAdmin = (ctx: RequestContext, deps: PlatformDeps) => ctx.credential === deps.tokens.admin;

function intParam(ctx: RequestContext, name: string): number | undefined | 'bad' {
  const v = ctx.query.get(name);
  if (v === null || v === '') return undefined;
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 ? n : 'bad';
}

export function registerPlatformRoutes(router: Router, deps: PlatformDeps): void {
  const d = deps.data;
  const withDeployment =
    (fn: (ctx: RequestContext, dep: Row) => Promise<void>) =>
    async (ctx: RequestContext): Promise<void> => {
      const dep = deployment(ctx, deps);
      if (!dep) return ctx.error(404, `Deployment ${ctx.params.deploymentId} not found.`);
      return fn(ctx, dep);
    };
  const listOf = (
    get: (dep: Row) => Row[],
    key: string,
    extra?: (p: NonNullable<Awaited<ReturnType<typeof page>>>) => Record<string, unknown>,
  ) =>
    withDeployment(async (ctx, dep) => {
      const p = await page(ctx, get(dep), `${key}:${dep.id}`);
      if (p) await ctx.json(200, { items: p.items, pageInfo: p.pageInfo, ...(extra ? extra(p) : {}) });
    });
  const pagination = (p: { offset: number; first: number; total: number }) => ({
    pagination: { offset: p.offset, limit: p.first, total: p.total },
  });
  const deprecated = (p: { items: unknown[]; total: number }) => ({ data: p.items, count: p.total });

  router.add('platform', 'GET', '/v1/deployments', async (ctx) => {
    const p = await page(ctx, d.deployments, 'deployments');
    if (p) await ctx.json(200, { items: p.items, pageInfo: p.pageInfo, ...pagination(p) });
  });
  router.add(
    'platform',
    'GET',
    '/v1/deployments/:deploymentId',
    withDeployment((ctx, dep) => ctx.json(200, dep)),
  );
  router.add(
    'platform',
    'GET',
    '/v1/deployments/:deploymentId/environments',
    listOf((dep) => d.environments.get(dep.id) ?? [], 'environments', pagination),
  );
  router.add(
    'platform',
    'GET',
    '/v1/deployments/:deploymentId/env-vars',
    listOf((dep) => d.envVars.get(dep.id) ?? [], 'envVars'),
  );
  router.add(
    'platform',
    'GET',
    '/v1/deployments/:deploymentId/folders',
    withDeployment(async (ctx, dep) => {
      const parent = ctx.query.get('parentId');
      const rows = (d.folders.get(dep.id) ?? []).filter((f) =>
        parent ? f.parentId === Number(parent) : true,
      );
      const p = await page(ctx, rows, `folders:${dep.id}:${parent ?? ''}`);
      if (p) await ctx.json(200, { items: p.items, pageInfo: p.pageInfo, ...deprecated(p) });
    }),
  );

  router.add(
    'platform',
    'GET',
    '/v1/deployments/:deploymentId/reports',
    withDeployment(async (ctx, dep) => {
      const sortBy = ctx.query.get('sortBy') ?? 'createdAt';
      if (!['name', 'createdAt', 'updatedAt', 'lastViewedAt'].includes(sortBy)) {
        return ctx.error(
          400,
          `sortBy must be one of name, createdAt, updatedAt, lastViewedAt (got ${sortBy}).`,
        );
      }
      if (sortBy === 'lastViewedAt' && ctx.query.get('after')) {
        return ctx.error(400, 'Cursor pagination is unavailable when sorting by lastViewedAt.');
      }
      const search = ctx.query.get('search')?.toLowerCase();
      const name = ctx.query.get('name');
      const folderId = ctx.query.get('folderId');
      const ext = ctx.query.get('externalWorkbookId');
      let rows = (d.reports.get(dep.id) ?? []).filter(
        (r) =>
          (!search ||
            String(r.name).toLowerCase().includes(search) ||
            String(r.title ?? '')
              .toLowerCase()
              .includes(search)) &&
          (!name || r.name === name) &&
          (!folderId || r.folderId === Number(folderId)) &&
          (!ext ||
            (r.externalWorkbookPlacements as { workbookId: string }[]).some((p) => p.workbookId === ext)),
      );
      rows = [...rows].sort((a, b) =>
        sortBy === 'name'
          ? String(a.name).localeCompare(String(b.name)) || a.id - b.id
          : String(b[sortBy]).localeCompare(String(a[sortBy])) || b.id - a.id,
      );
      const key = `reports:${dep.id}:${sortBy}:${search ?? ''}:${name ?? ''}:${folderId ?? ''}:${ext ?? ''}`;
      const p = await page(ctx, rows, key);
      if (!p) return;
      const pageInfo =
        sortBy === 'lastViewedAt' ? { ...p.pageInfo, hasNextPage: false, endCursor: null } : p.pageInfo;
      await ctx.json(200, { items: p.items, pageInfo, ...deprecated(p) });
    }),
  );
  const findReport = (ctx: RequestContext, dep: Row) =>
    (d.reports.get(dep.id) ?? []).find((r) => r.id === Number(ctx.params.reportId));
  router.add(
    'platform',
    'GET',
    '/v1/deployments/:deploymentId/reports/:reportId',
    withDeployment(async (ctx, dep) => {
      const r = findReport(ctx, dep);
      return r ? ctx.json(200, r) : ctx.error(404, `Report ${ctx.params.reportId} not found.`);
    }),
  );
  router.add(
    'platform',
    'PUT',
    '/v1/deployments/:deploymentId/reports/:reportId/connect-workbook',
    withDeployment(async (ctx, dep) => {
      const r = findReport(ctx, dep);
      if (!r) return ctx.error(404, `Report ${ctx.params.reportId} not found.`);
      const b = (ctx.body ?? {}) as Record<string, unknown>;
      for (const f of ['externalWorkbookId', 'resultLocation']) {
        if (typeof b[f] !== 'string' || !b[f]) return ctx.error(400, `${f} is required.`);
      }
      const placements = (r.externalWorkbookPlacements as Record<string, unknown>[]).filter(
        (p) => p.workbookId !== b.externalWorkbookId,
      );
      placements.push({
        workbookId: b.externalWorkbookId,
        resultLocation: b.resultLocation,
        endResultCell: b.endResultCell ?? null,
      });
      r.externalWorkbookPlacements = placements;
      await ctx.json(200, r);
    }),
  );

  const findWorkbook = (ctx: RequestContext, dep: Row) =>
    (d.workbooks.get(dep.id) ?? []).find((w) => w.id === Number(ctx.params.workbookId));
  router.add(
    'platform',
    'GET',
    '/v1/deployments/:deploymentId/workbooks',
    listOf((dep) => d.workbooks.get(dep.id) ?? [], 'workbooks'),
  );
  router.add(
    'platform',
    'GET',
    '/v1/deployments/:deploymentId/workbooks/:workbookId',
    withDeployment(async (ctx, dep) => {
      const w = findWorkbook(ctx, dep);
      return w ? ctx.json(200, w) : ctx.error(404, `Workbook ${ctx.params.workbookId} not found.`);
    }),
  );
  router.add(
    'platform',
    'POST',
    '/v1/deployments/:deploymentId/workbooks/:workbookId/duplicate',
    withDeployment(async (ctx, dep) => {
      const w = findWorkbook(ctx, dep);
      if (!w) return ctx.error(404, `Workbook ${ctx.params.workbookId} not found.`);
      const shared = (ctx.body as { shared?: unknown } | undefined)?.shared === true;
      const copy: Row = {
        ...structuredClone(w),
        id: d.nextId(),
        name: `${String(w.name)} (copy${shared ? ' from shared' : ''})`,
        dashboardPublished: null,
        fromSharedWorkspace: shared,
      };
      d.workbooks.get(dep.id)!.push(copy);
      await ctx.json(200, copy);
    }),
  );
  router.add(
    'platform',
    'POST',
    '/v1/deployments/:deploymentId/workbooks/:workbookId/publish',
    withDeployment(async (ctx, dep) => {
      const w = findWorkbook(ctx, dep);
      if (!w) return ctx.error(404, `Workbook ${ctx.params.workbookId} not found.`);
      const parsed = PublishDashboardInputSchema.safeParse(ctx.body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        return ctx.error(400, `Invalid publish input: ${issue.path.join('.') || 'body'}: ${issue.message}`);
      }
      const input = parsed.data;
      if (input.workbookId !== w.id)
        return ctx.error(
          400,
          `workbookId ${input.workbookId} does not match the workbook in the path (${w.id}).`,
        );
      const prev = w.dashboardPublished as Record<string, unknown> | null;
      const draft = w.dashboardDraft as Record<string, unknown>;
      const config = input.config ?? draft.config;
      const versionNumber = ((prev?.versionNumber as number | undefined) ?? 0) + 1;
      const reportIds = ((config as { widgets?: { config?: { reportId?: number } }[] }).widgets ?? [])
        .map((x) => x.config?.reportId)
        .filter((x): x is number => typeof x === 'number');
      const published = {
        id: (prev?.id as number | undefined) ?? w.id,
        publicId: (prev?.publicId as string | undefined) ?? `pub-${dep.id}-${w.id}`,
        deploymentId: dep.id,
        workbookId: w.id,
        versionId: d.nextId(),
        versionNumber,
        status: 'published',
        allowEmbed: input.allowEmbed ?? false,
        config,
        reportSnapshots: reportIds.map((reportId, i) => ({
          id: d.nextId(),
          reportId,
          versionNumber: 1,
          name: `report-${reportId}`,
          title: `Report ${reportId}`,
          description: '',
          kind: i % 2 ? 'table' : 'vega',
          meta: {},
          preferences: { columnFormats: {} },
          spec: '{"mark":"bar"}',
          sqlQuery: 'SELECT status, MEASURE(count) FROM orders GROUP BY 1',
          fillMissingRows: { member: 'orders.created_at', excludedDimensions: [] },
        })),
        createdBy: ctx.credential === deps.tokens.admin ? 1 : 2,
        title: input.title ?? (draft.title as string),
        description: input.description ?? (draft.description as string),
        fromSharedWorkspace: false,
        restrictDataDownload: false,
        useBoardDashboards: false,
      };
      w.dashboardPublished = published;
      w.dashboardDraft = { ...draft, config };
      deps.state.publishes.push({
        deploymentId: dep.id,
        workbookId: w.id,
        versionNumber,
        title: published.title,
        at: new Date().toISOString(),
      });
      await ctx.json(200, published);
    }),
  );
  router.add(
    'platform',
    'POST',
    '/v1/deployments/:deploymentId/workbooks/:workbookId/dashboard/ai-widget-thread',
    withDeployment(async (ctx, dep) => {
      const w = findWorkbook(ctx, dep);
      if (!w) return ctx.error(404, `Workbook ${ctx.params.workbookId} not found.`);
      const pub = w.dashboardPublished as Record<string, unknown> | null;
      if (!pub)
        return ctx.error(409, 'The workbook has no published dashboard: publish it first.', {
          code: 'NOT_PUBLISHED',
        });
      const b = (ctx.body ?? {}) as Record<string, unknown>;
      if (typeof b.threadId !== 'string' || typeof b.widgetId !== 'string')
        return ctx.error(400, 'threadId and widgetId are required.');
      const threads = {
        ...((pub.aiWidgetThreads as Record<string, unknown>) ?? {}),
        [b.widgetId]: { threadId: b.threadId, checksum: b.checksum ?? null },
      };
      w.dashboardPublished = { ...pub, aiWidgetThreads: threads };
      await ctx.json(200, w.dashboardPublished);
    }),
  );

  // Notifications: admin only, newest first, spec 4.1 rules.
  router.add(
    'platform',
    'GET',
    '/v1/deployments/:deploymentId/notifications',
    withDeployment(async (ctx, dep) => {
      if (!isAdmin(ctx, deps))
        return ctx.error(403, 'Forbidden: listing notifications needs the admin role.');
      const q = ctx.query;
      const dashboardId = intParam(ctx, 'dashboardId');
      const userId = intParam(ctx, 'recipientUserId');
      if (dashboardId === 'bad') return ctx.error(400, 'dashboardId must be an integer >= 1.');
      if (userId === 'bad') return ctx.error(400, 'recipientUserId must be an integer >= 1.');
      const publicId = q.get('dashboardPublicId');
      if (dashboardId !== undefined && publicId)
        return ctx.error(400, 'Use either dashboardId or dashboardPublicId, not both.');
      const email = q.get('recipientEmail');
      const tenant = q.get('recipientEmbedTenantName');
      const ext = q.get('recipientExternalId');
      if (!!tenant !== !!ext)
        return ctx.error(400, 'recipientEmbedTenantName and recipientExternalId must be given together.');
      const recipientFilters = [userId !== undefined, !!email, !!tenant].filter(Boolean).length;
      if (recipientFilters > 1)
        return ctx.error(
          400,
          'Use only one recipient filter: recipientUserId, recipientEmail, or recipientEmbedTenantName + recipientExternalId.',
        );
      const rows = (d.notifications.get(dep.id) ?? [])
        .filter((n) => {
          if (dashboardId !== undefined && n.dashboardId !== dashboardId) return false;
          if (publicId && n.dashboardPublicId !== publicId) return false;
          const rs = d.recipients.get(n.id) ?? [];
          if (userId !== undefined && !rs.some((r) => r.userId === userId)) return false;
          if (email && !rs.some((r) => r.email === email)) return false;
          if (tenant && !rs.some((r) => r.embedTenantName === tenant && r.externalId === ext)) return false;
          return true;
        })
        .sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)) || b.id - a.id);
      const key = `notifications:${dep.id}:${[...q.entries()].filter(([k]) => k !== 'after' && k !== 'first').join('&')}`;
      const p = await page(ctx, rows, key);
      if (p)
        await ctx.json(200, {
          items: p.items.map(({ dashboardPublicId: _p, createdAt: _c, ...n }) => n),
          pageInfo: p.pageInfo,
        });
    }),
  );
  router.add(
    'platform',
    'POST',
    '/v1/deployments/:deploymentId/notifications',
    withDeployment(async (ctx, dep) => {
      if (!isAdmin(ctx, deps))
        return ctx.error(403, 'Forbidden: creating notifications needs the admin role.');
      const b = (ctx.body ?? {}) as Record<string, unknown>;
      const hasId = b.dashboardId !== undefined && b.dashboardId !== null;
      const hasPublic = typeof b.dashboardPublicId === 'string' && b.dashboardPublicId !== '';
      if (hasId === hasPublic) return ctx.error(400, 'Give exactly one of dashboardId or dashboardPublicId.');
      const workbooks = d.workbooks.get(dep.id) ?? [];
      const wb = hasId
        ? workbooks.find((w) => w.id === b.dashboardId)
        : workbooks.find(
            (w) => (w.dashboardPublished as { publicId?: string } | null)?.publicId === b.dashboardPublicId,
          );
      if (!wb) return ctx.error(404, 'Dashboard not found.');
      const type = String(b.scheduleType ?? '');
      const minute = Number(b.minute ?? 0);
      const hour = Number(b.hour ?? 9);
      const hhmm = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
      const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
      let cron: string;
      let human: string;
      switch (type) {
        case 'HOURLY':
          cron = `${minute} * * * *`;
          human = `Every hour at minute ${minute}`;
          break;
        case 'DAILY':
          cron = `${minute} ${hour} * * *`;
          human = `Every day at ${hhmm}`;
          break;
        case 'WEEKLY': {
          const dow = Number(b.dayOfWeek ?? 1);
          if (!(dow >= 0 && dow <= 6)) return ctx.error(400, 'dayOfWeek must be 0-6.');
          cron = `${minute} ${hour} * * ${dow}`;
          human = `Every ${days[dow]} at ${hhmm}`;
          break;
        }
        case 'MONTHLY': {
          const dom = Number(b.dayOfMonth ?? 1);
          cron = `${minute} ${hour} ${dom} * *`;
          human = `Every month on day ${dom} at ${hhmm}`;
          break;
        }
        case 'CUSTOM':
          if (typeof b.customCron !== 'string' || b.customCron.trim().split(/\s+/).length !== 5)
            return ctx.error(400, 'customCron must be a 5-field cron expression.');
          cron = b.customCron;
          human = `Custom schedule (${cron})`;
          break;
        default:
          return ctx.error(400, 'scheduleType must be HOURLY, DAILY, WEEKLY, MONTHLY or CUSTOM.');
      }
      const format = b.notificationFormat ?? 'pdf';
      if (format !== 'pdf' && format !== 'png')
        return ctx.error(400, 'notificationFormat must be png or pdf.');
      const n: Row = {
        id: d.nextId(),
        dashboardId: wb.id,
        dashboardPublicId: (wb.dashboardPublished as { publicId?: string } | null)?.publicId ?? null,
        deploymentId: dep.id,
        cronExpression: cron,
        timezone: typeof b.timezone === 'string' ? b.timezone : 'UTC',
        isEnabled: true,
        humanReadableSchedule: human,
        notificationEnabled: b.notificationEnabled !== false,
        notificationFormat: format,
        filters: b.filters ?? null,
        timeGrains: b.timeGrains ?? null,
        createdAt: new Date().toISOString(),
      };
      d.notifications.get(dep.id)!.push(n);
      d.recipients.set(n.id, []);
      deps.state.createdNotifications.push(n.id);
      const { dashboardPublicId: _p, createdAt: _c, ...out } = n;
      await ctx.json(200, out);
    }),
  );
  const notification = (ctx: RequestContext, dep: Row) =>
    (d.notifications.get(dep.id) ?? []).find((n) => n.id === Number(ctx.params.id));
  const recipientKey = (r: Partial<Recipient>) =>
    `${r.type}|${r.userId ?? ''}|${r.email ?? ''}|${r.embedTenantName ?? ''}|${r.externalId ?? ''}`;
  router.add(
    'platform',
    'GET',
    '/v1/deployments/:deploymentId/notifications/:id/recipients',
    withDeployment(async (ctx, dep) => {
      if (!isAdmin(ctx, deps)) return ctx.error(403, 'Forbidden: recipients need the admin role.');
      const n = notification(ctx, dep);
      if (!n) return ctx.error(404, `Notification ${ctx.params.id} not found.`);
      await ctx.json(200, { items: d.recipients.get(n.id) ?? [], pageInfo: null });
    }),
  );
  router.add(
    'platform',
    'POST',
    '/v1/deployments/:deploymentId/notifications/:id/recipients',
    withDeployment(async (ctx, dep) => {
      if (!isAdmin(ctx, deps)) return ctx.error(403, 'Forbidden: recipients need the admin role.');
      const n = notification(ctx, dep);
      if (!n) return ctx.error(404, `Notification ${ctx.params.id} not found.`);
      const list = (ctx.body as { recipients?: unknown } | undefined)?.recipients;
      if (!Array.isArray(list) || list.length === 0)
        return ctx.error(400, 'recipients must be a non-empty array.');
      const current = d.recipients.get(n.id) ?? [];
      let created = 0;
      let unchanged = 0;
      for (const raw of list as Partial<Recipient>[]) {
        if (!raw || !['USER', 'EMBED_USER', 'SLACK'].includes(String(raw.type)))
          return ctx.error(400, 'Each recipient needs type USER, EMBED_USER or SLACK.');
        if (raw.type === 'USER' && raw.userId === undefined && !raw.email)
          return ctx.error(400, 'A USER recipient needs userId or email.');
        if (raw.type === 'EMBED_USER' && (!raw.embedTenantName || !raw.externalId))
          return ctx.error(400, 'An EMBED_USER recipient needs embedTenantName and externalId.');
        if (current.some((c) => recipientKey(c) === recipientKey(raw))) unchanged++;
        else {
          current.push(raw as Recipient);
          created++;
        }
      }
      d.recipients.set(n.id, current);
      await ctx.json(200, { created, updated: 0, unchanged });
    }),
  );
  router.add(
    'platform',
    'DELETE',
    '/v1/deployments/:deploymentId/notifications/:id/recipients',
    withDeployment(async (ctx, dep) => {
      if (!isAdmin(ctx, deps)) return ctx.error(403, 'Forbidden: recipients need the admin role.');
      const n = notification(ctx, dep);
      if (!n) return ctx.error(404, `Notification ${ctx.params.id} not found.`);
      const list = ((ctx.body as { recipients?: unknown } | undefined)?.recipients ??
        []) as Partial<Recipient>[];
      const drop = new Set(list.map(recipientKey));
      d.recipients.set(
        n.id,
        (d.recipients.get(n.id) ?? []).filter((r) => !drop.has(recipientKey(r))),
      );
      await ctx.noContent();
    }),
  );

  // dbt sync: QUEUED -> RUNNING -> COMPLETED (a branch named "fail" ends FAILED).
  const step = deps.dbtStepMs ?? 500;
  router.add(
    'platform',
    'POST',
    '/v1/deployments/:deploymentId/dbt-sync',
    withDeployment(async (ctx, dep) => {
      const branchName = ((ctx.body ?? {}) as { branchName?: unknown }).branchName;
      if (branchName !== undefined && typeof branchName !== 'string')
        return ctx.error(400, 'branchName must be a string.');
      const syncJobId = String(d.nextId());
      deps.state.dbtJobs[syncJobId] = {
        deploymentId: dep.id,
        branchName: branchName ?? 'main',
        startedAt: Date.now(),
      };
      await ctx.json(200, { syncJobId, workflowId: `wf-${syncJobId}`, branchName: branchName ?? 'main' });
    }),
  );
  router.add(
    'platform',
    'GET',
    '/v1/deployments/:deploymentId/dbt-sync/:syncJobId',
    withDeployment(async (ctx) => {
      const job = deps.state.dbtJobs[ctx.params.syncJobId!];
      if (!job) return ctx.error(404, `dbt sync job ${ctx.params.syncJobId} not found.`);
      const elapsed = Date.now() - job.startedAt;
      const done = job.branchName === 'fail' ? 'FAILED' : 'COMPLETED';
      const status = elapsed < step ? 'QUEUED' : elapsed < 2 * step ? 'RUNNING' : done;
      await ctx.json(200, {
        syncJobId: ctx.params.syncJobId,
        status,
        branchName: job.branchName,
        error:
          status === 'FAILED'
            ? 'dbt compile failed: model "orders" references a missing column "amount_usd".'
            : null,
      });
    }),
  );

  router.add('platform', 'DELETE', '/v1/embed-tenants/:embedTenantName', async (ctx) => {
    if (!isAdmin(ctx, deps)) return ctx.error(403, 'Forbidden: deleting embed tenants needs the admin role.');
    const name = ctx.params.embedTenantName!;
    if (!d.embedTenants.delete(name)) return ctx.error(404, `Embed tenant "${name}" not found.`);
    deps.state.deletedEmbedTenants.push(name);
    await ctx.noContent();
  });
  router.add('platform', 'GET', '/v1/app-config', (ctx) => ctx.json(200, d.appConfig));
  router.add('platform', 'GET', '/v1/users', async (ctx) => {
    const p = await page(ctx, d.users, 'users');
    if (p) await ctx.json(200, { items: p.items, pageInfo: p.pageInfo });
  });
  router.add(
    'platform',
    'POST',
    '/v1/deployments/:deploymentId/token',
    withDeployment(async (ctx, dep) => {
      const expiresIn = ((ctx.body ?? {}) as { expiresIn?: unknown }).expiresIn ?? 3600;
      if (
        typeof expiresIn !== 'number' ||
        !Number.isInteger(expiresIn) ||
        expiresIn < 60 ||
        expiresIn > 86400
      ) {
        return ctx.error(400, 'expiresIn must be an integer from 60 to 86400.');
      }
      await ctx.json(200, {
        cubeApiToken: signJwt({ deploymentId: dep.id, sub: 'sandbox' }, deps.jwtSecret, expiresIn),
      });
    }),
  );
}
