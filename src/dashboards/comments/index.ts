// Embedding a published dashboard, activation part: the shims of its commands (signed embedding
// on/off, the dashboard's comments as an embed user); the feature loads on first use of one.
import type { ExplorerHost } from '../../explorer/context';
import { lazyModule, registerRowFeature, type Registered } from '../../lazy';
import type { EmbedDashboardCommands } from './embedDashboardCommands';
import type * as Feature from './embedDashboardFeature';

export function register(host: ExplorerHost): Registered<EmbedDashboardCommands> {
  return registerRowFeature(host, 'embedDash', () =>
    lazyModule<typeof Feature>(
      'src/dashboards/comments/embedDashboardFeature.ts',
    ).createEmbedDashboardFeature(host),
  );
}
