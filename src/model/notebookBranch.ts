// A query notebook can run on a branch in dev mode: the branch is kept in the notebook's metadata
// (`devBranch`, beside its `deploymentId`) and the controller then queries
// `<deploymentUrl>/dev-mode/{branch}/cubejs-api`; the cell status bar names it. "Run Notebook on a
// Dev Branch…" always offers the choice: a notebook with no deployment (and a profile without a
// default one) gets the deployment picked first; the branch picker can create a branch.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { notebookDevBranch } from '../notebook/devBranch';
import type { BranchFlows } from './branchFlows';
import { defaultBranchOf } from './modelPaths';
import type { Mounts } from './mounts';

const NOTEBOOK_TYPE = 'dashboard-platform-notebook';

export interface NotebookBranchArgs {
  /** null: the deployment itself (no dev branch); undefined: ask. */
  branch?: string | null;
  deploymentId?: number;
  notebook?: vscode.NotebookDocument;
  /** What VS Code passes from the notebook toolbar. */
  notebookEditor?: { notebookUri?: vscode.Uri };
}

/** The notebook a command is about: its argument, the toolbar's, else the active one. */
function notebookOf(args: NotebookBranchArgs): vscode.NotebookDocument | undefined {
  if (args.notebook) return args.notebook;
  const uri = args.notebookEditor?.notebookUri?.toString();
  const fromToolbar = uri && vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri);
  return fromToolbar || vscode.window.activeNotebookEditor?.notebook;
}

export async function pickNotebookBranch(
  services: Services,
  mounts: Mounts,
  flows: BranchFlows,
  args: NotebookBranchArgs = {},
): Promise<string | undefined> {
  const nb = notebookOf(args ?? {});
  if (!nb || nb.notebookType !== NOTEBOOK_TYPE) {
    throw new Error('Open a query notebook first (New Query Notebook), then choose the branch it runs on.');
  }
  const meta = { ...(nb.metadata ?? {}) } as Record<string, unknown>;
  const inView = services.modelBranch.current;
  let deploymentId =
    args.deploymentId ??
    (typeof meta.deploymentId === 'number' ? meta.deploymentId : undefined) ??
    services.profiles.active()?.profile.defaultDeploymentId;
  let branch: string | null | undefined = args.branch;
  let chosenDeployment = args.deploymentId !== undefined;
  if (branch === undefined) {
    if (deploymentId === undefined) {
      // The notebook has no deployment yet: a branch belongs to one, so pick it first.
      deploymentId = (await flows.pickDeployment('Run Notebook on a Dev Branch: deployment')).id;
      chosenDeployment = true;
    }
    const build = await mounts.build();
    const branches = await build.allBranches(deploymentId);
    const def = defaultBranchOf(branches);
    const current = notebookDevBranch(nb);
    const name =
      mounts.all().find((m) => m.deploymentId === deploymentId)?.deploymentName ??
      (await (await services.clients.platform()).getDeployment(deploymentId)).name;
    type Item = vscode.QuickPickItem & { name?: string | null };
    const items: Item[] = [
      {
        label: `$(discard) ${name} itself (no dev branch)`,
        description: current ? '' : 'current',
        name: null,
      },
      ...branches
        .filter((b) => b.name !== def)
        .map((b) => ({
          label: `$(git-branch) ${b.name}`,
          description: [
            b.name === current ? 'current' : '',
            inView?.deploymentId === deploymentId && inView?.branch === b.name ? 'open in the editor' : '',
            b.isStagingEnvironmentEnabled ? 'staging environment on' : '',
          ]
            .filter(Boolean)
            .join(' · '),
          name: b.name,
        })),
      { label: '$(add) Create branch…', description: `from ${def ?? 'the default branch'}` },
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title: `Run this notebook on a branch of ${name}`,
      placeHolder: 'Its queries go to the branch in dev mode',
    });
    if (!picked) return current;
    branch = picked.name === undefined ? await flows.askNewBranch(deploymentId, def, branches) : picked.name;
  }
  // Cleared with null, not by deleting the key: VS Code merges a metadata edit into the old
  // metadata, so a missing key would keep the old branch.
  meta.devBranch = branch || null;
  if (deploymentId !== undefined && (branch || chosenDeployment)) meta.deploymentId = deploymentId;
  const edit = new vscode.WorkspaceEdit();
  edit.set(nb.uri, [vscode.NotebookEdit.updateNotebookMetadata(meta)]);
  await vscode.workspace.applyEdit(edit);
  return branch ?? undefined;
}
