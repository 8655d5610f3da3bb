// Deployment operations, activation part: the shims of their commands; the feature
// (deploymentsFeature.ts) loads on first use of one.
import { COMMANDS } from '../commands';
import type { ExplorerHost } from '../explorer/context';
import { featureCommandIds, lazyModule, registerLazyFeature, type Registered } from '../lazy';
import type { DeployOps } from './deploymentsFeature';
import type * as DeploymentsModule from './deploymentsFeature';

export type { DeployOps } from './deploymentsFeature';

export function register(host: ExplorerHost): Registered<DeployOps> {
  return registerLazyFeature(
    featureCommandIds(COMMANDS, 'deployments'),
    host.services.context.subscriptions,
    () =>
      lazyModule<typeof DeploymentsModule>('src/deployments/deploymentsFeature.ts').createDeploymentsFeature(
        host,
      ),
  );
}
