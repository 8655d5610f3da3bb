// Report and workbook writes of the sandbox (create, update, delete, refresh, disconnect, upsert by
// slug) and a workbook's embed access, over the shared workspace model.
import type { RequestContext, Router } from '../http';
import { publicView, withDeployment as guard, type PlatformDeps } from './common';
import { publicIdOf, type Row } from './seed';
import { isObj, optInt, optString, Refused, withFolderPath, type WorkspaceModel } from './workspaceModel';

export function registerWorkspaceItemRoutes(router: Router, deps: PlatformDeps, m: WorkspaceModel): void {
  const { d, folders, reports, workbooks, now, embedOf, deleteOne } = m;
  const withDeployment = guard(deps);
  // ---- reports
  const findReport = (ctx: RequestContext, dep: Row) =>
    reports(dep).find((r) => r.id === Number(ctx.params.reportId));
  const reportBodyProblem = (b: Record<string, unknown>, create: boolean) => {
    for (const f of ['name', 'title', 'sqlQuery', 'externalWorkbookId', 'resultLocation', 'description'])
      if (!optString(b[f])) return `${f} must be a string or null.`;
    if (
      b.name !== undefined &&
      b.name !== null &&
      (String(b.name).trim() === '' || String(b.name).length > 255)
    )
      return 'name must be 1 to 255 characters.';
    if (!optInt(b.folderId)) return 'folderId must be an integer or null.';
    if (b.publicId !== undefined && b.publicId !== null && !/^[0-9A-Za-z]{12}$/.test(String(b.publicId)))
      return 'publicId must be 12 letters or digits.';
    if (create && (typeof b.name !== 'string' || b.name.trim() === '')) return 'name is required.';
    return undefined;
  };
  router.add(
    'platform',
    'POST',
    '/v1/deployments/:deploymentId/reports',
    withDeployment(async (ctx, dep) => {
      const b = isObj(ctx.body) ? ctx.body : {};
      const problem = reportBodyProblem(b, true);
      if (problem) return ctx.error(400, problem);
      const folderId = (b.folderId as number | null | undefined) ?? null;
      if (folderId !== null && !folders(dep).some((f) => f.id === folderId))
        return ctx.error(404, `Folder ${folderId} not found.`);
      const id = d.nextId();
      const t = now();
      const owner = { id: 1, email: 'admin@sandbox.example', firstName: 'User1', picture: null };
      const report: Row = {
        id,
        publicId: (b.publicId as string | undefined) ?? publicIdOf('rep', dep.id, id),
        type: 'REPORT',
        name: String(b.name).trim(),
        title: (b.title as string | undefined) ?? null,
        description: null,
        folderId,
        sqlQuery: (b.sqlQuery as string | undefined) ?? null,
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
      d.reports.get(dep.id)!.push(report);
      await ctx.json(200, publicView(report));
    }),
  );
  router.add(
    'platform',
    'PUT',
    '/v1/deployments/:deploymentId/reports/:reportId',
    withDeployment(async (ctx, dep) => {
      const r = findReport(ctx, dep);
      if (!r) return ctx.error(404, `Report ${ctx.params.reportId} not found.`);
      const b = isObj(ctx.body) ? ctx.body : {};
      const problem = reportBodyProblem(b, false);
      if (problem) return ctx.error(400, problem);
      if (typeof b.publicId === 'string' && b.publicId !== r.publicId)
        return ctx.error(400, 'A report’s publicId cannot be changed once set.');
      for (const f of ['name', 'title', 'sqlQuery', 'folderId'])
        if (b[f] !== undefined) r[f] = f === 'name' ? String(b[f]).trim() : b[f];
      r.updatedAt = now();
      await ctx.json(200, withFolderPath(d, dep.id, publicView(r)));
    }),
  );
  router.add(
    'platform',
    'DELETE',
    '/v1/deployments/:deploymentId/reports/:reportId',
    withDeployment(async (ctx, dep) => {
      try {
        deleteOne(dep, 'REPORT', Number(ctx.params.reportId));
      } catch (e) {
        if (e instanceof Refused) return ctx.error(e.status, e.message);
        throw e;
      }
      await ctx.json(200, {});
    }),
  );
  const placementProblem = (b: Record<string, unknown>) => {
    for (const f of [
      'placementId',
      'externalWorkbookId',
      'resultLocation',
      'sheetName',
      'anchorCell',
      'sheetId',
    ])
      if (!optString(b[f])) return `${f} must be a string or null.`;
    return undefined;
  };
  router.add(
    'platform',
    'PUT',
    '/v1/deployments/:deploymentId/reports/:reportId/refresh',
    withDeployment(async (ctx, dep) => {
      const r = findReport(ctx, dep);
      if (!r) return ctx.error(404, `Report ${ctx.params.reportId} not found.`);
      const problem = placementProblem(isObj(ctx.body) ? ctx.body : {});
      if (problem) return ctx.error(400, problem);
      r.updatedAt = now();
      await ctx.json(200, withFolderPath(d, dep.id, publicView(r)));
    }),
  );
  router.add(
    'platform',
    'DELETE',
    '/v1/deployments/:deploymentId/reports/:reportId/connect-workbook',
    withDeployment(async (ctx, dep) => {
      const r = findReport(ctx, dep);
      if (!r) return ctx.error(404, `Report ${ctx.params.reportId} not found.`);
      const b = isObj(ctx.body) ? ctx.body : {};
      const problem = placementProblem(b);
      if (problem) return ctx.error(400, problem);
      // A target that matches nothing succeeds and changes nothing.
      const matches = (p: Record<string, unknown>) =>
        (b.placementId && p.id === b.placementId) ||
        (b.externalWorkbookId === p.workbookId && b.resultLocation && b.resultLocation === p.resultLocation);
      r.externalWorkbookPlacements = (r.externalWorkbookPlacements as Record<string, unknown>[]).filter(
        (p) => !matches(p),
      );
      await ctx.json(200, withFolderPath(d, dep.id, publicView(r)));
    }),
  );

  // ---- workbooks
  const findWorkbook = (ctx: RequestContext, dep: Row) =>
    workbooks(dep).find((w) => w.id === Number(ctx.params.workbookId));
  const workbookBodyProblem = (b: Record<string, unknown>) => {
    for (const f of ['name', 'slug'])
      if (!optString(b[f]) || (typeof b[f] === 'string' && (b[f] as string).trim() === ''))
        return `${f} must be a non-empty string or null.`;
    if (!(b.folderId === undefined || b.folderId === null || typeof b.folderId === 'number'))
      return 'folderId must be a number or null.';
    if (b.meta !== undefined && b.meta !== null && !isObj(b.meta)) return 'meta must be an object or null.';
    return undefined;
  };
  const normSlug = (s: string) => s.trim().toLowerCase();
  const newWorkbook = (dep: Row, b: Record<string, unknown>, slug: string | null): Row => {
    const t = now();
    return {
      id: d.nextId(),
      type: 'WORKBOOK',
      name: typeof b.name === 'string' ? b.name.trim() : 'Untitled workbook',
      slug,
      deploymentId: dep.id,
      folderId: (b.folderId as number | null | undefined) ?? null,
      createdBy: 1,
      userId: 1,
      user: { id: 1, email: 'admin@sandbox.example', firstName: 'User1', picture: null },
      createdAt: t,
      updatedAt: t,
      isFavorite: false,
      meta: isObj(b.meta) ? b.meta : {},
      calculatedFields: {},
      dashboardDraft: null,
      dashboardPublished: null,
      publishedDashboard: null,
    };
  };
  router.add(
    'platform',
    'POST',
    '/v1/deployments/:deploymentId/workbooks',
    withDeployment(async (ctx, dep) => {
      const b = isObj(ctx.body) ? ctx.body : {};
      const problem = workbookBodyProblem(b);
      if (problem) return ctx.error(400, problem);
      const w = newWorkbook(dep, b, null);
      d.workbooks.get(dep.id)!.push(w);
      await ctx.json(200, w);
    }),
  );
  router.add(
    'platform',
    'PUT',
    '/v1/deployments/:deploymentId/workbooks/by-slug/:slug',
    withDeployment(async (ctx, dep) => {
      const slug = normSlug(ctx.params.slug ?? '');
      if (!slug) return ctx.error(400, 'The slug is empty.');
      const b = isObj(ctx.body) ? ctx.body : {};
      const problem = workbookBodyProblem(b);
      if (problem) return ctx.error(400, problem);
      const existing = workbooks(dep).find((w) => typeof w.slug === 'string' && normSlug(w.slug) === slug);
      if (!existing) {
        const w = newWorkbook(dep, b, slug);
        d.workbooks.get(dep.id)!.push(w);
        return ctx.json(200, w);
      }
      if (typeof b.name === 'string') existing.name = b.name.trim();
      if (b.folderId !== undefined) existing.folderId = b.folderId;
      if (isObj(b.meta)) existing.meta = { ...(existing.meta as object), ...b.meta };
      existing.updatedAt = now();
      await ctx.json(200, existing);
    }),
  );
  router.add(
    'platform',
    'PUT',
    '/v1/deployments/:deploymentId/workbooks/:workbookId',
    withDeployment(async (ctx, dep) => {
      const w = findWorkbook(ctx, dep);
      if (!w) return ctx.error(404, `Workbook ${ctx.params.workbookId} not found.`);
      const b = isObj(ctx.body) ? ctx.body : {};
      const problem =
        workbookBodyProblem(b) ??
        (optInt(b.slugTakeover) || typeof b.slugTakeover === 'boolean'
          ? undefined
          : 'slugTakeover must be a boolean.');
      if (problem) return ctx.error(400, problem);
      if (typeof b.slug === 'string') {
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
      if (typeof b.name === 'string') w.name = b.name.trim();
      if (b.folderId !== undefined) w.folderId = b.folderId;
      if (b.meta !== undefined) w.meta = isObj(b.meta) ? b.meta : {};
      w.updatedAt = now();
      await ctx.json(200, w);
    }),
  );
  router.add(
    'platform',
    'DELETE',
    '/v1/deployments/:deploymentId/workbooks/:workbookId',
    withDeployment(async (ctx, dep) => {
      try {
        deleteOne(dep, 'WORKBOOK', Number(ctx.params.workbookId));
      } catch (e) {
        if (e instanceof Refused) return ctx.error(e.status, e.message);
        throw e;
      }
      await ctx.json(200, {});
    }),
  );

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
  router.add(
    'platform',
    'GET',
    '/v1/deployments/:deploymentId/workbooks/:workbookId/embed-access',
    withDeployment(async (ctx, dep) => {
      const w = findWorkbook(ctx, dep);
      if (!w) return ctx.error(404, `Workbook ${ctx.params.workbookId} not found.`);
      await ctx.json(200, embedView(dep, w));
    }),
  );
  router.add(
    'platform',
    'PUT',
    '/v1/deployments/:deploymentId/workbooks/:workbookId/embed-access',
    withDeployment(async (ctx, dep) => {
      const w = findWorkbook(ctx, dep);
      if (!w) return ctx.error(404, `Workbook ${ctx.params.workbookId} not found.`);
      const b = isObj(ctx.body) ? ctx.body : {};
      const tenant = b.embedTenantName ?? null;
      const all = b.allEmbedUsers === true;
      const action = b.action ?? null;
      const allow = b.allowEmbed ?? null;
      if (tenant !== null && typeof tenant !== 'string')
        return ctx.error(400, 'embedTenantName must be a string.');
      if (tenant !== null && all)
        return ctx.error(400, 'Give exactly one target: embedTenantName or allEmbedUsers.');
      if (action !== null && action !== 'read' && action !== 'none')
        return ctx.error(400, 'action must be read or none.');
      if ((tenant !== null || all) !== (action !== null))
        return ctx.error(400, 'A target needs an action, and an action a target.');
      if (allow !== null && typeof allow !== 'boolean')
        return ctx.error(400, 'allowEmbed must be a boolean.');
      if (action === null && allow === null) return ctx.error(400, 'The request specifies no change.');
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
    }),
  );
}
