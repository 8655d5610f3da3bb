// Deployment operations, activation part: the shims of their commands; the feature
// (deploymentsFeature.ts) loads on first use of one.
import type { ExplorerHost } from '../explorer/context';
import { lazyModule, registerRowFeature, type Registered } from '../lazy';
import type { DeployOps } from './deploymentsFeature';
import type * as DeploymentsModule from './deploymentsFeature';

export type { DeployOps } from './deploymentsFeature';

export function register(host: ExplorerHost): Registered<DeployOps> {
  return registerRowFeature(host, 'deployments', () =>
    lazyModule<typeof DeploymentsModule>('src/deployments/deploymentsFeature.ts').createDeploymentsFeature(
      host,
    ),
  );
}
