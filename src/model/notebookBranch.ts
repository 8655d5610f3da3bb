// A query notebook can run on a branch in dev mode: the branch is kept in the notebook's metadata
// (`devBranch`, beside its `deploymentId`) and the controller then queries
// `<deploymentUrl>/dev-mode/{branch}/cubejs-api`; the cell status bar names it.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { notebookDevBranch } from '../notebook/devBranch';
import { defaultBranchOf } from './modelPaths';
import type { Mounts } from './mounts';

const NOTEBOOK_TYPE = 'dashboard-platform-notebook';

export async function pickNotebookBranch(
  services: Services,
  mounts: Mounts,
  args: { branch?: string | null; deploymentId?: number; notebook?: vscode.NotebookDocument } = {},
): Promise<string | undefined> {
  const nb = args.notebook ?? vscode.window.activeNotebookEditor?.notebook;
  if (!nb || nb.notebookType !== NOTEBOOK_TYPE) throw new Error('Open a query notebook first.');
  const meta = { ...(nb.metadata ?? {}) } as Record<string, unknown>;
  let deploymentId =
    args.deploymentId ?? (typeof meta.deploymentId === 'number' ? meta.deploymentId : undefined);
  deploymentId ??= services.profiles.active()?.profile.defaultDeploymentId;
  let branch: string | null | undefined = args.branch;
  if (branch === undefined) {
    if (deploymentId === undefined) {
      throw new Error(
        "Pick the notebook's deployment first (Select Notebook Deployment…): a branch belongs to one.",
      );
    }
    const branches = await (await mounts.build()).allBranches(deploymentId);
    const def = defaultBranchOf(branches);
    const current = notebookDevBranch(nb);
    const picked = await vscode.window.showQuickPick(
      [
        { label: '$(discard) The deployment itself (no dev branch)', name: null as string | null },
        ...branches
          .filter((b) => b.name !== def)
          .map((b) => ({
            label: `$(git-branch) ${b.name} (dev mode)`,
            description: b.name === current ? 'current' : '',
            name: b.name as string | null,
          })),
      ],
      { title: 'Run this notebook on' },
    );
    if (!picked) return current;
    branch = picked.name;
  }
  // Cleared with null, not by deleting the key: VS Code merges a metadata edit into the old
  // metadata, so a missing key would keep the old branch.
  meta.devBranch = branch || null;
  if (deploymentId !== undefined && branch) meta.deploymentId = deploymentId;
  const edit = new vscode.WorkspaceEdit();
  edit.set(nb.uri, [vscode.NotebookEdit.updateNotebookMetadata(meta)]);
  await vscode.workspace.applyEdit(edit);
  return branch ?? undefined;
}
