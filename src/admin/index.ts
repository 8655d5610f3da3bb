// Administration, activation part: the shims of its commands; the feature (adminFeature.ts) loads
// on first use of one.
import type * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import type { ExplorerHost } from '../explorer/context';
import { featureCommandIds, LazyFeature, lazyModule } from '../lazy';
import type { AdminCommands } from './adminFeature';
import type * as AdminModule from './adminFeature';

export type { AdminCommands } from './adminFeature';

export function register(host: ExplorerHost): {
  readonly feature: AdminCommands;
  disposables: vscode.Disposable[];
} {
  const lazy = new LazyFeature(featureCommandIds(COMMANDS, 'admin'), () => {
    const mod = lazyModule<typeof AdminModule>('src/admin/adminFeature.ts');
    const { feature, disposables } = mod.createAdminFeature(host);
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
