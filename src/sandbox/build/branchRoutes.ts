// Branches and dev mode: list, create (optionally entering dev mode), delete, staging environment,
// enter and exit dev mode.
import type {
  CreateBranchInputSchema,
  SetStagingInputSchema,
  StartDevModeInputSchema,
} from '../../api/platform/build/branches';
import type { Router } from '../http';
import { sendPage } from '../platform/common';
import { bodyOf, repoRoutes } from './common';
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
  const on = repoRoutes(router, svc);
  on('GET', '/branches', async (ctx, repo) => {
    const rows = [...repo.branches.values()].sort((a, b) => a.id - b.id).map(branchView);
    await sendPage(ctx, rows, `branches:${repo.deploymentId}`, { data: true });
  });

  on('POST', '/branches', async (ctx, repo, who) => {
    const body = bodyOf<typeof CreateBranchInputSchema>(ctx);
    const b = repo.createBranch(who, body.name, body.from ?? undefined, body.activate === true);
    await ctx.json(200, {
      active: repo.devMode.get(who) === b.name,
      branchName: b.name,
      parentBranch: b.parent,
    });
  });

  on('DELETE', '/branches', async (ctx, repo) => {
    repo.removeBranch(ctx.query.get('branchName')!);
    await ctx.json(200, { success: true });
  });

  on('PUT', '/branches/staging-environment', async (ctx, repo) => {
    const body = bodyOf<typeof SetStagingInputSchema>(ctx);
    const b = body.branchName != null ? repo.branch(body.branchName) : repo.branchById(body.branchId!);
    if (b.name === repo.deployBranch)
      throw new BuildError(400, `The deploy branch "${b.name}" is production, not a staging environment.`);
    b.staging = body.enabled;
    await ctx.json(200, { data: branchView(b) });
  });

  on('POST', '/dev-mode', async (ctx, repo, who) => {
    const b = repo.enterDevMode(who, bodyOf<typeof StartDevModeInputSchema>(ctx).branchName);
    await ctx.json(200, { active: true, branchName: b.name, parentBranch: b.parent });
  });

  on('DELETE', '/dev-mode', async (ctx, repo, who) => {
    repo.devMode.delete(who);
    await ctx.json(200, { success: true });
  });
}
