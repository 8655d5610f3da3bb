// SCIM 2.0 (`/api/scim/v2/...`): Users and Groups with 1-based startIndex/count paging, the
// `eq` filters the documents show, group membership through PatchOp, errors in the SCIM shape
// (RFC 7644 3.12: `detail`, `status` as a string). Admin only, like the live service.
import type { RequestContext, Router } from '../../http';
import { issueId } from '../../state';
import { isAdmin, type PlatformDeps } from '../common';
import type { AdminState } from './adminState';

/** A SCIM error body (RFC 7644 section 3.12). */
export function scimError(
  ctx: RequestContext,
  status: number,
  detail: string,
  scimType?: string,
): Promise<void> {
  return ctx.json(status, {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
    status: String(status),
    detail,
    ...(scimType ? { scimType } : {}),
  });
}

function paging(ctx: RequestContext): { startIndex: number; count: number } | string {
  const int = (name: string, min: number) => {
    const v = ctx.query.get(name);
    if (v === null) return undefined;
    const n = Number(v);
    return Number.isInteger(n) && n >= min ? n : NaN;
  };
  const startIndex = int('startIndex', 1) ?? 1;
  const count = int('count', 0) ?? 20;
  if (Number.isNaN(startIndex)) return 'startIndex must be an integer >= 1.';
  if (Number.isNaN(count)) return 'count must be an integer >= 0.';
  return { startIndex, count };
}

/** `<attr> eq "<value>"` (quotes escaped with a backslash), or undefined when the filter is not one. */
export function eqFilter(filter: string, attr: string): string | undefined {
  const m = new RegExp(`^\\s*${attr}\\s+eq\\s+"((?:[^"\\\\]|\\\\.)*)"\\s*$`, 'i').exec(filter);
  return m ? m[1]!.replace(/\\(.)/g, '$1') : undefined;
}

export function registerScimRoutes(router: Router, deps: PlatformDeps, admin: AdminState): void {
  const d = deps.data;
  const guard =
    (fn: (ctx: RequestContext) => Promise<void>) =>
    (ctx: RequestContext): Promise<void> =>
      isAdmin(ctx, deps)
        ? fn(ctx)
        : scimError(ctx, 403, 'SCIM needs the admin role: use a token of an admin user.');

  const userResource = (u: (typeof d.users)[number]) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    id: String(u.id),
    userName: String(u.email),
    name: { givenName: String(u.firstName), familyName: String(u.lastName ?? '') },
    emails: [{ value: String(u.email), primary: true }],
    active: !admin.deactivated.includes(u.id),
    meta: {
      resourceType: 'User',
      created: String(u.createdAt),
      lastModified: String(u.createdAt),
      location: `/api/scim/v2/Users/${u.id}`,
    },
  });
  const groupResource = (g: AdminState['groups'][number]) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
    id: g.id,
    displayName: g.displayName,
    members: g.members.map((value) => {
      const u = d.users.find((x) => String(x.id) === value);
      return { value, display: u ? String(u.email) : value };
    }),
    meta: { resourceType: 'Group', location: `/api/scim/v2/Groups/${g.id}` },
  });
  const list = async <T>(ctx: RequestContext, rows: T[], map: (r: T) => unknown) => {
    const p = paging(ctx);
    if (typeof p === 'string') return scimError(ctx, 400, p, 'invalidValue');
    const slice = rows.slice(p.startIndex - 1, p.startIndex - 1 + p.count);
    await ctx.json(200, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: rows.length,
      startIndex: p.startIndex,
      itemsPerPage: slice.length,
      Resources: slice.map(map),
    });
  };

  router.add(
    'platform',
    'GET',
    '/scim/v2/Users',
    guard(async (ctx) => {
      const filter = ctx.query.get('filter');
      let rows = d.users;
      if (filter) {
        const v = eqFilter(filter, 'userName');
        if (v === undefined)
          return scimError(ctx, 400, 'Unsupported filter: use userName eq "<userName>".', 'invalidFilter');
        rows = rows.filter((u) => String(u.email).toLowerCase() === v.toLowerCase());
      }
      await list(ctx, rows, userResource);
    }),
  );
  router.add(
    'platform',
    'GET',
    '/scim/v2/Groups',
    guard(async (ctx) => {
      const filter = ctx.query.get('filter');
      let rows = admin.groups;
      if (filter) {
        const v = eqFilter(filter, 'displayName');
        if (v === undefined)
          return scimError(ctx, 400, 'Unsupported filter: use displayName eq "<name>".', 'invalidFilter');
        rows = rows.filter((g) => g.displayName.toLowerCase() === v.toLowerCase());
      }
      await list(ctx, rows, groupResource);
    }),
  );
  /** Why `v` cannot name a group (empty, or another group's name), or undefined. */
  const nameProblem = (v: unknown, self?: string) => {
    if (typeof v !== 'string' || !v.trim())
      return { status: 400, detail: 'displayName must be a non-empty string.', scimType: 'invalidValue' };
    const taken = admin.groups.find(
      (g) => g.id !== self && g.displayName.toLowerCase() === v.trim().toLowerCase(),
    );
    return taken
      ? {
          status: 409,
          detail: `A group named "${taken.displayName}" already exists.`,
          scimType: 'uniqueness',
        }
      : undefined;
  };
  router.add(
    'platform',
    'POST',
    '/scim/v2/Groups',
    guard(async (ctx) => {
      const b = (ctx.body ?? {}) as { displayName?: unknown; members?: unknown };
      const problem = nameProblem(b.displayName);
      if (problem) return scimError(ctx, problem.status, problem.detail, problem.scimType);
      const members = Array.isArray(b.members)
        ? (b.members as { value?: unknown }[]).map((m) => String(m?.value ?? ''))
        : [];
      const unknown = members.find((id) => !d.users.some((u) => String(u.id) === id));
      if (unknown !== undefined)
        return scimError(ctx, 400, `No user with id "${unknown}" to add to the group.`, 'invalidValue');
      const g = {
        id: `g-${issueId(deps.state, 'scimGroup', 1_000_001)}`,
        displayName: String(b.displayName).trim(),
        members,
      };
      admin.groups.push(g);
      await ctx.json(201, groupResource(g));
    }),
  );
  router.add(
    'platform',
    'DELETE',
    '/scim/v2/Groups/:id',
    guard(async (ctx) => {
      const i = admin.groups.findIndex((x) => x.id === ctx.params.id);
      if (i < 0) return scimError(ctx, 404, `Group ${ctx.params.id} not found.`);
      admin.groups.splice(i, 1);
      await ctx.noContent();
    }),
  );
  router.add(
    'platform',
    'GET',
    '/scim/v2/Groups/:id',
    guard(async (ctx) => {
      const g = admin.groups.find((x) => x.id === ctx.params.id);
      if (!g) return scimError(ctx, 404, `Group ${ctx.params.id} not found.`);
      await ctx.json(200, groupResource(g));
    }),
  );
  router.add(
    'platform',
    'PATCH',
    '/scim/v2/Groups/:id',
    guard(async (ctx) => {
      const g = admin.groups.find((x) => x.id === ctx.params.id);
      if (!g) return scimError(ctx, 404, `Group ${ctx.params.id} not found.`);
      const body = (ctx.body ?? {}) as { Operations?: unknown };
      if (!Array.isArray(body.Operations) || body.Operations.length === 0)
        return scimError(
          ctx,
          400,
          'Operations must be a non-empty array of PatchOp operations.',
          'invalidSyntax',
        );
      const next = [...g.members];
      let name = g.displayName;
      for (const raw of body.Operations as Record<string, unknown>[]) {
        const op = String(raw.op ?? '').toLowerCase();
        const path = typeof raw.path === 'string' ? raw.path : '';
        if (op === 'add' && path === 'members' && Array.isArray(raw.value)) {
          for (const m of raw.value as { value?: unknown }[]) {
            const id = String(m?.value ?? '');
            if (!d.users.some((u) => String(u.id) === id))
              return scimError(
                ctx,
                400,
                `No user with id "${id}" to add to ${g.displayName}.`,
                'invalidValue',
              );
            if (!next.includes(id)) next.push(id);
          }
        } else if (op === 'remove' && path.startsWith('members')) {
          const v = eqFilter(path.replace(/^members\[(.*)\]$/, '$1'), 'value');
          if (v === undefined)
            return scimError(ctx, 400, 'Remove members with path members[value eq "<id>"].', 'invalidPath');
          const i = next.indexOf(v);
          if (i >= 0) next.splice(i, 1);
        } else if (op === 'replace' && (path === 'displayName' || path === '')) {
          const v = path ? raw.value : (raw.value as { displayName?: unknown } | undefined)?.displayName;
          const problem = nameProblem(v, g.id);
          if (problem) return scimError(ctx, problem.status, problem.detail, problem.scimType);
          name = String(v).trim();
        } else {
          return scimError(ctx, 400, `Unsupported operation ${op} on "${path}".`, 'invalidPath');
        }
      }
      g.members = next;
      g.displayName = name;
      await ctx.json(200, groupResource(g));
    }),
  );
}
