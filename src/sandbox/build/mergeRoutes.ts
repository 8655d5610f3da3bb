// Source control of the data model: commit the active branch, pull its parent's changes, merge
// into the parent, merge straight to the deploy (default) branch.
import type {
  CommitInputSchema,
  MergeInputSchema,
  MergeToDefaultInputSchema,
  PullInputSchema,
} from '../../api/platform/build/git';
import type { Router } from '../http';
import { bodyOf, branchOf, repoRoutes } from './common';
import type { BuildService } from './service';
import { BuildError } from './store';

export function registerMergeRoutes(router: Router, svc: BuildService): void {
  const on = repoRoutes(router, svc);
  on('POST', '/commit', async (ctx, repo, who) => {
    const body = bodyOf<typeof CommitInputSchema>(ctx);
    const b = repo.activeBranch(who);
    if (!repo.commit(b, body.message.trim()))
      throw new BuildError(400, `Nothing to commit: branch "${b.name}" has no changes.`, 'nothing_to_commit');
    if (body.exitDevMode === true) repo.devMode.delete(who);
    await ctx.json(200, { success: true });
  });

  on('POST', '/pull', async (ctx, repo) => {
    const b = repo.branch(bodyOf<typeof PullInputSchema>(ctx).branchName);
    const changed = repo.pull(b);
    if (changed) await repo.compile(b.files);
    await ctx.json(200, { buildTriggered: changed });
  });

  on('POST', '/merge', async (ctx, repo, who) => {
    const body = bodyOf<typeof MergeInputSchema>(ctx);
    const b = branchOf(repo, who, body);
    if (b.parent === null)
      throw new BuildError(400, `"${b.name}" is the deploy branch: it has no parent to merge into.`);
    const parent = repo.branch(b.parent);
    const message = body.message?.trim() || `Merge branch '${b.name}' into ${parent.name}`;
    const merged = repo.merge(b, parent, message);
    if (merged) await repo.compile(parent.files);
    if (body.switchToParentBranch === true && repo.devMode.get(who) === b.name) {
      if (parent.name === repo.deployBranch) repo.devMode.delete(who);
      else repo.devMode.set(who, parent.name);
    }
    const remove = body.deleteBranch === true;
    if (remove) repo.removeBranch(b.name);
    await ctx.json(200, { merged, branchDeleted: remove });
  });

  on('POST', '/merge-to-default', async (ctx, repo, who) => {
    const body = bodyOf<typeof MergeToDefaultInputSchema>(ctx);
    const b = branchOf(repo, who, body);
    const remove = body.removeBranchAfterMerge === true;
    if (b.name === repo.deployBranch)
      throw new BuildError(400, `"${b.name}" is the deploy branch already; name the branch to merge.`);
    const target = repo.branch(repo.deployBranch);
    const merged = repo.merge(b, target, body.message.trim());
    if (merged) await repo.compile(target.files);
    if (remove) repo.removeBranch(b.name);
    await ctx.json(200, { merged, branchDeleted: remove });
  });
}
