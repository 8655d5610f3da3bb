// Asks for a notification filter: the dashboard (a searchable, paged picker of the deployment's
// dashboards, or a typed id/public id), then the recipient (a picker of the tenant's users, or a
// typed user id, e-mail or tenant/externalId). What is typed is refused as spec 4.1 forbids, with a
// message naming the parameters in conflict.
import type { DashboardRef, UserRef } from '../ui/pickerSources';
import type { Choice, PageOfChoices } from '../ui/quickInputTypes';
import {
  buildNotificationFilter,
  parseDashboard,
  parseRecipient,
  type NotificationFilter,
} from '../explorer/notificationFilter';
import type { Prompter } from '../ui/prompter';

export interface FilterSources {
  dashboards: () => Promise<PageOfChoices<DashboardRef>>;
  users: () => Promise<PageOfChoices<UserRef>>;
}

/** A page of choices mapped to the text the filter parses. */
async function asText<T>(
  load: () => Promise<PageOfChoices<T>>,
  text: (v: T) => string,
): Promise<PageOfChoices<string>> {
  const page = await load();
  return {
    choices: page.choices.map((c) => ({ ...c, value: text(c.value) })),
    ...(page.more ? { more: () => asText(page.more!, text) } : {}),
  };
}

export async function askNotificationFilter(
  prompter: Prompter,
  current: NotificationFilter | undefined,
  sources: FilterSources,
): Promise<NotificationFilter> {
  const title = 'Filter Notifications';
  const every = (label: string): Choice<string> => ({ label, id: '', value: '' });
  const step = (n: number) => ({ step: n, totalSteps: 2 });
  const dashboards = await asText(sources.dashboards, (d) => String(d.dashboardId));
  const dashboard = await prompter.pick(
    `${title}: dashboard`,
    [every('$(list-flat) Every dashboard'), ...dashboards.choices],
    {
      placeHolder: 'Search dashboards by name or public id, or type an id',
      step: step(1),
      ...(dashboards.more ? { more: dashboards.more } : {}),
      active: (v) => v === String(current?.dashboardId ?? current?.dashboardPublicId ?? ''),
      typed: {
        hint: 'A dashboard id or public id',
        validate: (v) => {
          const r = parseDashboard(v);
          return r.ok ? undefined : r.message;
        },
        value: (v) => v.trim(),
      },
    },
  );
  const users = await asText(sources.users, (u) => u.email);
  const recipient = await prompter.pick(
    `${title}: recipient`,
    [every('$(list-flat) Every recipient'), ...users.choices],
    {
      placeHolder: 'Search users, or type a user id, an e-mail, or an embed user as tenant/externalId',
      step: step(2),
      ...(users.more ? { more: users.more } : {}),
      active: (v) => v === String(current?.recipientEmail ?? ''),
      typed: {
        hint: 'A user id, an e-mail, or tenant/externalId',
        validate: (v) => {
          const r = parseRecipient(v);
          return r.ok ? undefined : r.message;
        },
        value: (v) => v.trim(),
      },
    },
  );
  const built = buildNotificationFilter({ dashboard, recipient });
  // Both pickers passed, so the combination can only fail on a rule spanning them (none in 4.1 today).
  if (!built.ok) throw new Error(built.message);
  return built.value;
}
