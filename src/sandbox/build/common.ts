// Shared by the build API routes: the deployment's repository and the caller, errors answered in
// the platform API's shape (`{error, requestId}` plus `code` on conflicts), and request checks.
import type { Handler, RequestContext } from '../http';
import type { BuildService } from './service';
import { BuildError, type DeploymentRepo } from './store';

export const BASE = '/build/api/v1/deployments/:deploymentId';

/** Runs a handler with the deployment's repository and the caller (their platform token). */
export function withRepo(
  svc: BuildService,
  fn: (ctx: RequestContext, repo: DeploymentRepo, who: string) => Promise<void>,
): Handler {
  return async (ctx) => {
    const id = Number(ctx.params.deploymentId);
    const repo = Number.isInteger(id) ? svc.repo(id) : undefined;
    if (!repo) return ctx.error(404, `Deployment ${ctx.params.deploymentId} not found.`);
    try {
      await fn(ctx, repo, ctx.credential ?? '');
    } catch (e) {
      if (!(e instanceof BuildError)) throw e;
      await ctx.error(e.status, e.message, { ...(e.code ? { code: e.code } : {}), ...e.extra });
    }
  };
}

/** The JSON body as an object (an absent body is empty); a 400 otherwise. */
export function bodyOf(ctx: RequestContext): Record<string, unknown> {
  const b = ctx.body ?? {};
  if (typeof b !== 'object' || Array.isArray(b))
    throw new BuildError(400, 'The request body must be a JSON object.');
  return b as Record<string, unknown>;
}

export function optString(b: Record<string, unknown>, key: string): string | undefined {
  const v = b[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new BuildError(400, `${key} must be a string.`);
  return v;
}

export function optInt(b: Record<string, unknown>, key: string): number | undefined {
  const v = b[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new BuildError(400, `${key} must be an integer.`);
  return v;
}

export function optBool(b: Record<string, unknown>, key: string): boolean | undefined {
  const v = b[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new BuildError(400, `${key} must be true or false.`);
  return v;
}

/** A boolean query parameter (`true`/`false`), absent → undefined. */
export function queryBool(ctx: RequestContext, key: string): boolean | undefined {
  const v = ctx.query.get(key);
  if (v === null || v === '' || v === 'null') return undefined;
  if (v !== 'true' && v !== 'false') throw new BuildError(400, `${key} must be true or false.`);
  return v === 'true';
}

/** Project-relative file paths: no leading "/", no "..", no empty segment. */
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

/** The branch a request body or query names (branchName or branchId), else the caller's current one. */
export function branchOf(repo: DeploymentRepo, who: string, b: Record<string, unknown>) {
  return repo.resolve(who, optString(b, 'branchName'), optInt(b, 'branchId'));
}
