// dbt sync jobs, deleting embed tenants, app config, and minting Data API tokens (SCIM users and
// the rest of administration: admin/).
import type { Router } from '../http';
import { signJwt } from '../jwt';
import { isAdmin, withDeployment as guard, type PlatformDeps } from './common';

export function registerAccountRoutes(router: Router, deps: PlatformDeps): void {
  const d = deps.data;
  const withDeployment = guard(deps);
  // dbt sync: QUEUED -> RUNNING -> COMPLETED (a branch named "fail" ends FAILED).
  const step = deps.dbtStepMs ?? 500;
  router.add(
    'platform',
    'POST',
    '/v1/deployments/:deploymentId/dbt-sync',
    withDeployment(async (ctx, dep) => {
      const branchName = ((ctx.body ?? {}) as { branchName?: unknown }).branchName;
      if (branchName !== undefined && typeof branchName !== 'string')
        return ctx.error(400, 'branchName must be a string.');
      const syncJobId = String(d.nextId());
      deps.state.dbtJobs[syncJobId] = {
        deploymentId: dep.id,
        branchName: branchName ?? 'main',
        startedAt: Date.now(),
      };
      await ctx.json(200, { syncJobId, workflowId: `wf-${syncJobId}`, branchName: branchName ?? 'main' });
    }),
  );
  router.add(
    'platform',
    'GET',
    '/v1/deployments/:deploymentId/dbt-sync/:syncJobId',
    withDeployment(async (ctx) => {
      const job = deps.state.dbtJobs[ctx.params.syncJobId!];
      if (!job) return ctx.error(404, `dbt sync job ${ctx.params.syncJobId} not found.`);
      const elapsed = Date.now() - job.startedAt;
      const done = job.branchName === 'fail' ? 'FAILED' : 'COMPLETED';
      const status = elapsed < step ? 'QUEUED' : elapsed < 2 * step ? 'RUNNING' : done;
      const stage = { QUEUED: 'queued', RUNNING: 'compiling', COMPLETED: 'done', FAILED: 'failed' }[status];
      const percentComplete = status === 'QUEUED' ? 0 : status === 'RUNNING' ? 50 : 100;
      await ctx.json(200, {
        syncJobId: ctx.params.syncJobId,
        status,
        progress: {
          stage,
          percentComplete,
          message: status === 'RUNNING' ? 'Compiling the dbt project' : null,
        },
        updatedAt: new Date(job.startedAt + Math.min(elapsed, 2 * step)).toISOString(),
        branchName: job.branchName,
        error:
          status === 'FAILED'
            ? 'dbt compile failed: model "orders" references a missing column "amount_usd".'
            : null,
      });
    }),
  );

  router.add('platform', 'DELETE', '/v1/embed-tenants/:embedTenantName', async (ctx) => {
    if (!isAdmin(ctx, deps)) return ctx.error(403, 'Forbidden: deleting embed tenants needs the admin role.');
    const name = ctx.params.embedTenantName!;
    if (!d.embedTenants.delete(name)) return ctx.error(404, `Embed tenant "${name}" not found.`);
    deps.state.deletedEmbedTenants.push(name);
    await ctx.noContent();
  });
  router.add('platform', 'GET', '/v1/app-config', (ctx) => ctx.json(200, d.appConfig));
  router.add(
    'platform',
    'POST',
    '/v1/deployments/:deploymentId/token',
    withDeployment(async (ctx, dep) => {
      const expiresIn = ((ctx.body ?? {}) as { expiresIn?: unknown }).expiresIn ?? 3600;
      if (
        typeof expiresIn !== 'number' ||
        !Number.isInteger(expiresIn) ||
        expiresIn < 60 ||
        expiresIn > 86400
      ) {
        return ctx.error(400, 'expiresIn must be an integer from 60 to 86400.');
      }
      await ctx.json(200, {
        cubeApiToken: signJwt({ deploymentId: dep.id, sub: 'sandbox' }, deps.jwtSecret, expiresIn),
      });
    }),
  );
}
