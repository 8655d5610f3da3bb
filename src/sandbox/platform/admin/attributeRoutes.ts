// User attributes (`/v1/user-attributes`: list newest first with cursor paging and the deprecated
// `data`/`count` the document still requires, create, update) and values per user
// (`/v1/user-attribute-values`: read, upsert; no `value` clears). Admin only. The document publishes no
// delete for either, so the sandbox serves none. Values are checked against the attribute's type;
// queries, bodies and path ids reach the handlers checked against their rows (operationCheck.ts).
import type { CreateAttributeInput, UpdateAttributeInput } from '../../../api/platform/admin/attributes';
import type { RequestContext, Router } from '../../http';
import { issueId } from '../../state';
import { isAdmin, page, type PlatformDeps } from '../common';
import type { AttributeState, SandboxAttribute } from './attributeState';

/** Whether `v` fits an attribute of `type` (null always fits: it clears the value). */
function fits(type: SandboxAttribute['type'], v: unknown): boolean {
  if (v === null) return true;
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'string_array':
      return Array.isArray(v) && v.every((x) => typeof x === 'string');
    case 'number_array':
      return Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x));
  }
}

export function registerAttributeRoutes(router: Router, deps: PlatformDeps, s: AttributeState): void {
  const d = deps.data;
  const guard =
    (what: string, fn: (ctx: RequestContext) => Promise<void>) =>
    (ctx: RequestContext): Promise<void> =>
      isAdmin(ctx, deps) ? fn(ctx) : ctx.error(403, `Forbidden: ${what} needs the admin role.`);
  const valueView = (userId: number, a: SandboxAttribute) => {
    const value = s.values[`${userId}:${a.id}`] ?? null;
    return {
      userId,
      userAttributeId: a.id,
      name: a.name,
      displayName: a.displayName,
      description: a.description,
      type: a.type,
      // A cleared value is left out: the published `oneOf [{}, null]` refuses a JSON null.
      ...(value === null
        ? {}
        : { value, formattedValue: Array.isArray(value) ? value.join(', ') : String(value) }),
    };
  };

  router.add(
    'platform',
    'GET',
    '/v1/user-attributes',
    guard('listing user attributes', async (ctx) => {
      const name = (ctx.query.get('name') ?? '').toLowerCase();
      const type = ctx.query.get('type');
      const rows = [...s.definitions]
        .reverse()
        .filter((a) => a.name.toLowerCase().includes(name) && (!type || a.type === type));
      const p = await page(ctx, rows, `user-attributes:${name}:${type ?? ''}`, 50);
      if (p) await ctx.json(200, { items: p.items, pageInfo: p.pageInfo, data: p.items, count: rows.length });
    }),
  );
  router.add(
    'platform',
    'POST',
    '/v1/user-attributes',
    guard('creating user attributes', async (ctx) => {
      const b = ctx.body as CreateAttributeInput;
      if (s.definitions.some((a) => a.name === b.name))
        return ctx.error(400, `A user attribute named "${b.name}" already exists.`);
      const a: SandboxAttribute = {
        id: issueId(deps.state, 'userAttribute', 1_000_000),
        name: b.name,
        type: b.type,
        displayName: b.displayName ?? null,
        description: b.description ?? null,
        defaultValue: b.defaultValue ?? null,
      };
      s.definitions.push(a);
      await ctx.json(200, a);
    }),
  );
  router.add(
    'platform',
    'PUT',
    '/v1/user-attributes/:id',
    guard('updating user attributes', async (ctx) => {
      const a = s.definitions.find((x) => String(x.id) === ctx.params.id);
      if (!a) return ctx.error(404, `User attribute ${ctx.params.id} not found.`);
      const b = ctx.body as UpdateAttributeInput;
      for (const f of ['displayName', 'description', 'defaultValue'] as const)
        if (b[f] !== undefined) a[f] = b[f];
      await ctx.json(200, a);
    }),
  );

  router.add(
    'platform',
    'GET',
    '/v1/user-attribute-values/:userId',
    guard('reading user attribute values', async (ctx) => {
      const u = d.users.find((x) => String(x.id) === ctx.params.userId);
      if (!u) return ctx.error(404, `User ${ctx.params.userId} not found.`);
      const set = s.definitions.filter((a) => s.values[`${u.id}:${a.id}`] !== undefined);
      await ctx.json(
        200,
        set.map((a) => valueView(u.id, a)),
      );
    }),
  );
  router.add(
    'platform',
    'POST',
    '/v1/user-attribute-values',
    guard('setting user attribute values', async (ctx) => {
      const b = ctx.body as { userId: string; userAttributeId: string; value?: unknown };
      const userId = Number(b.userId);
      const attributeId = Number(b.userAttributeId);
      if (!d.users.some((u) => u.id === userId)) return ctx.error(404, `User ${userId} not found.`);
      const a = s.definitions.find((x) => x.id === attributeId);
      if (!a) return ctx.error(404, `User attribute ${attributeId} not found.`);
      // An upsert without a value clears it (a JSON null cannot satisfy the published oneOf).
      const value = b.value ?? null;
      if (!fits(a.type, value))
        return ctx.error(400, `The value of "${a.name}" must be a ${a.type.replace('_', ' ')} (or null).`);
      const key = `${userId}:${a.id}`;
      if (value === null) delete s.values[key];
      else s.values[key] = value;
      await ctx.json(200, valueView(userId, a));
    }),
  );
}
