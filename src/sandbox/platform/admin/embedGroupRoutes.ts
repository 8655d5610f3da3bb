// An embed tenant's groups (create, read, describe, delete while empty), their members (list, add
// by external id or embed user id, remove) and provisioning embed users one at a time or in bulk.
// Admin only. The request was checked against its row before a handler runs (operationCheck.ts),
// so handlers hold behaviour only; everything lives in AdminState.embedTenants (saved with the
// sandbox's data). Tenant names are lowercased as published, except where a tenant is created.
import type { EmbedGroupMemberInput, ProvisionEmbedUserInput } from '../../../api/platform/admin/embed';
import { EMBED_TENANT_NAME } from '../../../api/platform/admin/embed';
import type { Method, RequestContext, Router } from '../../http';
import { issueId } from '../../state';
import { adminRoutes, found, sendPage, type PlatformDeps } from '../common';
import type { AdminState, EmbedTenantDetails } from './adminState';

type Group = EmbedTenantDetails['groups'][number];
type User = EmbedTenantDetails['users'][number];

/** The embed-user limit of one tenant (past it provisioning answers 429, as published). */
export const EMBED_USER_LIMIT = 1000;

/** The embed tenant the path names (lowercased, as published), or undefined after answering 404. */
export async function pathTenant(
  ctx: RequestContext,
  deps: PlatformDeps,
  admin: AdminState,
): Promise<EmbedTenantDetails | undefined> {
  const name = ctx.params.embedTenantName!.toLowerCase();
  const t = deps.data.embedTenants.has(name) ? admin.embedTenants[name] : undefined;
  return found(ctx, t, `Embed tenant "${ctx.params.embedTenantName}" not found.`);
}

const TENANT = '/v1/embed-tenants/:embedTenantName';

export function registerEmbedGroupRoutes(router: Router, deps: PlatformDeps, admin: AdminState): void {
  const d = deps.data;
  const on = adminRoutes(router, deps);
  /** Adds a route of the group the path names in its tenant (404 when either is unknown). */
  const group = (
    method: Method,
    path: string,
    what: string,
    fn: (ctx: RequestContext, t: EmbedTenantDetails, g: Group) => Promise<void>,
  ) =>
    on(method, `${TENANT}/groups/:id${path}`, what, async (ctx) => {
      const t = await pathTenant(ctx, deps, admin);
      if (!t) return;
      const g = t.groups.find((x) => x.id === Number(ctx.params.id));
      if (!g) return ctx.error(404, `Embed group ${ctx.params.id} not found in this tenant.`);
      await fn(ctx, t, g);
    });
  const view = (g: Group) => ({
    id: g.id,
    name: g.name,
    description: g.description,
    userCount: g.members.length,
  });
  const userView = (t: EmbedTenantDetails, u: User) => ({
    id: u.id,
    username: u.username,
    email: u.email,
    externalId: u.externalId,
    firstName: u.firstName,
    createdAt: t.createdAt,
    lastLogin: null,
  });
  const norm = (externalId: string) => externalId.trim().toLowerCase();
  const byExternal = (t: EmbedTenantDetails, externalId: string) =>
    t.users.find((u) => u.externalId !== null && norm(u.externalId) === norm(externalId));
  const newUser = (t: EmbedTenantDetails, externalId: string): User => {
    const ext = norm(externalId);
    const u: User = {
      id: issueId(deps.state, 'embedUser', 10_000),
      username: ext,
      email: `${ext}@cubecloud.dev`,
      externalId: ext,
      firstName: null,
    };
    t.users.push(u);
    return u;
  };

  on('GET', `${TENANT}/groups`, 'listing embed groups', async (ctx) => {
    const t = await pathTenant(ctx, deps, admin);
    if (t) await sendPage(ctx, t.groups.map(view), `embed-groups-${t.id}`, { first: 50 });
  });
  on('POST', `${TENANT}/groups`, 'creating embed groups', async (ctx) => {
    const t = await pathTenant(ctx, deps, admin);
    if (!t) return;
    const b = ctx.body as { name: string; description?: string | null };
    if (t.groups.some((g) => g.name.toLowerCase() === b.name.toLowerCase()))
      return ctx.error(400, `An embed group named "${b.name}" already exists in this tenant.`);
    const g: Group = {
      id: issueId(deps.state, 'embedGroup', 1_000),
      name: b.name,
      description: b.description ? b.description : null,
      members: [],
    };
    // Newest first, as the list is published.
    t.groups.unshift(g);
    await ctx.json(200, view(g));
  });
  group('GET', '', 'reading embed groups', (ctx, _t, g) => ctx.json(200, view(g)));
  group('PATCH', '', 'updating embed groups', async (ctx, _t, g) => {
    const b = ctx.body as { description?: string | null };
    // Omitted: unchanged; empty (or null): cleared.
    if (b.description !== undefined) g.description = b.description ? b.description : null;
    await ctx.json(200, view(g));
  });
  group('DELETE', '', 'deleting embed groups', async (ctx, t, g) => {
    const n = g.members.length;
    if (n > 0)
      return ctx.error(
        400,
        `The embed group "${g.name}" still has ${n} member${n === 1 ? '' : 's'}: remove them first.`,
      );
    t.groups.splice(t.groups.indexOf(g), 1);
    await ctx.noContent();
  });

  group('GET', '/users', 'listing embed group members', async (ctx, t, g) => {
    const rows = g.members.flatMap((id) => {
      const u = t.users.find((x) => x.id === id);
      return u ? [userView(t, u)] : [];
    });
    await sendPage(ctx, rows, `embed-members-${t.id}-${g.id}`, { first: 50 });
  });
  group('POST', '/users', 'adding embed group members', async (ctx, t, g) => {
    const wanted = (ctx.body as { members: EmbedGroupMemberInput[] }).members;
    // An unknown embedUserId is a 404 before anything changes; an unknown externalId is provisioned.
    const missing = wanted.find((m) => m.embedUserId != null && !t.users.some((u) => u.id === m.embedUserId));
    if (missing) return ctx.error(404, `No embed user ${missing.embedUserId} in this tenant.`);
    const added: User[] = [];
    const unchanged: User[] = [];
    for (const m of wanted) {
      const u =
        m.embedUserId != null
          ? t.users.find((x) => x.id === m.embedUserId)!
          : (byExternal(t, m.externalId!) ?? newUser(t, m.externalId!));
      if (g.members.includes(u.id)) {
        if (!unchanged.includes(u) && !added.includes(u)) unchanged.push(u);
        continue;
      }
      // Most recently added first, as the member list is published.
      g.members.unshift(u.id);
      added.push(u);
    }
    await ctx.json(200, {
      addedMembers: added.map((u) => userView(t, u)),
      unchangedMembers: unchanged.map((u) => userView(t, u)),
    });
  });
  group('DELETE', '/users', 'removing embed group members', async (ctx, t, g) => {
    for (const m of (ctx.body as { members: EmbedGroupMemberInput[] }).members) {
      // Never provisions: an unknown external id is simply not a member.
      const u =
        m.embedUserId != null ? t.users.find((x) => x.id === m.embedUserId) : byExternal(t, m.externalId!);
      if (u && g.members.includes(u.id)) g.members.splice(g.members.indexOf(u.id), 1);
    }
    await ctx.noContent();
  });

  /** One user provisioned as published; the refusal (status and message) when it cannot be. */
  const provision = (
    name: string,
    input: ProvisionEmbedUserInput,
  ): { user: User; t: EmbedTenantDetails } | { status: number; message: string } => {
    let t = d.embedTenants.has(name) ? admin.embedTenants[name] : undefined;
    const unknownTenant = input.tenantGroups?.filter((n) => !t?.groups.some((g) => g.name === n)) ?? [];
    if (unknownTenant.length > 0)
      return {
        status: 400,
        message: `No group named ${unknownTenant.map((n) => `"${n}"`).join(', ')} in this tenant.`,
      };
    const unknownGlobal = input.groups?.filter((n) => !admin.groups.some((g) => g.displayName === n)) ?? [];
    if (unknownGlobal.length > 0)
      return {
        status: 400,
        message: `No account group named ${unknownGlobal.map((n) => `"${n}"`).join(', ')}.`,
      };
    const existing = t ? byExternal(t, input.externalId) : undefined;
    if (!existing && t && t.users.length >= EMBED_USER_LIMIT)
      return { status: 429, message: `The tenant is at its limit of ${EMBED_USER_LIMIT} embed users.` };
    if (!t) {
      // The tenant is created on demand.
      t = {
        id: issueId(deps.state, 'embedTenant', 100),
        displayName: null,
        createdAt: new Date().toISOString(),
        groups: [],
        users: [],
      };
      admin.embedTenants[name] = t;
      d.embedTenants.add(name);
    }
    const u = existing ?? newUser(t, input.externalId);
    // Supplied: overwritten; omitted: kept.
    if (input.email) u.email = input.email.toLowerCase();
    if (input.userProfile?.displayName != null) u.firstName = input.userProfile.displayName;
    if (input.groups != null) u.groups = [...input.groups];
    if (input.tenantGroups != null) {
      for (const g of t.groups) {
        const member = g.members.includes(u.id);
        const wanted = input.tenantGroups.includes(g.name);
        if (wanted && !member) g.members.unshift(u.id);
        if (!wanted && member) g.members.splice(g.members.indexOf(u.id), 1);
      }
    }
    return { user: u, t };
  };
  /** The path's tenant name, or undefined after answering 400 (a tenant created here must be canonical). */
  const provisionTenant = async (ctx: RequestContext) => {
    const name = ctx.params.embedTenantName!.toLowerCase();
    if (d.embedTenants.has(name) || EMBED_TENANT_NAME.test(name)) return name;
    await ctx.error(
      400,
      `"${ctx.params.embedTenantName}" is not an embed tenant name (lowercase letters, digits, dashes).`,
    );
    return undefined;
  };

  on('POST', `${TENANT}/user`, 'provisioning embed users', async (ctx) => {
    const name = await provisionTenant(ctx);
    if (name === undefined) return;
    const r = provision(name, ctx.body as ProvisionEmbedUserInput);
    if ('status' in r) return ctx.error(r.status, r.message);
    await ctx.json(200, userView(r.t, r.user));
  });
  on('POST', `${TENANT}/users`, 'provisioning embed users', async (ctx) => {
    const name = await provisionTenant(ctx);
    if (name === undefined) return;
    const succeeded: unknown[] = [];
    const failed: unknown[] = [];
    // One at a time in order; earlier ones stay when a later one fails.
    for (const input of (ctx.body as { users: ProvisionEmbedUserInput[] }).users) {
      const r = provision(name, input);
      if ('status' in r)
        failed.push({
          externalId: norm(input.externalId),
          error: { status: r.status, message: r.message },
        });
      else succeeded.push(userView(r.t, r.user));
    }
    await ctx.json(200, { succeeded, failed });
  });
}
