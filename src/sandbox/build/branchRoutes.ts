// Branches and dev mode: list, create (optionally entering dev mode), delete, staging environment,
// enter and exit dev mode.
import type {
  CreateBranchInputSchema,
  SetStagingInputSchema,
  StartDevModeInputSchema,
} from '../../api/platform/build/branches';
import type { Router } from '../http';
import { page } from '../platform/common';
import { BASE, bodyOf, withRepo } from './common';
import type { BuildService } from './service';
import { BuildError, type Branch } from './store';

export const branchView = (b: Branch) => ({
  id: b.id,
  name: b.name,
  parentBranch: b.parent,
  lastHash: b.lastHash,
  isStagingEnvironmentEnabled: b.staging,
});

export function registerBranchRoutes(router: Router, svc: BuildService): void {
  router.add(
    'platform',
    'GET',
    `${BASE}/branches`,
    withRepo(svc, async (ctx, repo) => {
      const rows = [...repo.branches.values()].sort((a, b) => a.id - b.id).map(branchView);
      const p = await page(ctx, rows, `branches:${repo.deploymentId}`);
      if (p) await ctx.json(200, { items: p.items, data: p.items, pageInfo: p.pageInfo });
    }),
  );

  router.add(
    'platform',
    'POST',
    `${BASE}/branches`,
    withRepo(svc, async (ctx, repo, who) => {
      const body = bodyOf<typeof CreateBranchInputSchema>(ctx);
      const b = repo.createBranch(who, body.name, body.from ?? undefined, body.activate === true);
      await ctx.json(200, {
        active: repo.devMode.get(who) === b.name,
        branchName: b.name,
        parentBranch: b.parent,
      });
    }),
  );

  router.add(
    'platform',
    'DELETE',
    `${BASE}/branches`,
    withRepo(svc, async (ctx, repo) => {
      repo.removeBranch(ctx.query.get('branchName')!);
      await ctx.json(200, { success: true });
    }),
  );

  router.add(
    'platform',
    'PUT',
    `${BASE}/branches/staging-environment`,
    withRepo(svc, async (ctx, repo) => {
      const body = bodyOf<typeof SetStagingInputSchema>(ctx);
      const b = body.branchName != null ? repo.branch(body.branchName) : repo.branchById(body.branchId!);
      if (b.name === repo.deployBranch)
        throw new BuildError(400, `The deploy branch "${b.name}" is production, not a staging environment.`);
      b.staging = body.enabled;
      await ctx.json(200, { data: branchView(b) });
    }),
  );

  router.add(
    'platform',
    'POST',
    `${BASE}/dev-mode`,
    withRepo(svc, async (ctx, repo, who) => {
      const b = repo.enterDevMode(who, bodyOf<typeof StartDevModeInputSchema>(ctx).branchName);
      await ctx.json(200, { active: true, branchName: b.name, parentBranch: b.parent });
    }),
  );

  router.add(
    'platform',
    'DELETE',
    `${BASE}/dev-mode`,
    withRepo(svc, async (ctx, repo, who) => {
      repo.devMode.delete(who);
      await ctx.json(200, { success: true });
    }),
  );
}
