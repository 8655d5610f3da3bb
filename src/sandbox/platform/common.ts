// Shared by the sandbox's platform routes: the deps, opaque cursors and paging, and small request
// helpers.
import type { CubeDef } from '../data/modelTypes';
import type { Handler, Method, RequestContext, Router } from '../http';
import type { SandboxTokens } from '../server';
import type { SandboxState } from '../state';
import type { PlatformData, Row } from './seed';

export interface PlatformDeps {
  data: PlatformData;
  state: SandboxState;
  tokens: SandboxTokens;
  jwtSecret: string;
  /** How long each dbt sync state lasts. */
  dbtStepMs?: number;
  /**
   * A branch's latest build as the build side compiles it (the published BuildStatusResponse),
   * the deploy branch when none is named; undefined for an unknown deployment or branch.
   */
  buildStatus: (deploymentId: number, branchName?: string) => Promise<Record<string, unknown> | undefined>;
  /** The cubes of a deployment's deploy branch as last compiled without errors; undefined otherwise. */
  deployedCubes?: (deploymentId: number) => Promise<readonly CubeDef[] | undefined>;
}

export const encodeCursor = (offset: number, key: string) =>
  Buffer.from(JSON.stringify({ o: offset, k: key })).toString('base64url');
export function decodeCursor(cursor: string, key: string): number | undefined {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown; k?: unknown };
    return typeof v.o === 'number' && v.k === key ? v.o : undefined;
  } catch {
    return undefined;
  }
}

/** Pages `rows` by `first`/`after`; answers 400 naming the rule on bad input. Returns undefined after answering. */
export async function page<T>(ctx: RequestContext, rows: T[], key: string, defaultFirst = 100) {
  const firstText = ctx.query.get('first');
  const first = firstText === null ? defaultFirst : Number(firstText);
  if (!Number.isInteger(first) || first < 1 || first > 200) {
    await ctx.error(400, `first must be a whole number from 1 to 200 (got ${firstText}).`);
    return undefined;
  }
  const after = ctx.query.get('after');
  let offset = 0;
  if (after) {
    const o = decodeCursor(after, key);
    if (o === undefined) {
      await ctx.error(400, 'after is not a cursor of this list (pass the previous pageInfo.endCursor).');
      return undefined;
    }
    offset = o;
  }
  const items = rows.slice(offset, offset + first);
  const end = offset + items.length;
  const hasNextPage = end < rows.length;
  return {
    items,
    pageInfo: {
      hasNextPage,
      hasPreviousPage: offset > 0,
      startCursor: items.length ? encodeCursor(offset, key) : null,
      endCursor: items.length ? encodeCursor(end, key) : null,
    },
    offset,
    first,
    total: rows.length,
  };
}

export type Page<T> = NonNullable<Awaited<ReturnType<typeof page<T>>>>;

/** How `sendPage` answers a page. */
export interface PageAnswer<T> {
  /** The page size when the request names none (100). */
  first?: number;
  /** Each item as sent (as stored when absent). */
  view?: (row: T) => unknown;
  /** Also the deprecated `data` (the same items), where the documents still require it. */
  data?: boolean;
  /** More fields of the answer, from the page (`count`, `pagination`). */
  extra?: (p: Page<T>) => Record<string, unknown>;
}

/** Answers one page of `rows` as `{items, pageInfo}` and what `a` adds (or the 400 of `page`). */
export async function sendPage<T>(ctx: RequestContext, rows: T[], key: string, a: PageAnswer<T> = {}) {
  const p = await page(ctx, rows, key, a.first);
  if (!p) return;
  const items = a.view ? p.items.map(a.view) : p.items;
  await ctx.json(200, { items, pageInfo: p.pageInfo, ...(a.data ? { data: items } : {}), ...a.extra?.(p) });
}

/** `row`, or undefined after answering 404 with `message` (the handler then stops). */
export async function found<T>(ctx: RequestContext, row: T | undefined, message: string) {
  if (row === undefined) await ctx.error(404, message);
  return row;
}

/** A stored row as sent: fields kept for the sandbox's own use (`_name`) are dropped. */
export function publicView<T extends Record<string, unknown>>(row: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([k]) => !k.startsWith('_')));
}

export function deployment(ctx: RequestContext, deps: PlatformDeps): Row | undefined {
  const id = Number(ctx.params.deploymentId);
  return deps.data.deployments.find((d) => d.id === id);
}

export const isAdmin = (ctx: RequestContext, deps: PlatformDeps) => ctx.credential === deps.tokens.admin;

/** Runs a handler for the admin token only; anyone else is told `Forbidden: <what> needs the admin role.` */
export const adminOnly =
  (deps: PlatformDeps) =>
  (what: string, fn: Handler): Handler =>
  (ctx) =>
    isAdmin(ctx, deps) ? fn(ctx) : ctx.error(403, `Forbidden: ${what} needs the admin role.`);

/** Adds admin-only platform routes: `admin('GET', '/v1/roles', 'listing roles', (ctx) => …)`. */
export function adminRoutes(router: Router, deps: PlatformDeps) {
  const guard = adminOnly(deps);
  return (method: Method, pattern: string, what: string, fn: Handler): Router =>
    router.add('platform', method, pattern, guard(what, fn));
}
export type AdminRoutes = ReturnType<typeof adminRoutes>;

/** Wraps a handler so it runs only for an existing deployment (404 otherwise). */
export function withDeployment(deps: PlatformDeps) {
  return (fn: (ctx: RequestContext, dep: Row) => Promise<void>) =>
    async (ctx: RequestContext): Promise<void> => {
      const dep = await found(ctx, deployment(ctx, deps), `Deployment ${ctx.params.deploymentId} not found.`);
      if (dep) await fn(ctx, dep);
    };
}

export type DeploymentHandler = (ctx: RequestContext, dep: Row) => Promise<void>;

/**
 * Adds the platform routes of one deployment's resources, each run only for an existing deployment
 * (404 otherwise): `on('GET', '/reports', (ctx, dep) => …)`.
 */
export function deploymentRoutes(router: Router, deps: PlatformDeps) {
  const guard = withDeployment(deps);
  return (method: Method, path: string, fn: DeploymentHandler): Router =>
    router.add('platform', method, `/v1/deployments/:deploymentId${path}`, guard(fn));
}
export type DeploymentRoutes = ReturnType<typeof deploymentRoutes>;
