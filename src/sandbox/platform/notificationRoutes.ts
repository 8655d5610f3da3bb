// Scheduled notifications: admin only, newest first, the rules of spec 4.1 enforced, create with
// exactly one dashboard identifier, and the /recipients sub-resource.
import type {
  CreateNotificationInput,
  NotificationRecipientInput,
  RemoveRecipientInput,
} from '../../api/platform/notifications';
import type { Method, Router } from '../http';
import { deploymentRoutes, isAdmin, publicView, sendPage, type PlatformDeps } from './common';
import { buildSchedule } from './notificationSchedule';
import {
  notificationRoutes,
  registerNotificationItemRoutes,
  type NotificationHandler,
} from './notificationItemRoutes';
import type { Recipient, Row } from './seed';

export function registerNotificationRoutes(router: Router, deps: PlatformDeps): void {
  const d = deps.data;
  const on = deploymentRoutes(router, deps);
  const forNotification = notificationRoutes(on, deps);
  // Notifications: admin only, newest first, spec 4.1 rules.
  on('GET', '/notifications', async (ctx, dep) => {
    if (!isAdmin(ctx, deps)) return ctx.error(403, 'Forbidden: listing notifications needs the admin role.');
    const q = ctx.query;
    const num = (k: string) => (q.get(k) ? Number(q.get(k)) : undefined);
    const dashboardId = num('dashboardId');
    const userId = num('recipientUserId');
    const publicId = q.get('dashboardPublicId');
    const email = q.get('recipientEmail');
    const tenant = q.get('recipientEmbedTenantName');
    const ext = q.get('recipientExternalId');
    const rows = (d.notifications.get(dep.id) ?? [])
      .filter((n) => {
        if (dashboardId !== undefined && n.dashboardId !== dashboardId) return false;
        if (publicId && n._dashboardPublicId !== publicId) return false;
        const rs = d.recipients.get(n.id) ?? [];
        if (userId !== undefined && !rs.some((r) => r.userId === userId)) return false;
        if (email && !rs.some((r) => r.email === email)) return false;
        if (tenant && !rs.some((r) => r.embedTenantName === tenant && r.externalId === ext)) return false;
        return true;
      })
      .sort((a, b) => String(b._createdAt).localeCompare(String(a._createdAt)) || b.id - a.id);
    const key = `notifications:${dep.id}:${[...q.entries()].filter(([k]) => k !== 'after' && k !== 'first').join('&')}`;
    await sendPage(ctx, rows, key, { view: publicView });
  });
  on('POST', '/notifications', async (ctx, dep) => {
    if (!isAdmin(ctx, deps)) return ctx.error(403, 'Forbidden: creating notifications needs the admin role.');
    const b = ctx.body as CreateNotificationInput;
    const workbooks = d.workbooks.get(dep.id) ?? [];
    const wb =
      b.dashboardId !== undefined
        ? workbooks.find((w) => w.id === b.dashboardId)
        : workbooks.find(
            (w) => (w.publishedDashboard as { publicId?: string } | null)?.publicId === b.dashboardPublicId,
          );
    if (!wb) return ctx.error(404, 'Dashboard not found.');
    const schedule = buildSchedule(b);
    if (typeof schedule === 'string') return ctx.error(400, schedule);
    const { cron, human } = schedule;
    const format = b.notificationFormat ?? 'pdf';
    const n: Row = {
      id: d.nextId(),
      dashboardId: wb.id,
      deploymentId: dep.id,
      cronExpression: cron,
      timezone: b.timezone ?? 'UTC',
      isEnabled: true,
      humanReadableSchedule: human,
      notificationEnabled: b.notificationEnabled !== false,
      notificationAiSummary: b.notificationAiSummary === true,
      notificationFormat: format,
      filters: b.filters ?? null,
      memberSwitchers: null,
      timeGrains: b.timeGrains ?? null,
      _dashboardPublicId: (wb.publishedDashboard as { publicId?: string } | null)?.publicId ?? null,
      _createdAt: new Date().toISOString(),
    };
    d.notifications.get(dep.id)!.push(n);
    d.recipients.set(n.id, []);
    deps.state.createdNotifications.push(n.id);
    await ctx.json(200, publicView(n));
  });
  // A recipient's identity: userId (USER), embed tenant + external id (EMBED_USER), channelId (SLACK).
  const sameRecipient = (a: Partial<Recipient>, b: Partial<Recipient>) =>
    a.type === b.type &&
    (a.type === 'USER'
      ? (a.userId != null && a.userId === b.userId) || (!!a.email && a.email === b.email)
      : a.type === 'EMBED_USER'
        ? a.embedTenantName === b.embedTenantName && a.externalId === b.externalId
        : a.channelId === b.channelId);
  const recipientView = ({ addedAt: _a, ...r }: Recipient) => ({
    type: r.type,
    userId: r.userId ?? null,
    email: r.email ?? null,
    username: r.username ?? null,
    embedUserId: r.embedUserId ?? null,
    embedTenantName: r.embedTenantName ?? null,
    externalId: r.externalId ?? null,
    channelId: r.channelId ?? null,
    channelName: r.channelName ?? null,
  });
  const notificationRoute = (method: Method, path: string, fn: NotificationHandler) =>
    forNotification(method, path, 'adding or removing recipients', fn);
  notificationRoute('GET', '/notifications/:id/recipients', async (ctx, n) => {
    // Newest first, cursor-paged (a small default page so that paging is exercised).
    const rows = [...(d.recipients.get(n.id) ?? [])].sort((a, b) => (b.addedAt ?? 0) - (a.addedAt ?? 0));
    await sendPage(ctx, rows, `recipients:${n.id}`, { first: 2, view: recipientView });
  });
  notificationRoute('POST', '/notifications/:id/recipients', async (ctx, n) => {
    const list = (ctx.body as { recipients: NotificationRecipientInput[] }).recipients;
    const current = d.recipients.get(n.id) ?? [];
    const created: Recipient[] = [];
    const updated: Recipient[] = [];
    const unchanged: Recipient[] = [];
    for (const raw of list) {
      const existing = current.find((c) => sameRecipient(c, raw));
      if (!existing) {
        const user =
          raw.type === 'USER' ? d.users.find((u) => u.id === raw.userId || u.email === raw.email) : undefined;
        const r: Recipient = {
          type: raw.type as Recipient['type'],
          userId: raw.type === 'USER' ? ((user?.id as number | undefined) ?? raw.userId ?? null) : null,
          email: raw.email ?? (user?.email as string | undefined) ?? null,
          username: raw.type === 'USER' ? String(user?.email ?? raw.email ?? '').split('@')[0] || null : null,
          embedUserId: raw.type === 'EMBED_USER' ? d.nextId() : null,
          embedTenantName: raw.type === 'EMBED_USER' ? raw.embedTenantName : null,
          externalId: raw.type === 'EMBED_USER' ? raw.externalId : null,
          channelId: raw.type === 'SLACK' ? raw.channelId : null,
          channelName: raw.type === 'SLACK' ? (raw.channelName ?? null) : null,
          addedAt: Date.now() + created.length,
        };
        current.push(r);
        created.push(r);
      } else if (raw.type === 'SLACK' && raw.channelName && raw.channelName !== existing.channelName) {
        existing.channelName = raw.channelName;
        updated.push(existing);
      } else unchanged.push(existing);
    }
    d.recipients.set(n.id, current);
    await ctx.json(200, {
      createdRecipients: created.map(recipientView),
      updatedRecipients: updated.map(recipientView),
      unchangedRecipients: unchanged.map(recipientView),
    });
  });
  notificationRoute('DELETE', '/notifications/:id/recipients', async (ctx, n) => {
    const drop = (ctx.body as { recipients: RemoveRecipientInput[] }).recipients;
    const idOf = (r: Recipient) =>
      String(r.type === 'USER' ? r.userId : r.type === 'EMBED_USER' ? r.embedUserId : r.channelId);
    d.recipients.set(
      n.id,
      (d.recipients.get(n.id) ?? []).filter(
        (r) =>
          !drop.some(
            (x) =>
              x.type === r.type &&
              String(x.id) === idOf(r) &&
              (r.type !== 'EMBED_USER' || x.embedTenantName === r.embedTenantName),
          ),
      ),
    );
    await ctx.noContent();
  });
  registerNotificationItemRoutes(forNotification, deps);
}
