// Deployment operations, activation part: the shims of their commands; the feature
// (deploymentsFeature.ts) loads on first use of one.
import type * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import type { ExplorerHost } from '../explorer/context';
import { featureCommandIds, lazyModule, registerLazyFeature } from '../lazy';
import type { DeployOps } from './deploymentsFeature';
import type * as DeploymentsModule from './deploymentsFeature';

export type { DeployOps } from './deploymentsFeature';

export function register(host: ExplorerHost): {
  readonly feature: DeployOps;
  disposables: vscode.Disposable[];
} {
  return registerLazyFeature(
    featureCommandIds(COMMANDS, 'deployments'),
    host.services.context.subscriptions,
    () =>
      lazyModule<typeof DeploymentsModule>('src/deployments/deploymentsFeature.ts').createDeploymentsFeature(
        host,
      ),
  );
}
