// One notification: GET, PUT (any subset of the schedule, isEnabled, format, filters; lists given
// replace the stored ones) and DELETE (cascading to its recipients). Admin only; 404 when the
// notification is not part of the deployment.
import type { RequestContext, Router } from '../http';
import { isAdmin, publicView, withDeployment as guard, type PlatformDeps } from './common';
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

export function registerNotificationItemRoutes(router: Router, deps: PlatformDeps): void {
  const d = deps.data;
  const withDeployment = guard(deps);
  const path = '/v1/deployments/:deploymentId/notifications/:id';
  const withNotification = (
    verb: string,
    fn: (ctx: RequestContext, n: Row, list: Row[]) => Promise<void>,
  ): ((ctx: RequestContext) => Promise<void>) =>
    withDeployment(async (ctx, dep) => {
      if (!isAdmin(ctx, deps))
        return ctx.error(403, `Forbidden: ${verb} notifications needs the admin role.`);
      const list = d.notifications.get(dep.id) ?? [];
      const n = list.find((x) => x.id === Number(ctx.params.id));
      if (!n) return ctx.error(404, `Notification ${ctx.params.id} is not part of deployment ${dep.id}.`);
      return fn(ctx, n, list);
    });

  router.add(
    'platform',
    'GET',
    path,
    withNotification('reading', async (ctx, n) => ctx.json(200, publicView(n))),
  );

  router.add(
    'platform',
    'PUT',
    path,
    withNotification('changing', async (ctx, n) => {
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
    }),
  );

  router.add(
    'platform',
    'DELETE',
    path,
    withNotification('deleting', async (ctx, n, list) => {
      list.splice(list.indexOf(n), 1);
      d.recipients.delete(n.id);
      await ctx.noContent();
    }),
  );
}
