// Deployments and what they hold: environments, env variables, folders, reports, workbooks, and
// publishing a workbook's dashboard (a new version each time).
import type { PublishDashboardWire, UpdatePublishedAiWidgetThreadInput } from '../../api/platform/dashboards';
import type { Router } from '../http';
import { deploymentRoutes, publicView, sendPage, type Page, type PlatformDeps } from './common';
import { maskEnvVar } from './opsRoutes';
import { publicIdOf, type Row } from './seed';
import { createWorkspaceModel, withFolderPath } from './workspaceModel';

export function registerCatalogRoutes(router: Router, deps: PlatformDeps): void {
  const d = deps.data;
  const on = deploymentRoutes(router, deps);
  const { itemRoutes } = createWorkspaceModel(deps);
  // Every list carries `items` + `pageInfo` and, where the documents still require them, the
  // deprecated `data` (the same items) and `count`.
  const listed = { view: publicView, data: true };
  const count = (p: Page<unknown>) => ({ count: p.total });
  const pagination = (p: Page<unknown>) => ({
    pagination: { offset: p.offset, limit: p.first, total: p.total },
  });
  const inFolder = (dep: Row) => (r: Row) => withFolderPath(d, dep.id, publicView(r));

  router.add('platform', 'GET', '/v1/deployments', (ctx) =>
    sendPage(ctx, d.deployments, 'deployments', {
      ...listed,
      extra: (p) => ({ count: p.total, totalCount: p.total, ...pagination(p) }),
    }),
  );
  on('GET', '', (ctx, dep) => ctx.json(200, dep));
  on('GET', '/environments', async (ctx, dep) => {
    const type = ctx.query.get('type');
    const rows = (d.environments.get(dep.id) ?? []).filter((e) => !type || e.type === type);
    await sendPage(ctx, rows, `environments:${dep.id}:${type ?? ''}`, { ...listed, extra: pagination });
  });
  on('GET', '/env-vars', (ctx, dep) =>
    sendPage(ctx, (d.envVars.get(dep.id) ?? []).map(maskEnvVar), `envVars:${dep.id}`, listed),
  );
  on('GET', '/folders', async (ctx, dep) => {
    const parent = ctx.query.get('parentId');
    const rows = (d.folders.get(dep.id) ?? []).filter((f) => (parent ? f.parentId === Number(parent) : true));
    await sendPage(ctx, rows, `folders:${dep.id}:${parent ?? ''}`, { ...listed, extra: count });
  });

  on('GET', '/reports', async (ctx, dep) => {
    const sortBy = ctx.query.get('sortBy') ?? 'createdAt';
    const direction = ctx.query.get('sortDirection');
    const search = ctx.query.get('search')?.toLowerCase();
    const folderId = ctx.query.get('folderId');
    const ext = ctx.query.get('externalWorkbookId');
    let rows = (d.reports.get(dep.id) ?? []).filter(
      (r) =>
        (!search ||
          String(r.name).toLowerCase().includes(search) ||
          String(r.title ?? '')
            .toLowerCase()
            .includes(search)) &&
        (!folderId || r.folderId === Number(folderId)) &&
        (!ext ||
          (r.externalWorkbookPlacements as { workbookId: string }[]).some((p) => p.workbookId === ext)),
    );
    const field = sortBy === 'lastViewedAt' ? '_lastViewedAt' : sortBy;
    // name ascends by default, dates descend (newest first); sortDirection overrides.
    const asc = direction ? direction === 'ASC' : sortBy === 'name';
    rows = [...rows].sort(
      (a, b) => (asc ? 1 : -1) * (String(a[field]).localeCompare(String(b[field])) || a.id - b.id),
    );
    const key = `reports:${dep.id}:${sortBy}:${direction ?? ''}:${search ?? ''}:${folderId ?? ''}:${ext ?? ''}`;
    const extra = (p: Page<Row>) => ({
      ...count(p),
      ...(sortBy === 'lastViewedAt'
        ? { pageInfo: { ...p.pageInfo, hasNextPage: false, endCursor: null } }
        : {}),
    });
    await sendPage(ctx, rows, key, { view: inFolder(dep), data: true, extra });
  });
  const report = itemRoutes(on, 'REPORT');
  report('GET', '/reports/:reportId', (ctx, dep, r) =>
    ctx.json(200, withFolderPath(d, dep.id, publicView(r))),
  );
  report('PUT', '/reports/:reportId/connect-workbook', async (ctx, _dep, r) => {
    const b = ctx.body as Record<string, unknown>;
    const placements = (r.externalWorkbookPlacements as Record<string, unknown>[]).filter(
      (p) => p.workbookId !== b.externalWorkbookId,
    );
    placements.push({
      workbookId: b.externalWorkbookId,
      resultLocation: b.resultLocation,
      endResultCell: b.endResultCell ?? null,
    });
    r.externalWorkbookPlacements = placements;
    await ctx.json(200, publicView(r));
  });

  const workbook = itemRoutes(on, 'WORKBOOK');
  on('GET', '/workbooks', async (ctx, dep) => {
    const folderId = ctx.query.get('folderId');
    const rows = (d.workbooks.get(dep.id) ?? []).filter((w) => !folderId || w.folderId === Number(folderId));
    const key = `workbooks:${dep.id}:${folderId ?? ''}`;
    await sendPage(ctx, rows, key, { view: inFolder(dep), data: true, extra: count });
  });
  workbook('GET', '/workbooks/:workbookId', (ctx, dep, w) => ctx.json(200, withFolderPath(d, dep.id, w)));
  workbook('POST', '/workbooks/:workbookId/duplicate', async (ctx, dep, w) => {
    const shared = (ctx.body as { shared?: unknown } | undefined)?.shared === true;
    const now = new Date().toISOString();
    const copy: Row = {
      ...structuredClone(w),
      id: d.nextId(),
      name: `${String(w.name)} (copy${shared ? ' from shared' : ''})`,
      slug: null,
      createdAt: now,
      updatedAt: now,
      dashboardPublished: null,
      publishedDashboard: null,
    };
    d.workbooks.get(dep.id)!.push(copy);
    await ctx.json(200, copy);
  });
  workbook('POST', '/workbooks/:workbookId/publish', async (ctx, dep, w) => {
    const input = ctx.body as PublishDashboardWire;
    if (input.workbookId !== w.id)
      return ctx.error(
        400,
        `workbookId ${input.workbookId} does not match the workbook in the path (${w.id}).`,
      );
    const prev = w.publishedDashboard as Record<string, unknown> | null;
    const draft = w.dashboardDraft as Record<string, unknown>;
    // Like the service, the stored config gets the fields a publish leaves out: the kind (APP
    // when an app source is given) and the app source (none).
    const config = input.config
      ? { kind: input.config.app ? 'APP' : 'CLASSIC', app: null, ...input.config }
      : draft;
    const versionNumber = ((prev?.versionNumber as number | undefined) ?? 0) + 1;
    const reportNameOf = (id: number) =>
      (d.reports.get(dep.id) ?? []).find((r) => r.id === id)?.name as string | undefined;
    const reportIds = ((config.widgets as { config?: { reportId?: unknown } | null }[] | null) ?? [])
      .map((x) => x.config?.reportId)
      .filter((x): x is number => typeof x === 'number');
    const published = {
      id: (prev?.id as number | undefined) ?? w.id,
      publicId: (prev?.publicId as string | undefined) ?? publicIdOf('pub', dep.id, w.id),
      deploymentId: dep.id,
      workbookId: w.id,
      versionId: d.nextId(),
      versionNumber,
      status: 'published',
      allowEmbed: input.allowEmbed ?? (prev?.allowEmbed as boolean | undefined) ?? false,
      config,
      reportSnapshots: reportIds.map((reportId, i) => ({
        id: d.nextId(),
        reportId,
        versionNumber: 1,
        // The report's own name at publish time; some titles null, as the documents allow.
        name: reportNameOf(reportId) ?? `report-${reportId}`,
        title: i % 3 === 2 ? null : (reportNameOf(reportId) ?? `Report ${reportId}`),
        description: null,
        kind: i % 2 ? 'table' : 'vega',
        meta: null,
        preferences: i % 2 ? null : { columnFormats: null },
        spec: '{"mark":"bar"}',
        sqlQuery: 'SELECT status, MEASURE(count) FROM orders GROUP BY 1',
        fillMissingRows: i % 2 ? null : { member: 'orders.created_at', excludedDimensions: null },
        isSourceReport: null,
        periodComparisons: null,
        pythonCode: null,
      })),
      // The documents allow these to be null, and the live service sends null for many of them.
      createdBy: null,
      title: input.title ?? (config.title as string | null | undefined) ?? null,
      description: input.description ?? (config.description as string | null | undefined) ?? null,
      fromSharedWorkspace: null,
      restrictDataDownload: null,
      useBoardDashboards: null,
    };
    w.publishedDashboard = published;
    w.dashboardPublished = config;
    w.dashboardDraft = config;
    w.updatedAt = new Date().toISOString();
    deps.state.publishes.push({
      deploymentId: dep.id,
      workbookId: w.id,
      versionNumber,
      title: published.title,
      at: new Date().toISOString(),
    });
    await ctx.json(200, published);
  });
  workbook('POST', '/workbooks/:workbookId/dashboard/ai-widget-thread', async (ctx, _dep, w) => {
    const pub = w.publishedDashboard as Record<string, unknown> | null;
    if (!pub)
      return ctx.error(409, 'The workbook has no published dashboard: publish it first.', {
        code: 'NOT_PUBLISHED',
      });
    const b = ctx.body as UpdatePublishedAiWidgetThreadInput;
    const threads = {
      ...((pub.aiWidgetThreads as Record<string, unknown>) ?? {}),
      [b.widgetId]: { threadId: b.threadId, checksum: b.checksum ?? null },
    };
    w.publishedDashboard = { ...pub, aiWidgetThreads: threads };
    await ctx.json(200, w.publishedDashboard);
  });
}
