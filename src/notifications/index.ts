// Notifications, activation part: the shims of their commands; the feature
// (notificationsFeature.ts) loads on first use of one.
import type { ExplorerHost } from '../explorer/context';
import { lazyModule, registerRowFeature, type Registered } from '../lazy';
import type { NotificationActions } from './notificationActions';
import type * as NotificationsModule from './notificationsFeature';

export function register(host: ExplorerHost): Registered<NotificationActions> {
  return registerRowFeature(host, 'notifications', () =>
    lazyModule<typeof NotificationsModule>(
      'src/notifications/notificationsFeature.ts',
    ).createNotificationsFeature(host),
  );
}
