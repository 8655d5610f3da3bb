// One notification: GET, PUT (any subset of the schedule, isEnabled, format, filters; lists given
// replace the stored ones) and DELETE (cascading to its recipients). Admin only; 404 when the
// notification is not part of the deployment.
import type { Method, RequestContext } from '../http';
import { isAdmin, publicView, type DeploymentRoutes, type PlatformDeps } from './common';
import { buildSchedule, fieldsOfCron } from './notificationSchedule';
import type { Row } from './seed';

const SCHEDULE_KEYS = ['scheduleType', 'minute', 'hour', 'dayOfWeek', 'dayOfMonth', 'customCron'] as const;
/** Kept as sent (the row's schema has checked them); lists given replace the stored ones. */
const PLAIN_KEYS = [
  'timezone',
  'notificationFormat',
  'isEnabled',
  'notificationEnabled',
  'notificationAiSummary',
  'filters',
  'timeGrains',
];

export type NotificationHandler = (ctx: RequestContext, n: Row, list: Row[]) => Promise<void>;

/** Adds admin-only routes of the notification the path names (404 when the deployment has none). */
export function notificationRoutes(on: DeploymentRoutes, deps: PlatformDeps) {
  return (method: Method, path: string, what: string, fn: NotificationHandler) =>
    on(method, path, async (ctx, dep) => {
      if (!isAdmin(ctx, deps)) return ctx.error(403, `Forbidden: ${what} needs the admin role.`);
      const list = deps.data.notifications.get(dep.id) ?? [];
      const n = list.find((x) => x.id === Number(ctx.params.id));
      if (!n) return ctx.error(404, `Notification ${ctx.params.id} is not part of deployment ${dep.id}.`);
      return fn(ctx, n, list);
    });
}

export function registerNotificationItemRoutes(
  notificationRoute: ReturnType<typeof notificationRoutes>,
  deps: PlatformDeps,
): void {
  notificationRoute('GET', '/notifications/:id', 'reading notifications', async (ctx, n) =>
    ctx.json(200, publicView(n)),
  );

  notificationRoute('PUT', '/notifications/:id', 'changing notifications', async (ctx, n) => {
    const b = ctx.body as Record<string, unknown>;
    const given = (k: string) => b[k] !== undefined;
    const next: Row = { ...n };
    if (SCHEDULE_KEYS.some(given)) {
      const fields: Record<string, unknown> = { ...fieldsOfCron(String(n.cronExpression ?? '')) };
      // A new type starts from its own defaults rather than the fields of the old one.
      if (given('scheduleType') && b.scheduleType !== fields.scheduleType)
        for (const k of ['dayOfWeek', 'dayOfMonth', 'customCron']) delete fields[k];
      for (const k of SCHEDULE_KEYS) if (given(k)) fields[k] = b[k];
      const schedule = buildSchedule(fields);
      if (typeof schedule === 'string') return ctx.error(400, schedule);
      next.cronExpression = schedule.cron;
      next.humanReadableSchedule = schedule.human;
    }
    for (const k of PLAIN_KEYS) if (given(k)) next[k] = b[k];
    Object.assign(n, next);
    await ctx.json(200, publicView(n));
  });

  notificationRoute('DELETE', '/notifications/:id', 'deleting notifications', async (ctx, n, list) => {
    list.splice(list.indexOf(n), 1);
    deps.data.recipients.delete(n.id);
    await ctx.noContent();
  });
}
