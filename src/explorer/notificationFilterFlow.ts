// Asks for a notification filter: the dashboard, then the recipient. Each box refuses what spec 4.1
// forbids as it is typed, with a message naming the parameters in conflict.
import {
  buildNotificationFilter,
  describeFilter,
  parseDashboard,
  parseRecipient,
  type NotificationFilter,
} from './notificationFilter';
import type { Prompter } from './prompter';

export async function askNotificationFilter(
  prompter: Prompter,
  current: NotificationFilter | undefined,
): Promise<NotificationFilter> {
  const title = 'Filter Notifications';
  const dashboard = await prompter.input({
    title: `${title} (1/2): dashboard`,
    prompt: 'A dashboard id or public id. Leave empty for every dashboard.',
    value: String(current?.dashboardId ?? current?.dashboardPublicId ?? ''),
    placeHolder: 'e.g. 12 or a1b2c3',
    validate: (v) => {
      const r = parseDashboard(v);
      return r.ok ? undefined : r.message;
    },
  });
  const recipient = await prompter.input({
    title: `${title} (2/2): recipient`,
    prompt: 'A user id, an e-mail, or an embed user as tenant/externalId. Leave empty for every recipient.',
    value: current
      ? describeFilter({ ...current, dashboardId: undefined, dashboardPublicId: undefined }).replace(
          /^recipient /,
          '',
        )
      : '',
    placeHolder: 'e.g. 42, ann@example.com or acme/user-7',
    validate: (v) => {
      const r = parseRecipient(v);
      return r.ok ? undefined : r.message;
    },
  });
  const built = buildNotificationFilter({ dashboard, recipient });
  // Both boxes passed, so the combination can only fail on a rule spanning them (none in 4.1 today).
  if (!built.ok) throw new Error(built.message);
  return built.value;
}
