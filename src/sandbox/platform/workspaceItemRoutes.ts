// Report and workbook writes of the sandbox (create, update, delete, refresh, disconnect, upsert by
// public id and by slug), a workbook's dashboard draft and its embed access, over the shared
// workspace model.
import {
  REPORT_PUBLIC_ID,
  type CreateReportInput,
  type PlacementTarget,
  type UpdateReportInput,
  type UpsertReportInput,
} from '../../api/platform/reports';
import type {
  CreateWorkbookInput,
  SaveDashboardDraftInput,
  UpdateEmbedAccessInput,
  UpdateWorkbookInput,
} from '../../api/platform/workbooks';
import type { Router } from '../http';
import { deploymentRoutes, publicView, type PlatformDeps } from './common';
import { publicIdOf, type Row } from './seed';
import { withFolderPath, type WorkspaceModel } from './workspaceModel';

export function registerWorkspaceItemRoutes(router: Router, deps: PlatformDeps, m: WorkspaceModel): void {
  const { d, folders, workbooks, now, embedOf, itemRoutes, deleteItem } = m;
  const on = deploymentRoutes(router, deps);
  // ---- reports
  const report = itemRoutes(on, 'REPORT');
  /** A new report of the deployment, owned by the sandbox's admin (user 1). */
  const newReport = (
    dep: Row,
    f: {
      name: string;
      publicId?: string;
      title?: string | null;
      folderId?: number | null;
      sqlQuery?: string;
    },
    extra: Record<string, unknown> = {},
  ): Row => {
    const id = d.nextId();
    const t = now();
    const owner = { id: 1, email: 'admin@sandbox.example', firstName: 'User1', picture: null };
    return {
      id,
      publicId: f.publicId ?? publicIdOf('rep', dep.id, id),
      type: 'REPORT',
      name: f.name,
      title: f.title ?? null,
      description: null,
      folderId: f.folderId ?? null,
      sqlQuery: f.sqlQuery ?? null,
      ...extra,
      createdAt: t,
      updatedAt: t,
      _lastViewedAt: t,
      createdBy: 1,
      userId: 1,
      user: owner,
      refreshedByUser: owner,
      canEdit: true,
      canManage: true,
      externalWorkbookPlacements: [],
      deploymentId: dep.id,
    };
  };
  on('POST', '/reports', async (ctx, dep) => {
    const b = ctx.body as CreateReportInput;
    const folderId = b.folderId ?? null;
    if (folderId !== null && !folders(dep).some((f) => f.id === folderId))
      return ctx.error(404, `Folder ${folderId} not found.`);
    const report = newReport(dep, { name: b.name.trim(), title: b.title, folderId, sqlQuery: b.sqlQuery });
    d.reports.get(dep.id)!.push(report);
    await ctx.json(200, publicView(report));
  });
  report('PUT', '/reports/:reportId', async (ctx, dep, r) => {
    const b = ctx.body as UpdateReportInput;
    for (const f of ['name', 'title', 'sqlQuery'] as const)
      if (b[f] !== undefined) r[f] = f === 'name' ? b[f].trim() : b[f];
    r.updatedAt = now();
    await ctx.json(200, withFolderPath(d, dep.id, publicView(r)));
  });
  on('DELETE', '/reports/:reportId', deleteItem('REPORT'));
  // Reports as code. The report fields a CreateReportInput sets (host, sheetId, workbookName and
  // resultChecksum describe a placement, which this sandbox does not keep from here).
  const REPORT_FIELDS = [
    'name',
    'title',
    'sqlQuery',
    'jsonQuery',
    'folderId',
    'meta',
    'pivotItems',
    'workbookId',
    'externalWorkbookId',
    'resultLocation',
    'endResultCell',
  ] as const;
  on('PUT', '/reports/by-public-id/:publicId', async (ctx, dep) => {
    const publicId = ctx.params.publicId ?? '';
    const b = ctx.body as UpsertReportInput;
    if (!REPORT_PUBLIC_ID.test(publicId))
      return ctx.error(400, `"${publicId}" is not a publicId: it must be 12 letters or digits.`);
    if (b.publicId != null && b.publicId !== publicId)
      return ctx.error(400, `The body's publicId "${b.publicId}" differs from the path's "${publicId}".`);
    if (b.folderId != null && !folders(dep).some((f) => f.id === b.folderId))
      return ctx.error(404, `Folder ${b.folderId} not found.`);
    // publicId is unique across the account: one in another deployment is refused, not moved.
    for (const other of d.deployments)
      if (other.id !== dep.id && (d.reports.get(other.id) ?? []).some((r) => r.publicId === publicId))
        return ctx.error(409, `The publicId "${publicId}" belongs to a report in another deployment.`);
    const existing = (d.reports.get(dep.id) ?? []).find((r) => r.publicId === publicId);
    const set = (r: Row) => {
      for (const f of REPORT_FIELDS) if (b[f] !== undefined) r[f] = f === 'name' ? b.name?.trim() : b[f];
    };
    if (existing) {
      // Same semantics as PUT /reports/{id}; `source` is create-only; a re-apply changes nothing.
      const before = JSON.stringify(REPORT_FIELDS.map((f) => existing[f]));
      set(existing);
      if (JSON.stringify(REPORT_FIELDS.map((f) => existing[f])) !== before) existing.updatedAt = now();
      return ctx.json(200, withFolderPath(d, dep.id, publicView(existing)));
    }
    if (!b.name?.trim()) return ctx.error(400, 'A new report needs a name.');
    const created = newReport(dep, { publicId, name: b.name.trim() }, { source: b.source ?? null });
    set(created);
    d.reports.get(dep.id)!.push(created);
    await ctx.json(200, withFolderPath(d, dep.id, publicView(created)));
  });

  report('PUT', '/reports/:reportId/refresh', async (ctx, dep, r) => {
    r.updatedAt = now();
    await ctx.json(200, withFolderPath(d, dep.id, publicView(r)));
  });
  report('DELETE', '/reports/:reportId/connect-workbook', async (ctx, dep, r) => {
    const b = ctx.body as PlacementTarget;
    // A target that matches nothing succeeds and changes nothing.
    const matches = (p: Record<string, unknown>) =>
      (b.placementId && p.id === b.placementId) ||
      (b.externalWorkbookId === p.workbookId && b.resultLocation && b.resultLocation === p.resultLocation);
    r.externalWorkbookPlacements = (r.externalWorkbookPlacements as Record<string, unknown>[]).filter(
      (p) => !matches(p),
    );
    await ctx.json(200, withFolderPath(d, dep.id, publicView(r)));
  });

  // ---- workbooks
  const workbook = itemRoutes(on, 'WORKBOOK');
  const normSlug = (s: string) => s.trim().toLowerCase();
  const newWorkbook = (dep: Row, b: CreateWorkbookInput, slug: string | null): Row => {
    const t = now();
    return {
      id: d.nextId(),
      type: 'WORKBOOK',
      name: b.name.trim(),
      slug,
      deploymentId: dep.id,
      folderId: b.folderId ?? null,
      createdBy: 1,
      userId: 1,
      user: { id: 1, email: 'admin@sandbox.example', firstName: 'User1', picture: null },
      createdAt: t,
      updatedAt: t,
      isFavorite: false,
      meta: {},
      calculatedFields: {},
      dashboardDraft: null,
      dashboardPublished: null,
      publishedDashboard: null,
    };
  };
  on('POST', '/workbooks', async (ctx, dep) => {
    const w = newWorkbook(dep, ctx.body as CreateWorkbookInput, null);
    d.workbooks.get(dep.id)!.push(w);
    await ctx.json(200, w);
  });
  on('PUT', '/workbooks/by-slug/:slug', async (ctx, dep) => {
    const slug = normSlug(ctx.params.slug ?? '');
    if (!slug) return ctx.error(400, 'The slug is empty.');
    const b = ctx.body as CreateWorkbookInput;
    const existing = workbooks(dep).find((w) => typeof w.slug === 'string' && normSlug(w.slug) === slug);
    if (!existing) {
      const w = newWorkbook(dep, b, slug);
      d.workbooks.get(dep.id)!.push(w);
      return ctx.json(200, w);
    }
    existing.name = b.name.trim();
    if (b.folderId !== undefined) existing.folderId = b.folderId;
    existing.updatedAt = now();
    await ctx.json(200, existing);
  });
  workbook('PUT', '/workbooks/:workbookId', async (ctx, dep, w) => {
    const b = ctx.body as UpdateWorkbookInput;
    if (b.slug !== undefined) {
      const slug = normSlug(b.slug);
      const holder = workbooks(dep).find(
        (x) => x !== w && typeof x.slug === 'string' && normSlug(x.slug) === slug,
      );
      if (holder && b.slugTakeover !== true)
        return ctx.error(
          409,
          `The slug "${slug}" belongs to another workbook (send slugTakeover to take it).`,
        );
      if (holder) holder.slug = null;
      w.slug = slug;
    }
    if (b.name !== undefined) w.name = b.name.trim();
    w.updatedAt = now();
    await ctx.json(200, w);
  });
  on('DELETE', '/workbooks/:workbookId', deleteItem('WORKBOOK'));
  workbook('PUT', '/workbooks/:workbookId/dashboard', async (ctx, _dep, w) => {
    const b = ctx.body as SaveDashboardDraftInput;
    if (b.dashboardDraft !== undefined) {
      // Like the service, a widget saved without an id is given one (a DashboardWidget has one).
      const widgets = b.dashboardDraft?.widgets?.map((x) => ({ ...x, id: x.id ?? `widget-${d.nextId()}` }));
      w.dashboardDraft = b.dashboardDraft && { ...b.dashboardDraft, ...(widgets ? { widgets } : {}) };
      w.updatedAt = now();
    }
    await ctx.json(200, {
      dashboardDraft: w.dashboardDraft ?? null,
      dashboardPublished: w.dashboardPublished ?? null,
    });
  });

  const embedView = (dep: Row, w: Row) => {
    const e = embedOf(dep, w);
    const pub = w.publishedDashboard as Record<string, unknown> | null;
    // Group ids are stable per audience: derived from the workbook and the tenant's position.
    return {
      allowEmbed: pub?.allowEmbed === true,
      allEmbedUsers: {
        enabled: e.all,
        action: e.all ? 'read' : 'none',
        groupId: e.all ? 900_000 + w.id : null,
      },
      tenants: [...e.tenants].sort().map((name) => ({
        embedTenantName: name,
        groupId: 800_000 + w.id * 10 + [...d.embedTenants].indexOf(name),
        action: 'read',
      })),
    };
  };
  workbook('GET', '/workbooks/:workbookId/embed-access', async (ctx, dep, w) => {
    await ctx.json(200, embedView(dep, w));
  });
  workbook('PUT', '/workbooks/:workbookId/embed-access', async (ctx, dep, w) => {
    const b = ctx.body as UpdateEmbedAccessInput;
    const tenant = b.embedTenantName ?? null;
    const all = b.allEmbedUsers === true;
    const action = b.action ?? null;
    const allow = b.allowEmbed ?? null;
    const pub = w.publishedDashboard as Record<string, unknown> | null;
    if (allow !== null && !pub)
      return ctx.error(400, 'The workbook has no published dashboard: publish it first.');
    if (tenant !== null && !d.embedTenants.has(tenant))
      return ctx.error(404, `Embed tenant "${tenant}" not found.`);
    const e = embedOf(dep, w);
    if (all) e.all = action === 'read';
    if (tenant !== null) {
      if (action === 'read') e.tenants.add(tenant);
      else e.tenants.delete(tenant);
    }
    if (allow !== null) w.publishedDashboard = { ...pub, allowEmbed: allow };
    await ctx.json(200, embedView(dep, w));
  });
}
