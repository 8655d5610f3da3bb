// SCIM 2.0 (`/api/scim/v2/...`): Users and Groups with 1-based startIndex/count paging, the
// `eq` filters the documents show, group membership through PatchOp, errors in the SCIM shape
// (RFC 7644 3.12: `detail`, `status` as a string). Admin only, like the live service. Requests
// reach these handlers checked against their rows (operationCheck.ts): paging numbers, PatchOp and
// group shapes are refused there, so what is left here is behaviour.
import { createHash } from 'node:crypto';
import type { Handler, Method, RequestContext, Router } from '../../http';
import type { ScimGroupInput, ScimUserInput } from '../../../api/platform/admin/scim';
import { scimErrorBody } from '../../operationCheck';
import { issueId } from '../../state';
import { isAdmin, type PlatformDeps } from '../common';
import { setDeactivated, type AdminState } from './adminState';

/**
 * A user's SCIM id: a UUID, as the SCIM document's example (`2819c223-7f76-453a-919d-413861904646`)
 * and unlike the platform's numeric user ids, so a client that takes one for the other fails here
 * as it would on a live tenant. Derived from the platform id, so it is stable across restarts.
 */
export function scimUserId(userId: number): string {
  const h = createHash('sha256').update(`sandbox-scim-user:${userId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The identity provider's id of a user provisioned through SCIM (`externalId`, set by the
 * provisioning client): the sandbox's even-numbered users came from one, the rest were invited.
 */
export function scimExternalId(userId: number): string | undefined {
  return userId % 2 === 0 ? `00u${String(userId).padStart(6, '0')}okta` : undefined;
}

/** A SCIM error body (RFC 7644 section 3.12). */
export function scimError(
  ctx: RequestContext,
  status: number,
  detail: string,
  scimType?: string,
): Promise<void> {
  return ctx.json(status, scimErrorBody(status, detail, scimType));
}

/** `<attr> eq "<value>"` (quotes escaped with a backslash), or undefined when the filter is not one. */
export function eqFilter(filter: string, attr: string): string | undefined {
  const m = new RegExp(`^\\s*${attr}\\s+eq\\s+"((?:[^"\\\\]|\\\\.)*)"\\s*$`, 'i').exec(filter);
  return m ? m[1]!.replace(/\\(.)/g, '$1') : undefined;
}

export function registerScimRoutes(router: Router, deps: PlatformDeps, admin: AdminState): void {
  const d = deps.data;
  const guard =
    (fn: Handler): Handler =>
    (ctx) =>
      isAdmin(ctx, deps)
        ? fn(ctx)
        : scimError(ctx, 403, 'SCIM needs the admin role: use a token of an admin user.');

  const userOf = (scimId: string) => d.users.find((u) => scimUserId(u.id) === scimId);
  type User = (typeof d.users)[number];
  /** The name SCIM knows a user by: the one it was provisioned with when that was no e-mail. */
  const userNameOf = (u: User) => String(u.scimUserName ?? u.email);
  /** How a user is shown to people: the e-mail, else (provisioned without one) the user name. */
  const shownName = (u: User) => String(u.email ?? u.scimUserName);
  const roleNames = (u: User) => [
    ...(u.role === 'admin' ? ['Admin'] : []),
    ...(admin.roleAssignments[String(u.id)] ?? [])
      .map((id) => admin.roles.find((r) => r.id === id)?.name)
      .filter((n): n is string => n !== undefined),
  ];
  const userResource = (u: User) => {
    // A user provisioned here has the externalId it was given (null: none); a seeded one, its own.
    const externalId =
      u.externalId === null
        ? undefined
        : typeof u.externalId === 'string'
          ? u.externalId
          : scimExternalId(u.id);
    const roles = roleNames(u);
    return {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      id: scimUserId(u.id),
      ...(externalId ? { externalId } : {}),
      // Provisioned through SCIM with a user name other than the e-mail: that name.
      userName: userNameOf(u),
      name: { givenName: String(u.firstName), familyName: String(u.lastName ?? '') },
      // A user provisioned without an e-mail has none (RFC 7643 2.5: an attribute with no value
      // is left out), whatever its user name looks like.
      ...(u.email ? { emails: [{ value: String(u.email), primary: true }] } : {}),
      active: !admin.deactivated.includes(u.id),
      // RFC 7643 4.1.2 `roles`: what the user holds (the built-in Admin role and custom roles).
      ...(roles.length > 0 ? { roles: roles.map((value) => ({ value, display: value })) } : {}),
      meta: {
        resourceType: 'User',
        created: String(u.createdAt),
        lastModified: String(u.createdAt),
        location: `/api/scim/v2/Users/${scimUserId(u.id)}`,
      },
    };
  };
  const groupResource = (g: AdminState['groups'][number]) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
    id: g.id,
    displayName: g.displayName,
    // Stored by platform id; SCIM names members by their SCIM ids.
    members: g.members.map((uid) => {
      const u = d.users.find((x) => String(x.id) === uid);
      return { value: u ? scimUserId(u.id) : uid, display: u ? shownName(u) : uid };
    }),
    meta: { resourceType: 'Group', location: `/api/scim/v2/Groups/${g.id}` },
  });
  /** Adds an admin-only SCIM route (`path` below /scim/v2). */
  const on = (method: Method, path: string, fn: Handler) =>
    router.add('platform', method, `/scim/v2${path}`, guard(fn));
  /** Adds routes of the `name` the path names below `path` (404 when there is none). */
  const resource =
    <T>(path: string, name: string, find: (id: string) => T | undefined) =>
    (method: Method, fn: (ctx: RequestContext, r: T) => Promise<void>) =>
      on(method, `${path}/:id`, (ctx) => {
        const r = find(ctx.params.id ?? '');
        return r ? fn(ctx, r) : scimError(ctx, 404, `${name} ${ctx.params.id} not found.`);
      });
  /**
   * Adds a list route: `<attr> eq "<value>"` (without case), the one filter the documents show,
   * narrows the rows; then one page of them by 1-based startIndex and count.
   */
  const listRoute = <T>(
    path: string,
    [attr, example]: [string, string],
    rows: () => T[],
    key: (r: T) => string,
    map: (r: T) => unknown,
  ) =>
    on('GET', path, async (ctx) => {
      const filter = ctx.query.get('filter');
      const v = filter ? eqFilter(filter, attr) : undefined;
      if (filter && v === undefined)
        return scimError(ctx, 400, `Unsupported filter: use ${attr} eq "<${example}>".`, 'invalidFilter');
      const all = v === undefined ? rows() : rows().filter((r) => key(r).toLowerCase() === v.toLowerCase());
      const startIndex = Number(ctx.query.get('startIndex') ?? 1);
      const slice = all.slice(startIndex - 1, startIndex - 1 + Number(ctx.query.get('count') ?? 20));
      await ctx.json(200, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
        totalResults: all.length,
        startIndex,
        itemsPerPage: slice.length,
        Resources: slice.map(map),
      });
    });
  listRoute('/Users', ['userName', 'userName'], () => d.users, userNameOf, userResource);
  const user = resource('/Users', 'User', userOf);
  user('GET', (ctx, u) => ctx.json(200, userResource(u)));
  /** Answers 409 when another user has the user name or e-mail (compared without case). */
  const userTaken = async (ctx: RequestContext, b: ScimUserInput, self?: number) => {
    const names = [b.userName, ...(b.emails ?? []).map((e) => e.value)].map((n) => n.toLowerCase());
    const taken = d.users.find(
      (u) =>
        u.id !== self &&
        [userNameOf(u), u.email].some((n) => typeof n === 'string' && names.includes(n.toLowerCase())),
    );
    if (taken) await scimError(ctx, 409, `A user named "${shownName(taken)}" already exists.`, 'uniqueness');
    return taken !== undefined;
  };
  /**
   * The platform fields a SCIM representation sets (a replace clears what it leaves out). The SCIM
   * document makes `emails` optional and a userName only "typically" an e-mail: a user sent
   * without e-mails has none, and its userName stays a name.
   */
  const fromScim = (b: ScimUserInput) => {
    const email = (b.emails?.find((e) => e.primary) ?? b.emails?.[0])?.value ?? null;
    return {
      email,
      scimUserName: b.userName === email ? undefined : b.userName,
      firstName: b.name?.givenName ?? '',
      lastName: b.name?.familyName ?? '',
      externalId: b.externalId ?? null,
    };
  };
  on('POST', '/Users', async (ctx) => {
    const b = ctx.body as ScimUserInput;
    if (await userTaken(ctx, b)) return;
    const row = {
      id: Math.max(0, ...d.users.map((u) => u.id)) + 1,
      ...fromScim(b),
      role: 'member',
      createdAt: new Date().toISOString(),
    };
    d.users.push(row);
    if (b.active === false) admin.deactivated.push(row.id);
    await ctx.json(201, userResource(row));
  });
  user('PUT', async (ctx, u) => {
    const b = ctx.body as ScimUserInput;
    if (b.active === false && u.id === 1) return scimError(ctx, 400, 'You cannot deactivate yourself.');
    if (await userTaken(ctx, b, u.id)) return;
    Object.assign(u, fromScim(b));
    if (b.active !== undefined) setDeactivated(admin, u.id, !b.active);
    await ctx.json(200, userResource(u));
  });
  user('PATCH', async (ctx, u) => {
    const ops = (ctx.body as { Operations: { value: boolean }[] }).Operations;
    const active = ops[ops.length - 1]!.value;
    if (active === false && u.id === 1) return scimError(ctx, 400, 'You cannot deactivate yourself.');
    setDeactivated(admin, u.id, !active);
    await ctx.json(200, userResource(u));
  });
  user('DELETE', async (ctx, u) => {
    if (u.id === 1) return scimError(ctx, 400, 'You cannot delete yourself.');
    d.users.splice(d.users.indexOf(u), 1);
    for (const g of admin.groups) g.members = g.members.filter((m) => m !== String(u.id));
    await ctx.noContent();
  });
  listRoute(
    '/Groups',
    ['displayName', 'name'],
    () => admin.groups,
    (g) => g.displayName,
    groupResource,
  );
  /** Answers 409 when another group has the name `v`; true when it did. */
  const nameTaken = async (ctx: RequestContext, v: string, self?: string) => {
    const taken = admin.groups.find((g) => g.id !== self && g.displayName.toLowerCase() === v.toLowerCase());
    if (taken)
      await scimError(ctx, 409, `A group named "${taken.displayName}" already exists.`, 'uniqueness');
    return taken !== undefined;
  };
  /**
   * The platform ids of the members a group body names, or undefined after answering 400 when one
   * is no user; or after the 409 of a name another group has.
   */
  const groupInput = async (ctx: RequestContext, b: ScimGroupInput, self?: string) => {
    if (await nameTaken(ctx, b.displayName.trim(), self)) return undefined;
    const given = (b.members ?? []).map((m) => m.value);
    const unknown = given.find((id) => !userOf(id));
    if (unknown === undefined) return given.map((id) => String(userOf(id)!.id));
    await scimError(ctx, 400, `No user with id "${unknown}" to add to the group.`, 'invalidValue');
    return undefined;
  };
  on('POST', '/Groups', async (ctx) => {
    const b = ctx.body as ScimGroupInput;
    const members = await groupInput(ctx, b);
    if (!members) return;
    const g = {
      id: `g-${issueId(deps.state, 'scimGroup', 1_000_001)}`,
      displayName: b.displayName.trim(),
      members,
    };
    admin.groups.push(g);
    await ctx.json(201, groupResource(g));
  });
  const group = resource('/Groups', 'Group', (id) => admin.groups.find((x) => x.id === id));
  group('DELETE', async (ctx, g) => {
    admin.groups.splice(admin.groups.indexOf(g), 1);
    await ctx.noContent();
  });
  group('GET', (ctx, g) => ctx.json(200, groupResource(g)));
  group('PUT', async (ctx, g) => {
    const b = ctx.body as ScimGroupInput;
    const members = await groupInput(ctx, b, g.id);
    if (!members) return;
    // The whole membership is replaced: members left out are removed.
    g.displayName = b.displayName.trim();
    g.members = [...new Set(members)];
    await ctx.json(200, groupResource(g));
  });
  group('PATCH', async (ctx, g) => {
    const ops = (ctx.body as { Operations: { op: string; path: string; value?: unknown }[] }).Operations;
    const next = [...g.members];
    let name = g.displayName;
    for (const { op, path, value } of ops) {
      if (op === 'add') {
        for (const { value: id } of value as { value: string }[]) {
          const u = userOf(id);
          if (!u)
            return scimError(ctx, 400, `No user with id "${id}" to add to ${g.displayName}.`, 'invalidValue');
          if (!next.includes(String(u.id))) next.push(String(u.id));
        }
      } else if (op === 'remove') {
        const v = eqFilter(path.replace(/^members\[(.*)\]$/, '$1'), 'value');
        const i = next.indexOf(String(userOf(v ?? '')?.id ?? ''));
        if (i >= 0) next.splice(i, 1);
      } else {
        name = (value as string).trim();
        if (await nameTaken(ctx, name, g.id)) return;
      }
    }
    g.members = next;
    g.displayName = name;
    await ctx.json(200, groupResource(g));
  });
}
