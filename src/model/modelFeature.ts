// The data model in the editor (loaded on first use): mounts, the file system, validate-on-save
// diagnostics, the branch status bar, completions and hover, and the commands.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { registerCommand } from '../commandRunner';
import type { Services } from '../services';
import { BranchFlows, type OpenArgs } from './branchFlows';
import { BranchStatus } from './branchStatus';
import { GitFlows, type GitArgs } from './gitFlows';
import { ModelFileSystem, SERVER_SCHEME } from './modelFs';
import { ModelIntel } from './modelIntel';
import type { Mount } from './mounts';
import { Mounts } from './mounts';
import { pickNotebookBranch, type NotebookBranchArgs } from './notebookBranch';
import { searchModel, type SearchArgs } from './searchFlow';
import { setStagingEnvironment, type StagingArgs } from './stagingFlow';
import { UploadFlow, type UploadArgs } from './uploadFlow';
import { ModelValidation } from './validation';

export interface ModelFeature {
  readonly fs: ModelFileSystem;
  readonly mounts: Mounts;
  readonly validation: ModelValidation;
  readonly status: BranchStatus;
}

export function createModelFeature(services: Services): {
  feature: ModelFeature;
  disposables: vscode.Disposable[];
} {
  const mounts = new Mounts(services);
  const validation = new ModelValidation(services, mounts);
  const intel = new ModelIntel(services, mounts);
  const fs: ModelFileSystem = new ModelFileSystem(
    mounts,
    (mount) => validation.schedule(mount),
    services.log,
  );
  const branches = new BranchFlows(services, mounts, (m) => fs.announce(m));
  mounts.lost = (m) =>
    void branches
      .recoverLost(m)
      .catch((e: unknown) =>
        services.log.warn(`${m.deploymentName} · ${m.branch}: ${e instanceof Error ? e.message : String(e)}`),
      );
  const reload = async (m: Mount) => {
    try {
      await m.load(mounts.build, true);
    } catch (e) {
      services.log.warn(`Reloading ${m.deploymentName} · ${m.branch} failed: ${(e as Error).message}`);
    }
    intel.invalidate(m);
    fs.announce(m);
  };
  const git = new GitFlows(services, mounts, branches, reload);
  const upload = new UploadFlow(services, mounts);
  const status = new BranchStatus(services, mounts);
  const feature: ModelFeature = { fs, mounts, validation, status };
  // The branch in view, when it is one in dev mode, is what the chat and notebooks can target;
  // a branch comes into view in dev mode (a restored folder, an editor of it focused).
  const syncTarget = () => {
    const m = status.current();
    const dev = m && !m.isDefault && !m.missing ? m : undefined;
    services.modelBranch.set(
      dev
        ? { deploymentId: dev.deploymentId, deploymentName: dev.deploymentName, branch: dev.branch }
        : undefined,
    );
    if (dev) {
      void branches
        .ensureDevMode(dev)
        .catch((e: unknown) =>
          services.log.warn(
            `Dev mode on ${dev.deploymentName} · ${dev.branch} failed: ${e instanceof Error ? e.message : String(e)}`,
          ),
        );
    }
  };
  syncTarget();

  const disposables: vscode.Disposable[] = [
    mounts,
    validation,
    intel,
    status,
    fs,
    vscode.workspace.registerTextDocumentContentProvider(SERVER_SCHEME, fs),
    validation.onDidValidate(({ mount }) => {
      intel.invalidate(mount);
      if (mount.isDefault) return;
      // The branch compiled again: its dev-mode meta (cached in the shared client) is stale.
      void services.clients
        .devData(mount.deploymentId, mount.branch)
        .then((c) => c.invalidateMeta())
        .catch(() => undefined)
        .finally(() => services.modelBranch.rebuilt(mount.deploymentId, mount.branch));
    }),
    mounts.onDidChange(syncTarget),
    vscode.window.onDidChangeActiveTextEditor(syncTarget),
    // A different profile has other deployments: its models' meta and clients start over.
    services.profiles.onDidChangeActiveProfile(() => {
      for (const m of mounts.all()) intel.invalidate(m);
    }),
    registerCommand(services, COMMANDS.modelOpen, (args?: OpenArgs) => branches.open(args)),
    registerCommand(services, COMMANDS.modelSwitchBranch, (uri?: vscode.Uri, branch?: string) =>
      branches.switchBranch(uri, branch),
    ),
    registerCommand(services, COMMANDS.modelCreateBranch, (uri?: vscode.Uri, name?: string) =>
      branches.newBranch(uri, name),
    ),
    registerCommand(services, COMMANDS.modelUnlockDefault, (uri?: vscode.Uri, args?: { confirm?: boolean }) =>
      branches.unlock(uri, args),
    ),
    registerCommand(
      services,
      COMMANDS.modelDeleteBranch,
      (uri?: vscode.Uri, args?: { branch?: string; confirm?: boolean }) => branches.deleteBranch(uri, args),
    ),
    registerCommand(services, COMMANDS.modelExitDevMode, (uri?: vscode.Uri) => branches.exitDevMode(uri)),
    registerCommand(services, COMMANDS.modelValidate, async (uri?: vscode.Uri) =>
      validation.run(await branches.target(uri)),
    ),
    registerCommand(services, COMMANDS.modelCommit, (uri?: vscode.Uri, args?: GitArgs) =>
      git.commit(uri, args),
    ),
    registerCommand(services, COMMANDS.modelPull, (uri?: vscode.Uri) => git.pull(uri)),
    registerCommand(services, COMMANDS.modelMergeIntoParent, (uri?: vscode.Uri, args?: GitArgs) =>
      git.mergeIntoParent(uri, args),
    ),
    registerCommand(services, COMMANDS.modelMergeToDefault, (uri?: vscode.Uri, args?: GitArgs) =>
      git.mergeToDefault(uri, args),
    ),
    registerCommand(services, COMMANDS.modelUpload, (args?: UploadArgs) => upload.run(args)),
    registerCommand(services, COMMANDS.modelNotebookBranch, (args?: NotebookBranchArgs) =>
      pickNotebookBranch(services, mounts, branches, args),
    ),
    registerCommand(services, COMMANDS.modelStaging, (uri?: vscode.Uri, args?: StagingArgs) =>
      setStagingEnvironment(services, mounts, branches, uri, args),
    ),
    registerCommand(services, COMMANDS.modelSearch, (uri?: vscode.Uri, args?: SearchArgs) =>
      searchModel(mounts, branches, uri, args),
    ),
  ];
  return { feature, disposables };
}
