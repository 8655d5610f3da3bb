// Embedding a published dashboard, activation part: the shims of its commands (signed embedding
// on/off, the dashboard's comments as an embed user); the feature loads on first use of one.
import type * as vscode from 'vscode';
import { COMMANDS } from '../../commands';
import type { ExplorerHost } from '../../explorer/context';
import { featureCommandIds, lazyModule, registerLazyFeature } from '../../lazy';
import type { EmbedDashboardCommands } from './embedDashboardCommands';
import type * as Feature from './embedDashboardFeature';

export function register(host: ExplorerHost): {
  readonly feature: EmbedDashboardCommands;
  disposables: vscode.Disposable[];
} {
  return registerLazyFeature(
    featureCommandIds(COMMANDS, 'embedDash'),
    host.services.context.subscriptions,
    () =>
      lazyModule<typeof Feature>(
        'src/dashboards/comments/embedDashboardFeature.ts',
      ).createEmbedDashboardFeature(host),
  );
}
