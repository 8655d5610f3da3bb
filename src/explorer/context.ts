// What the explorer lends the features that act on its rows (administration, deployment
// operations, the workspace, notifications): the tree, its view and selection, the read-only JSON
// documents, one prompter for every flow (tests script it through the explorer's API), the
// production-profile confirmation, and the way to a deployment's list. The features import the
// explorer; the explorer imports none of them.
import type * as vscode from 'vscode';
import { UserCancelled } from '../log';
import type { Services } from '../services';
import type { Prompter } from '../ui/prompter';
import { vscodePrompter } from '../ui/vscodePrompter';
import type { ExplorerProvider } from './explorerProvider';
import type { JsonDocumentProvider } from './jsonDocumentProvider';
import { plainText } from './labels';
import type { DeploymentListKind } from './nodes/deploymentNode';
import type { ListNode } from './nodes/listNode';
import type { ExplorerNode } from './nodes/types';
import type { TargetContext } from './targets';

/** Made at activation (src/explorer/index.ts) and handed to each feature's register(). */
export interface ExplorerHost {
  readonly services: Services;
  readonly view: vscode.TreeView<ExplorerNode>;
  readonly json: JsonDocumentProvider;
  /** The tree's provider (its code loads on the first call). */
  provider(): ExplorerProvider;
  /** The scripted prompter tests set through the explorer's API, else undefined (quick input). */
  prompterOverride(): Prompter | undefined;
}

/** What a feature's commands use, built from the host when the feature loads. */
export interface ExplorerContext {
  readonly services: Services;
  readonly provider: ExplorerProvider;
  readonly view: vscode.TreeView<ExplorerNode>;
  readonly json: JsonDocumentProvider;
  readonly targets: TargetContext;
  /** Asks before a write when the active profile is marked production; throws UserCancelled if declined. */
  confirmWrite(what: string): Promise<void>;
  /** The list node of a deployment, loading the deployments list first when it is not shown yet. */
  listOf(deploymentId: number, kind: DeploymentListKind): Promise<ListNode>;
}

export function explorerContext(host: ExplorerHost): ExplorerContext {
  const prompter = () => host.prompterOverride() ?? vscodePrompter;
  const targets: TargetContext = {
    client: () => host.services.clients.platform(),
    prompter,
    selection: () => host.view.selection[0],
  };
  return {
    services: host.services,
    get provider() {
      return host.provider();
    },
    view: host.view,
    json: host.json,
    targets,
    async confirmWrite(what) {
      const profile = host.services.profiles.active()?.profile;
      if (!profile?.production) return;
      const ok = await prompter().confirm(
        `${what} on the production profile "${plainText(profile.name)}"?`,
        'This profile is marked as production: the change applies to live data.',
        'Continue',
      );
      if (!ok) throw new UserCancelled();
    },
    async listOf(deploymentId, kind) {
      const p = host.provider();
      let dep = p.loadedDeployments().find((d) => d.deploymentId === deploymentId);
      while (!dep) {
        const list = p.roots.deployments;
        await list.getChildren();
        dep = p.loadedDeployments().find((d) => d.deploymentId === deploymentId);
        const snap = list.paging.snapshot();
        if (dep || !snap.hasMore) break;
        await list.loadMore();
      }
      if (!dep) throw new Error(`Deployment ${deploymentId} is not in this profile's deployments.`);
      return dep.list(kind);
    },
  };
}

/** Re-fetches one list of a deployment if it is shown, leaving every other list alone. */
export function refreshList(ctx: ExplorerContext, deploymentId: number, kind: DeploymentListKind): void {
  const dep = ctx.provider.loadedDeployments().find((d) => d.deploymentId === deploymentId);
  if (dep) ctx.provider.refresh(dep.list(kind));
}
