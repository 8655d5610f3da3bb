// Source-control commands of a mounted branch: commit (message box), pull, merge into the parent,
// merge to the default branch (modal confirmation; on a production profile the deployment's name
// must be typed). Each shows progress and then the server's answer; none is ever retried.
import * as vscode from 'vscode';
import { writeOutcome } from '../api/buildClient';
import type { Services } from '../services';
import type { BranchFlows } from './branchFlows';
import type { Mount, Mounts } from './mounts';

export interface GitArgs {
  message?: string;
  /** Skips the modal confirmation of a merge (tests); never set from the UI. */
  confirm?: boolean;
}

export class GitFlows {
  constructor(
    private readonly services: Services,
    private readonly mounts: Mounts,
    private readonly branches: BranchFlows,
    private readonly reload: (m: Mount) => Promise<void>,
  ) {}

  private async message(title: string, value: string, given?: string): Promise<string> {
    if (given?.trim()) return given.trim();
    const m = await vscode.window.showInputBox({
      title,
      prompt: 'Message',
      value,
      validateInput: (v) => (v.trim() ? undefined : 'Enter a message'),
    });
    if (!m?.trim()) throw new vscode.CancellationError();
    return m.trim();
  }

  private progress<T>(title: string, task: () => Promise<T>): Thenable<T> {
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, task);
  }

  async commit(arg?: unknown, args: GitArgs = {}): Promise<boolean> {
    const mount = await this.branches.target(arg);
    if (mount.readonly) {
      throw new Error(
        `"${mount.branch}" is the read-only default branch: create a branch for your changes, or unlock it first.`,
      );
    }
    const message = await this.message(`Commit to ${mount.branch}`, '', args.message);
    // The server commits its active dev-mode branch: make sure that is this one.
    await this.branches.ensureDevMode(mount);
    const build = await this.mounts.build();
    const r = await this.progress(`Committing to ${mount.branch}…`, () =>
      build.commit(mount.deploymentId, { message }),
    );
    const outcome = writeOutcome(r);
    this.report(
      outcome === 'applied',
      `Committed to ${mount.branch}: "${message}".`,
      outcome === 'refused'
        ? `The server did not commit ${mount.branch}.`
        : `The server answered without saying whether ${mount.branch} was committed. Pull the branch or look at its history to see.`,
    );
    return outcome === 'applied';
  }

  async pull(arg?: unknown): Promise<boolean> {
    const mount = await this.branches.target(arg);
    const build = await this.mounts.build();
    const r = await this.progress(`Pulling ${mount.branch}…`, () =>
      build.pull(mount.deploymentId, { branchName: mount.branch }),
    );
    await this.reload(mount);
    void vscode.window.showInformationMessage(
      r.buildTriggered
        ? `Pulled ${mount.branch}: new changes, a build was started.`
        : `Pulled ${mount.branch}: already up to date.`,
    );
    return r.buildTriggered;
  }

  async mergeIntoParent(arg?: unknown, args: GitArgs = {}): Promise<boolean> {
    const mount = await this.branches.target(arg);
    if (mount.isDefault)
      throw new Error(`"${mount.branch}" is the default branch; it has no parent to merge into.`);
    const parent =
      (await (await this.mounts.build()).allBranches(mount.deploymentId)).find((b) => b.name === mount.branch)
        ?.parentBranch ?? 'its parent';
    if (args.confirm !== true) {
      const ok = await vscode.window.showWarningMessage(
        `Merge ${mount.branch} into ${parent}?`,
        { modal: true, detail: 'Committed changes of the branch go into its parent branch.' },
        'Merge',
      );
      if (ok !== 'Merge') return false;
    }
    const message = args.message ?? `Merge ${mount.branch} into ${parent}`;
    const build = await this.mounts.build();
    const r = await this.progress(`Merging ${mount.branch} into ${parent}…`, () =>
      build.mergeIntoParent(mount.deploymentId, { branchName: mount.branch, message }),
    );
    await this.afterMerge(mount);
    this.report(
      r.merged,
      `Merged ${mount.branch} into ${parent}.`,
      `The server did not merge ${mount.branch} (nothing to merge, or a conflict).`,
    );
    return r.merged;
  }

  async mergeToDefault(arg?: unknown, args: GitArgs = {}): Promise<boolean> {
    const mount = await this.branches.target(arg);
    const target = mount.defaultBranch ?? 'the default branch';
    if (mount.isDefault) throw new Error(`"${mount.branch}" is the default branch already.`);
    const production = this.services.profiles.active()?.profile.production === true;
    if (args.confirm !== true) {
      const ok = await vscode.window.showWarningMessage(
        `Merge ${mount.branch} into ${target} of ${mount.deploymentName}?`,
        {
          modal: true,
          detail: `The default branch is what the deployment serves: its queries see these changes after the build.${production ? ' This is a PRODUCTION profile.' : ''}`,
        },
        'Merge to Default',
      );
      if (ok !== 'Merge to Default') return false;
      if (production) {
        const typed = await vscode.window.showInputBox({
          title: 'Production: confirm by typing the deployment name',
          prompt: `Type "${mount.deploymentName}" to merge into its default branch`,
          validateInput: (v) => (v === mount.deploymentName ? undefined : `Type ${mount.deploymentName}`),
        });
        if (typed !== mount.deploymentName) return false;
      }
    }
    const message = await this.message(
      `Merge ${mount.branch} into ${target}`,
      `Merge ${mount.branch}`,
      args.message,
    );
    const build = await this.mounts.build();
    const r = await this.progress(`Merging ${mount.branch} into ${target}…`, () =>
      build.mergeToDefault(mount.deploymentId, { branchName: mount.branch, message }),
    );
    await this.afterMerge(mount);
    this.report(
      r.merged,
      `Merged ${mount.branch} into ${target}.`,
      `The server did not merge ${mount.branch} into ${target}.`,
    );
    return r.merged;
  }

  /** A merge changes the target branch (and may move dev mode): reload what is open of it. */
  private async afterMerge(mount: Mount): Promise<void> {
    this.branches.forgetDevMode(mount.deploymentId);
    for (const m of this.mounts.all()) if (m.deploymentId === mount.deploymentId) await this.reload(m);
  }

  private report(ok: boolean, yes: string, no: string): void {
    if (ok) void vscode.window.showInformationMessage(yes);
    else void vscode.window.showWarningMessage(no);
  }
}
