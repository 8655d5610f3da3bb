// The workspace, activation part: the report documents (a report's SQL preview and draft tabs,
// which a restored window reopens at once) and the shims of the workspace's commands; the feature
// (workspaceFeature.ts) loads on first use of either.
import type * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import type { ExplorerHost } from '../explorer/context';
import { featureCommandIds, LazyFeature, lazyModule } from '../lazy';
import { ReportDocuments } from './reportDocuments';
import type * as WorkspaceModule from './workspaceFeature';
import type { WorkspaceFeature } from './workspaceFeature';

export type { WorkspaceFeature } from './workspaceFeature';

export function register(host: ExplorerHost): {
  readonly feature: WorkspaceFeature;
  disposables: vscode.Disposable[];
} {
  const reports = new ReportDocuments();
  const lazy = new LazyFeature(featureCommandIds(COMMANDS, 'workspace'), () => {
    const mod = lazyModule<typeof WorkspaceModule>('src/workspace/workspaceFeature.ts');
    const { feature, disposables } = mod.createWorkspaceFeature(host, reports);
    host.services.context.subscriptions.push(...disposables);
    return feature;
  });
  reports.useSource(async () => lazy.get().items.reportSource());
  return {
    get feature() {
      return lazy.get();
    },
    disposables: [lazy, reports, ...reports.register()],
  };
}
