// Embedding a published dashboard, activation part: the shims of its commands (signed embedding
// on/off, the dashboard's comments as an embed user); the feature loads on first use of one.
import { COMMANDS } from '../../commands';
import type { ExplorerHost } from '../../explorer/context';
import { featureCommandIds, lazyModule, registerLazyFeature, type Registered } from '../../lazy';
import type { EmbedDashboardCommands } from './embedDashboardCommands';
import type * as Feature from './embedDashboardFeature';

export function register(host: ExplorerHost): Registered<EmbedDashboardCommands> {
  return registerLazyFeature(
    featureCommandIds(COMMANDS, 'embedDash'),
    host.services.context.subscriptions,
    () =>
      lazyModule<typeof Feature>(
        'src/dashboards/comments/embedDashboardFeature.ts',
      ).createEmbedDashboardFeature(host),
  );
}
