// The data model's branches in the suites: a branch as the extension mounts it, Create Branch run
// as its command, and a measure shipped (commit, merge to the default branch).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';

/** What the model commands answer for a mounted branch. */
export interface MountLike {
  root: vscode.Uri;
  branch: string;
  uri(path: string): vscode.Uri;
}

/** Creates `name` from the branch mounted at `from` (Create Branch): answers the new branch's mount. */
export async function createBranch(from: vscode.Uri, name: string): Promise<MountLike> {
  return (await vscode.commands.executeCommand(
    'dashboardPlatform.model.createBranch',
    from,
    name,
  )) as MountLike;
}

/**
 * Commits the branch mounted at `root` and merges it into the default branch (the modal
 * confirmation skipped explicitly); then the default branch's meta (the deployment's own Data API,
 * read afresh) must list `measure`.
 */
export async function shipMeasure(
  api: ExtensionApi,
  root: vscode.Uri,
  measure: string,
  messages: { commit: string; merge: string },
): Promise<void> {
  assert.equal(
    await vscode.commands.executeCommand('dashboardPlatform.model.commit', root, {
      message: messages.commit,
    }),
    true,
  );
  assert.equal(
    await vscode.commands.executeCommand('dashboardPlatform.model.mergeToDefault', root, {
      message: messages.merge,
      confirm: true,
    }),
    true,
  );
  const meta = await (await api.services.clients.data(1)).meta({ refresh: true });
  const orders = meta.cubes.find((c) => c.name === 'orders');
  assert.ok(
    orders?.measures.some((m) => m.name === measure),
    'the merged measure is in the default branch meta',
  );
}
