// Embedding a published dashboard, loaded on first use of one of its commands (index.ts).
import type * as vscode from 'vscode';
import { registerCommand } from '../../commandRunner';
import { COMMANDS } from '../../commands';
import { explorerContext, type ExplorerHost } from '../../explorer/context';
import { EmbedDashboardCommands } from './embedDashboardCommands';

export function createEmbedDashboardFeature(host: ExplorerHost): {
  feature: EmbedDashboardCommands;
  disposables: vscode.Disposable[];
} {
  const c = new EmbedDashboardCommands(explorerContext(host));
  return {
    feature: c,
    disposables: [
      registerCommand(host.services, COMMANDS.embedDashToggleSignedEmbedding, (a?: unknown) =>
        c.toggleSignedEmbedding(a),
      ),
      registerCommand(host.services, COMMANDS.embedDashComments, (a?: unknown) => c.dashboardComments(a)),
    ],
  };
}
