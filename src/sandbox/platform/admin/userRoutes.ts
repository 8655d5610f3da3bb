// `/v1/users` (create, update, delete, bulk) and custom roles (`/v1/roles`: list, read, create,
// update, delete, assignment). Admin only.
// Bodies and path ids reach the handlers checked against their rows (operationCheck.ts).
import type { Method, RequestContext, Router } from '../../http';
import type { BulkUserAction, CreateUserInput, UpdateUserInput } from '../../../api/platform/admin/users';
import type { RoleCreateInput, RoleUpdateInput } from '../../../api/platform/admin/roles';
import { issueId } from '../../state';
import { adminRoutes, sendPage, type PlatformDeps } from '../common';
import { setDeactivated, type AdminState } from './adminState';

export function registerUserRoutes(router: Router, deps: PlatformDeps, admin: AdminState): void {
  const d = deps.data;
  const on = adminRoutes(router, deps);
  const userView = (u: (typeof d.users)[number]) => ({
    id: u.id,
    // The platform's User requires an e-mail; one provisioned through SCIM without any has "".
    email: String(u.email ?? ''),
    username: String(u.username ?? u.email ?? u.scimUserName),
    firstName: (u.firstName as string | null) ?? null,
    title: (u.title as string | null) ?? null,
    isAdmin: u.role === 'admin',
    isDeactivated: admin.deactivated.includes(u.id),
    notifications: {},
    createdAt: String(u.createdAt),
  });
  const findUser = (raw: string | undefined) => d.users.find((u) => String(u.id) === raw);

  on('POST', '/v1/users', 'creating users', async (ctx) => {
    const b = ctx.body as CreateUserInput;
    if (d.users.some((u) => String(u.email).toLowerCase() === b.email.toLowerCase()))
      return ctx.error(400, `A user with e-mail ${b.email} already exists.`);
    const row = {
      id: Math.max(0, ...d.users.map((u) => u.id)) + 1,
      email: b.email,
      username: b.username,
      firstName: b.firstName ?? null,
      lastName: '',
      role: b.isAdmin ? 'admin' : 'member',
      createdAt: new Date().toISOString(),
    };
    d.users.push(row);
    await ctx.json(200, userView(row));
  });
  on('PUT', '/v1/users/:id', 'updating users', async (ctx) => {
    const u = findUser(ctx.params.id);
    if (!u) return ctx.error(404, `User ${ctx.params.id} not found.`);
    const b = ctx.body as UpdateUserInput;
    if (b.firstName !== undefined) u.firstName = b.firstName;
    if (b.title !== undefined) u.title = b.title;
    if (b.isAdmin !== undefined) u.role = b.isAdmin ? 'admin' : 'member';
    if (b.isDeactivated !== undefined) setDeactivated(admin, u.id, b.isDeactivated);
    await ctx.json(200, userView(u));
  });
  on('DELETE', '/v1/users/:id', 'deleting users', async (ctx) => {
    const i = d.users.findIndex((u) => String(u.id) === ctx.params.id);
    if (i < 0) return ctx.error(404, `User ${ctx.params.id} not found.`);
    if (d.users[i]!.id === 1) return ctx.error(400, 'You cannot delete yourself.');
    d.users.splice(i, 1);
    await ctx.json(200, {});
  });
  on('POST', '/v1/users/bulk', 'changing users', async (ctx) => {
    const { action, userIds } = ctx.body as { action: BulkUserAction; userIds: number[] };
    const succeeded: number[] = [];
    const failed: { userId: number; error: { status: number; message: string } }[] = [];
    for (const id of [...new Set(userIds)]) {
      const i = d.users.findIndex((u) => u.id === id);
      if (i < 0) failed.push({ userId: id, error: { status: 404, message: `User ${id} not found.` } });
      else if (id === 1 && action !== 'ACTIVATE')
        failed.push({
          userId: id,
          error: { status: action === 'DELETE' ? 400 : 403, message: 'Not on yourself.' },
        });
      else {
        setDeactivated(admin, id, action === 'DEACTIVATE');
        if (action === 'DELETE') d.users.splice(i, 1);
        succeeded.push(id);
      }
    }
    await ctx.json(200, { action, succeeded, failed });
  });

  on('GET', '/v1/roles', 'listing roles', async (ctx) => {
    await sendPage(ctx, admin.roles, 'roles', { first: 50 });
  });
  // Names are unique (compared without case here); a built-in name is refused with 400 by the
  // row's check before a handler runs, as published.
  const nameTaken = async (ctx: RequestContext, name: string, self?: number): Promise<boolean> => {
    const taken = admin.roles.find((r) => r.id !== self && r.name.toLowerCase() === name.toLowerCase());
    // As published, the 409 has no content (the client says what to do without it).
    if (taken) await ctx.bytes(409, Buffer.alloc(0), {});
    return taken !== undefined;
  };
  on('POST', '/v1/roles', 'creating roles', async (ctx) => {
    const b = ctx.body as RoleCreateInput;
    if (await nameTaken(ctx, b.name)) return;
    const role = {
      id: issueId(deps.state, 'adminRole', 504),
      name: b.name,
      description: b.description ?? null,
      policies: b.policies,
    };
    // Newest first, as the list is published.
    admin.roles.unshift(role);
    await ctx.json(200, role);
  });
  /** The routes of the role the path names (404 when there is none). */
  const role = (method: Method, what: string, fn: (ctx: RequestContext, i: number) => Promise<void>) =>
    on(method, '/v1/roles/:roleId', what, (ctx) => {
      const i = admin.roles.findIndex((r) => String(r.id) === ctx.params.roleId);
      return i < 0 ? ctx.error(404, `Role ${ctx.params.roleId} not found.`) : fn(ctx, i);
    });
  role('GET', 'reading roles', (ctx, i) => ctx.json(200, admin.roles[i]));
  role('PUT', 'changing roles', async (ctx, i) => {
    const b = ctx.body as RoleUpdateInput;
    const role = admin.roles[i]!;
    if (b.name !== undefined && (await nameTaken(ctx, b.name, role.id))) return;
    if (b.name !== undefined) role.name = b.name;
    if (b.description !== undefined) role.description = b.description;
    if (b.policies !== undefined) role.policies = b.policies;
    await ctx.json(200, role);
  });
  role('DELETE', 'deleting roles', async (ctx, i) => {
    const [gone] = admin.roles.splice(i, 1);
    // Every assignment of it goes with it.
    for (const [u, held] of Object.entries(admin.roleAssignments))
      admin.roleAssignments[u] = held.filter((r) => r !== gone!.id);
    await ctx.noContent();
  });
  for (const method of ['PUT', 'DELETE'] as const)
    on(
      method,
      '/v1/roles/:roleId/users/:userId',
      method === 'PUT' ? 'assigning roles' : 'removing roles',
      async (ctx) => {
        const u = findUser(ctx.params.userId);
        if (!u) return ctx.error(404, `User ${ctx.params.userId} not found.`);
        const roleId = Number(ctx.params.roleId);
        if (method === 'PUT' && !admin.roles.some((r) => r.id === roleId))
          return ctx.error(404, `Role ${ctx.params.roleId} not found.`);
        const held = (admin.roleAssignments[String(u.id)] ?? []).filter((r) => r !== roleId);
        if (method === 'PUT') held.push(roleId);
        admin.roleAssignments[String(u.id)] = held;
        await ctx.noContent();
      },
    );
}
