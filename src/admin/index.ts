// Administration, activation part: the shims of its commands; the feature (adminFeature.ts) loads
// on first use of one.
import type { ExplorerHost } from '../explorer/context';
import { lazyModule, registerRowFeature, type Registered } from '../lazy';
import type { AdminCommands } from './adminFeature';
import type * as AdminModule from './adminFeature';

export type { AdminCommands } from './adminFeature';

export function register(host: ExplorerHost): Registered<AdminCommands> {
  return registerRowFeature(host, 'admin', () =>
    lazyModule<typeof AdminModule>('src/admin/adminFeature.ts').createAdminFeature(host),
  );
}
