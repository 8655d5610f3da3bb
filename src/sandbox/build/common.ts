// Shared by the build API routes: the deployment's repository and the caller, errors answered in
// the platform API's shape (`{error, requestId}` plus `code` on conflicts), and the rules of a
// file path. Each route's input was checked against its operation row before it runs
// (operationCheck.ts), so a handler reads its body and query as the row declares them.
import type { z } from 'zod';
import type { Handler, Method, RequestContext, Router } from '../http';
import type { BuildService } from './service';
import { BuildError, type DeploymentRepo } from './store';

const BASE = '/build/api/v1/deployments/:deploymentId';

/** Runs a handler with the deployment's repository and the caller (their platform token). */
function withRepo(svc: BuildService, fn: RepoHandler): Handler {
  return async (ctx) => {
    const repo = svc.repo(Number(ctx.params.deploymentId));
    if (!repo) return ctx.error(404, `Deployment ${ctx.params.deploymentId} not found.`);
    try {
      await fn(ctx, repo, ctx.credential ?? '');
    } catch (e) {
      if (!(e instanceof BuildError)) throw e;
      await ctx.error(e.status, e.message, { ...(e.code ? { code: e.code } : {}), ...e.extra });
    }
  };
}

export type RepoHandler = (ctx: RequestContext, repo: DeploymentRepo, who: string) => Promise<void>;

/** Adds build API routes of a deployment's repository: `on('GET', '/branches', (ctx, repo, who) => …)`. */
export function repoRoutes(router: Router, svc: BuildService) {
  return (method: Method, path: string, fn: RepoHandler): Router =>
    router.add('platform', method, `${BASE}${path}`, withRepo(svc, fn));
}

/** The JSON body, as the route's row (schema `S`) accepted it. */
export const bodyOf = <S extends z.ZodType>(ctx: RequestContext): z.input<S> => ctx.body as z.input<S>;

/** A boolean query parameter the row accepted (`true`/`false`); absent → undefined. */
export function queryBool(ctx: RequestContext, key: string): boolean | undefined {
  const v = ctx.query.get(key);
  return v === null ? undefined : v === 'true';
}

/**
 * Project-relative file paths: no leading "/", no "..", no empty segment. The server's rule for
 * where a file may be written (the documents publish a path as any string).
 */
export function checkPath(path: unknown, key = 'path'): string {
  if (
    typeof path !== 'string' ||
    !path ||
    path.length > 500 ||
    path.startsWith('/') ||
    path.includes('\\') ||
    path.split('/').some((s) => s === '' || s === '.' || s === '..')
  )
    throw new BuildError(
      400,
      `${key} "${String(path)}" is not a project-relative file path (like model/cubes/orders.yml).`,
    );
  return path;
}

/** The branch a body names (branchName or branchId), else the caller's current one. */
export function branchOf(
  repo: DeploymentRepo,
  who: string,
  b: { branchName?: string | null; branchId?: number | null },
) {
  return repo.resolve(who, b.branchName, b.branchId);
}
