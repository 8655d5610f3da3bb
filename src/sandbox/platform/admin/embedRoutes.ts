// Embedding: embed tenants listed (search), their users (their groups: embedGroupRoutes.ts), a
// tenant's workbooks per deployment, and embed sessions (generate for a published dashboard,
// revoke). Admin only. The sessions are kept in SandboxState so the sandbox's embed page
// (embedPage.ts) can honour them.
import { randomBytes } from 'node:crypto';
import type { GenerateSessionInput } from '../../../api/platform/admin/embed';
import type { RequestContext, Router } from '../../http';
import { adminRoutes, publicView, sendPage, withDeployment, type PlatformDeps } from '../common';
import { pathTenant } from './embedGroupRoutes';
import type { Row } from '../seed';
import { createWorkspaceModel, withFolderPath } from '../workspaceModel';
import type { AdminState } from './adminState';

export function registerEmbedRoutes(router: Router, deps: PlatformDeps, admin: AdminState): void {
  const d = deps.data;
  const on = adminRoutes(router, deps);
  const ws = createWorkspaceModel(deps);
  const search = (ctx: RequestContext) => (ctx.query.get('search') ?? '').toLowerCase();

  on('GET', '/v1/embed-tenants', 'listing embed tenants', async (ctx) => {
    const q = search(ctx);
    const rows = [...d.embedTenants]
      .filter((name) => name.includes(q))
      .sort()
      .map((name) => {
        const t = admin.embedTenants[name];
        return {
          id: t?.id ?? 0,
          name,
          displayName: t?.displayName ?? null,
          userCount: t?.users.length ?? 0,
          createdAt: t?.createdAt ?? null,
        };
      });
    await sendPage(ctx, rows, 'embed-tenants', { first: 50 });
  });
  on('GET', '/v1/embed-tenants/:embedTenantName/users', 'listing embed users', async (ctx) => {
    const t = await pathTenant(ctx, deps, admin);
    if (!t) return;
    const q = search(ctx);
    const rows = t.users
      .filter(
        (u) =>
          !q || (u.email ?? '').toLowerCase().includes(q) || (u.externalId ?? '').toLowerCase().includes(q),
      )
      .map((u) => ({ ...u, createdAt: t.createdAt, lastLogin: null }));
    await sendPage(ctx, rows, `embed-users-${t.id}`, { first: 50 });
  });
  on(
    'GET',
    '/v1/deployments/:deploymentId/embed-tenants/:embedTenantName/workbooks',
    'listing embed workbooks',
    withDeployment(deps)(async (ctx, dep) => {
      const t = await pathTenant(ctx, deps, admin);
      if (!t) return;
      const source = ctx.query.get('accessSource');
      // Effective access as published: shared with the tenant, with all embed users, or inherited
      // from a shared folder (or one of its ancestors); a workbook can match several sources.
      const name = ctx.params.embedTenantName!.toLowerCase();
      const sharedFolders = new Set(
        admin.embedFolderShares
          .filter((f) => f.deploymentId === dep.id && (f.embedTenantName ?? name) === name)
          .map((f) => f.folderId),
      );
      const matches = (w: Row) => {
        const e = ws.embedOf(dep, w);
        const by = {
          tenant: e.tenants.has(name),
          allEmbedUsers: e.all,
          folder: ws.path(dep, w.folderId).some((f) => sharedFolders.has(f.id)),
        };
        return source === null ? by.tenant || by.allEmbedUsers || by.folder : by[source as keyof typeof by];
      };
      const rows = ws
        .workbooks(dep)
        .filter(matches)
        .map((w) => withFolderPath(d, dep.id, publicView(w)));
      await sendPage(ctx, rows, `embed-workbooks-${dep.id}-${t.id}-${source ?? ''}`, { first: 50 });
    }),
  );

  on('POST', '/v1/embed/generate-session', 'generating embed sessions', async (ctx) => {
    // The body fits GenerateSession (the row's check): what is left is what it names.
    const b = ctx.body as GenerateSessionInput;
    if (!d.deployments.some((x) => x.id === b.deploymentId))
      return ctx.error(400, 'deploymentId must name a deployment you can read.');
    const groups = b.tenantGroups ?? [];
    const details = b.embedTenantName ? admin.embedTenants[b.embedTenantName] : undefined;
    const unknown = groups.filter((g) => !details?.groups.some((x) => x.name === g));
    if (unknown.length > 0) return ctx.error(400, `No tenant group named ${unknown.join(', ')}.`);
    const publicId = b.publicDashboardId ?? null;
    const dashboard = publicId !== null ? publishedDashboard(deps, b.deploymentId, publicId) : undefined;
    if (publicId !== null && !dashboard)
      return ctx.error(404, `No published dashboard ${publicId} in deployment ${b.deploymentId}.`);
    const sessionId = randomBytes(16).toString('hex');
    admin.embedSessions[sessionId] = {
      deploymentId: b.deploymentId,
      externalId: b.externalId,
      embedTenantName: b.embedTenantName ?? null,
      publicDashboardId: publicId,
      dashboardTitle: dashboard?.title ?? 'Embedded analytics',
      tenantGroups: groups,
      revoked: false,
      at: new Date().toISOString(),
    };
    await ctx.json(200, { sessionId });
  });
  on('POST', '/v1/embed/session/revoke', 'revoking embed sessions', async (ctx) => {
    const s = admin.embedSessions[(ctx.body as { sessionId: string }).sessionId];
    if (s) s.revoked = true;
    await ctx.noContent();
  });
}

/** The published dashboard with this public id in a deployment, if any. */
export function publishedDashboard(
  deps: PlatformDeps,
  deploymentId: number,
  publicId: string,
): { title: string; workbook: string } | undefined {
  for (const wb of deps.data.workbooks.get(deploymentId) ?? []) {
    const pd = wb.publishedDashboard as { publicId?: string; title?: string } | null | undefined;
    if (pd?.publicId === publicId) return { title: String(pd.title ?? wb.name), workbook: String(wb.name) };
  }
  return undefined;
}
