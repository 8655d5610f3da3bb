// Notifications, activation part: the shims of their commands; the feature
// (notificationsFeature.ts) loads on first use of one.
import { COMMANDS } from '../commands';
import type { ExplorerHost } from '../explorer/context';
import { featureCommandIds, lazyModule, registerLazyFeature, type Registered } from '../lazy';
import type { NotificationActions } from './notificationActions';
import type * as NotificationsModule from './notificationsFeature';

export function register(host: ExplorerHost): Registered<NotificationActions> {
  return registerLazyFeature(
    featureCommandIds(COMMANDS, 'notifications'),
    host.services.context.subscriptions,
    () =>
      lazyModule<typeof NotificationsModule>(
        'src/notifications/notificationsFeature.ts',
      ).createNotificationsFeature(host),
  );
}
