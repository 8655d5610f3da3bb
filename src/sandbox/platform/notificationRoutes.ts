// Scheduled notifications: admin only, newest first, the rules of spec 4.1 enforced, create with
// exactly one dashboard identifier, and the /recipients sub-resource.
import type { RequestContext, Router } from '../http';
import { intParam, isAdmin, page, withDeployment as guard, type PlatformDeps } from './common';
import type { Recipient, Row } from './seed';

export function registerNotificationRoutes(router: Router, deps: PlatformDeps): void {
  const d = deps.data;
  const withDeployment = guard(deps);
  // Notifications: admin only, newest first, spec 4.1 rules.
  router.add(
    'platform',
    'GET',
    '/v1/deployments/:deploymentId/notifications',
    withDeployment(async (ctx, dep) => {
      if (!isAdmin(ctx, deps))
        return ctx.error(403, 'Forbidden: listing notifications needs the admin role.');
      const q = ctx.query;
      const dashboardId = intParam(ctx, 'dashboardId');
      const userId = intParam(ctx, 'recipientUserId');
      if (dashboardId === 'bad') return ctx.error(400, 'dashboardId must be an integer >= 1.');
      if (userId === 'bad') return ctx.error(400, 'recipientUserId must be an integer >= 1.');
      const publicId = q.get('dashboardPublicId');
      if (dashboardId !== undefined && publicId)
        return ctx.error(400, 'Use either dashboardId or dashboardPublicId, not both.');
      const email = q.get('recipientEmail');
      const tenant = q.get('recipientEmbedTenantName');
      const ext = q.get('recipientExternalId');
      if (!!tenant !== !!ext)
        return ctx.error(400, 'recipientEmbedTenantName and recipientExternalId must be given together.');
      const recipientFilters = [userId !== undefined, !!email, !!tenant].filter(Boolean).length;
      if (recipientFilters > 1)
        return ctx.error(
          400,
          'Use only one recipient filter: recipientUserId, recipientEmail, or recipientEmbedTenantName + recipientExternalId.',
        );
      const rows = (d.notifications.get(dep.id) ?? [])
        .filter((n) => {
          if (dashboardId !== undefined && n.dashboardId !== dashboardId) return false;
          if (publicId && n.dashboardPublicId !== publicId) return false;
          const rs = d.recipients.get(n.id) ?? [];
          if (userId !== undefined && !rs.some((r) => r.userId === userId)) return false;
          if (email && !rs.some((r) => r.email === email)) return false;
          if (tenant && !rs.some((r) => r.embedTenantName === tenant && r.externalId === ext)) return false;
          return true;
        })
        .sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)) || b.id - a.id);
      const key = `notifications:${dep.id}:${[...q.entries()].filter(([k]) => k !== 'after' && k !== 'first').join('&')}`;
      const p = await page(ctx, rows, key);
      if (p)
        await ctx.json(200, {
          items: p.items.map(({ dashboardPublicId: _p, createdAt: _c, ...n }) => n),
          pageInfo: p.pageInfo,
        });
    }),
  );
  router.add(
    'platform',
    'POST',
    '/v1/deployments/:deploymentId/notifications',
    withDeployment(async (ctx, dep) => {
      if (!isAdmin(ctx, deps))
        return ctx.error(403, 'Forbidden: creating notifications needs the admin role.');
      const b = (ctx.body ?? {}) as Record<string, unknown>;
      const hasId = b.dashboardId !== undefined && b.dashboardId !== null;
      const hasPublic = typeof b.dashboardPublicId === 'string' && b.dashboardPublicId !== '';
      if (hasId === hasPublic) return ctx.error(400, 'Give exactly one of dashboardId or dashboardPublicId.');
      const workbooks = d.workbooks.get(dep.id) ?? [];
      const wb = hasId
        ? workbooks.find((w) => w.id === b.dashboardId)
        : workbooks.find(
            (w) => (w.dashboardPublished as { publicId?: string } | null)?.publicId === b.dashboardPublicId,
          );
      if (!wb) return ctx.error(404, 'Dashboard not found.');
      const type = String(b.scheduleType ?? '');
      const minute = Number(b.minute ?? 0);
      const hour = Number(b.hour ?? 9);
      const hhmm = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
      const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
      let cron: string;
      let human: string;
      switch (type) {
        case 'HOURLY':
          cron = `${minute} * * * *`;
          human = `Every hour at minute ${minute}`;
          break;
        case 'DAILY':
          cron = `${minute} ${hour} * * *`;
          human = `Every day at ${hhmm}`;
          break;
        case 'WEEKLY': {
          const dow = Number(b.dayOfWeek ?? 1);
          if (!(dow >= 0 && dow <= 6)) return ctx.error(400, 'dayOfWeek must be 0-6.');
          cron = `${minute} ${hour} * * ${dow}`;
          human = `Every ${days[dow]} at ${hhmm}`;
          break;
        }
        case 'MONTHLY': {
          const dom = Number(b.dayOfMonth ?? 1);
          cron = `${minute} ${hour} ${dom} * *`;
          human = `Every month on day ${dom} at ${hhmm}`;
          break;
        }
        case 'CUSTOM':
          if (typeof b.customCron !== 'string' || b.customCron.trim().split(/\s+/).length !== 5)
            return ctx.error(400, 'customCron must be a 5-field cron expression.');
          cron = b.customCron;
          human = `Custom schedule (${cron})`;
          break;
        default:
          return ctx.error(400, 'scheduleType must be HOURLY, DAILY, WEEKLY, MONTHLY or CUSTOM.');
      }
      const format = b.notificationFormat ?? 'pdf';
      if (format !== 'pdf' && format !== 'png')
        return ctx.error(400, 'notificationFormat must be png or pdf.');
      const n: Row = {
        id: d.nextId(),
        dashboardId: wb.id,
        dashboardPublicId: (wb.dashboardPublished as { publicId?: string } | null)?.publicId ?? null,
        deploymentId: dep.id,
        cronExpression: cron,
        timezone: typeof b.timezone === 'string' ? b.timezone : 'UTC',
        isEnabled: true,
        humanReadableSchedule: human,
        notificationEnabled: b.notificationEnabled !== false,
        notificationFormat: format,
        filters: b.filters ?? null,
        timeGrains: b.timeGrains ?? null,
        createdAt: new Date().toISOString(),
      };
      d.notifications.get(dep.id)!.push(n);
      d.recipients.set(n.id, []);
      deps.state.createdNotifications.push(n.id);
      const { dashboardPublicId: _p, createdAt: _c, ...out } = n;
      await ctx.json(200, out);
    }),
  );
  const notification = (ctx: RequestContext, dep: Row) =>
    (d.notifications.get(dep.id) ?? []).find((n) => n.id === Number(ctx.params.id));
  const recipientKey = (r: Partial<Recipient>) =>
    `${r.type}|${r.userId ?? ''}|${r.email ?? ''}|${r.embedTenantName ?? ''}|${r.externalId ?? ''}`;
  router.add(
    'platform',
    'GET',
    '/v1/deployments/:deploymentId/notifications/:id/recipients',
    withDeployment(async (ctx, dep) => {
      if (!isAdmin(ctx, deps)) return ctx.error(403, 'Forbidden: recipients need the admin role.');
      const n = notification(ctx, dep);
      if (!n) return ctx.error(404, `Notification ${ctx.params.id} not found.`);
      await ctx.json(200, { items: d.recipients.get(n.id) ?? [], pageInfo: null });
    }),
  );
  router.add(
    'platform',
    'POST',
    '/v1/deployments/:deploymentId/notifications/:id/recipients',
    withDeployment(async (ctx, dep) => {
      if (!isAdmin(ctx, deps)) return ctx.error(403, 'Forbidden: recipients need the admin role.');
      const n = notification(ctx, dep);
      if (!n) return ctx.error(404, `Notification ${ctx.params.id} not found.`);
      const list = (ctx.body as { recipients?: unknown } | undefined)?.recipients;
      if (!Array.isArray(list) || list.length === 0)
        return ctx.error(400, 'recipients must be a non-empty array.');
      const current = d.recipients.get(n.id) ?? [];
      let created = 0;
      let unchanged = 0;
      for (const raw of list as Partial<Recipient>[]) {
        if (!raw || !['USER', 'EMBED_USER', 'SLACK'].includes(String(raw.type)))
          return ctx.error(400, 'Each recipient needs type USER, EMBED_USER or SLACK.');
        if (raw.type === 'USER' && raw.userId === undefined && !raw.email)
          return ctx.error(400, 'A USER recipient needs userId or email.');
        if (raw.type === 'EMBED_USER' && (!raw.embedTenantName || !raw.externalId))
          return ctx.error(400, 'An EMBED_USER recipient needs embedTenantName and externalId.');
        if (current.some((c) => recipientKey(c) === recipientKey(raw))) unchanged++;
        else {
          current.push(raw as Recipient);
          created++;
        }
      }
      d.recipients.set(n.id, current);
      await ctx.json(200, { created, updated: 0, unchanged });
    }),
  );
  router.add(
    'platform',
    'DELETE',
    '/v1/deployments/:deploymentId/notifications/:id/recipients',
    withDeployment(async (ctx, dep) => {
      if (!isAdmin(ctx, deps)) return ctx.error(403, 'Forbidden: recipients need the admin role.');
      const n = notification(ctx, dep);
      if (!n) return ctx.error(404, `Notification ${ctx.params.id} not found.`);
      const list = ((ctx.body as { recipients?: unknown } | undefined)?.recipients ??
        []) as Partial<Recipient>[];
      const drop = new Set(list.map(recipientKey));
      d.recipients.set(
        n.id,
        (d.recipients.get(n.id) ?? []).filter((r) => !drop.has(recipientKey(r))),
      );
      await ctx.noContent();
    }),
  );
}
