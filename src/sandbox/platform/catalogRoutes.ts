// Deployments and what they hold: environments, env variables, folders, reports, workbooks, and
// publishing a workbook's dashboard (a new version each time).
import { PublishDashboardInputSchema } from '../../api/schemas/platform';
import type { RequestContext, Router } from '../http';
import { page, withDeployment as guard, type PlatformDeps } from './common';
import type { Row } from './seed';

export function registerCatalogRoutes(router: Router, deps: PlatformDeps): void {
  const d = deps.data;
  const withDeployment = guard(deps);
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
      // The answer is a whole Dashboard: seeded dashboards lack the fields only a publish sets.
      w.dashboardPublished = {
        deploymentId: dep.id,
        workbookId: w.id,
        versionId: pub.id,
        allowEmbed: false,
        reportSnapshots: [],
        ...pub,
        aiWidgetThreads: threads,
      };
      await ctx.json(200, w.dashboardPublished);
    }),
  );
}
