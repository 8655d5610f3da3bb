// User attributes (`/v1/user-attributes`: list newest first with cursor paging and the deprecated
// `data`/`count` the document still requires, create, update) and values per user
// (`/v1/user-attribute-values`: read, upsert; no `value` clears). Admin only. The document publishes no
// delete for either, so the sandbox serves none. Values are checked against the attribute's type;
// queries, bodies and path ids reach the handlers checked against their rows (operationCheck.ts).
import type { CreateAttributeInput, UpdateAttributeInput } from '../../../api/platform/admin/attributes';
import type { RequestContext, Router } from '../../http';
import { issueId } from '../../state';
import { adminRoutes, found, sendPage, type PlatformDeps } from '../common';
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
  const on = adminRoutes(router, deps);
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

  /** The user, or the attribute, of an id; undefined after answering 404. */
  const userOf = (ctx: RequestContext, id: string | number) =>
    found(
      ctx,
      d.users.find((x) => String(x.id) === String(id)),
      `User ${id} not found.`,
    );
  const attributeOf = (ctx: RequestContext, id: string | number) =>
    found(
      ctx,
      s.definitions.find((x) => String(x.id) === String(id)),
      `User attribute ${id} not found.`,
    );

  on('GET', '/v1/user-attributes', 'listing user attributes', async (ctx) => {
    const name = (ctx.query.get('name') ?? '').toLowerCase();
    const type = ctx.query.get('type');
    const rows = [...s.definitions]
      .reverse()
      .filter((a) => a.name.toLowerCase().includes(name) && (!type || a.type === type));
    const extra = () => ({ count: rows.length });
    await sendPage(ctx, rows, `user-attributes:${name}:${type ?? ''}`, { first: 50, data: true, extra });
  });
  on('POST', '/v1/user-attributes', 'creating user attributes', async (ctx) => {
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
  });
  on('PUT', '/v1/user-attributes/:id', 'updating user attributes', async (ctx) => {
    const a = await attributeOf(ctx, ctx.params.id!);
    if (!a) return;
    const b = ctx.body as UpdateAttributeInput;
    for (const f of ['displayName', 'description', 'defaultValue'] as const)
      if (b[f] !== undefined) a[f] = b[f];
    await ctx.json(200, a);
  });

  on('GET', '/v1/user-attribute-values/:userId', 'reading user attribute values', async (ctx) => {
    const u = await userOf(ctx, ctx.params.userId!);
    if (!u) return;
    const set = s.definitions.filter((a) => s.values[`${u.id}:${a.id}`] !== undefined);
    await ctx.json(
      200,
      set.map((a) => valueView(u.id, a)),
    );
  });
  on('POST', '/v1/user-attribute-values', 'setting user attribute values', async (ctx) => {
    const b = ctx.body as { userId: string; userAttributeId: string; value?: unknown };
    const userId = Number(b.userId);
    if (!(await userOf(ctx, userId))) return;
    const a = await attributeOf(ctx, Number(b.userAttributeId));
    if (!a) return;
    // An upsert without a value clears it (a JSON null cannot satisfy the published oneOf).
    const value = b.value ?? null;
    if (!fits(a.type, value))
      return ctx.error(400, `The value of "${a.name}" must be a ${a.type.replace('_', ' ')} (or null).`);
    const key = `${userId}:${a.id}`;
    if (value === null) delete s.values[key];
    else s.values[key] = value;
    await ctx.json(200, valueView(userId, a));
  });
}
