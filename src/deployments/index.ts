// Deployment operations, activation part: the shims of their commands; the feature
// (deploymentsFeature.ts) loads on first use of one.
import type * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import type { ExplorerHost } from '../explorer/context';
import { featureCommandIds, LazyFeature, lazyModule } from '../lazy';
import type { DeployOps } from './deploymentsFeature';
import type * as DeploymentsModule from './deploymentsFeature';

export type { DeployOps } from './deploymentsFeature';

export function register(host: ExplorerHost): {
  readonly feature: DeployOps;
  disposables: vscode.Disposable[];
} {
  const lazy = new LazyFeature(featureCommandIds(COMMANDS, 'deployments'), () => {
    const mod = lazyModule<typeof DeploymentsModule>('src/deployments/deploymentsFeature.ts');
    const { feature, disposables } = mod.createDeploymentsFeature(host);
    host.services.context.subscriptions.push(...disposables);
    return feature;
  });
  return {
    get feature() {
      return lazy.get();
    },
    disposables: [lazy],
  };
}
