// Notifications, activation part: the shims of their commands; the feature
// (notificationsFeature.ts) loads on first use of one.
import type * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import type { ExplorerHost } from '../explorer/context';
import { featureCommandIds, LazyFeature, lazyModule } from '../lazy';
import type { NotificationActions } from './notificationActions';
import type * as NotificationsModule from './notificationsFeature';

export function register(host: ExplorerHost): {
  readonly feature: NotificationActions;
  disposables: vscode.Disposable[];
} {
  const lazy = new LazyFeature(featureCommandIds(COMMANDS, 'notifications'), () => {
    const mod = lazyModule<typeof NotificationsModule>('src/notifications/notificationsFeature.ts');
    const { feature, disposables } = mod.createNotificationsFeature(host);
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
