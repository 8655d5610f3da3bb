// One notification's lifecycle from the tree and the palette: open its details (names, not ids, and
// every recipient), edit its schedule/format/filters (the create flow, prefilled), pause, resume,
// and delete after a modal confirmation naming its schedule and dashboard.
import * as vscode from 'vscode';
import { withCheckCommand } from '../api/http';
import { COMMANDS } from '../commands';
import { UserCancelled } from '../log';
import { timezoneChoices } from '../ui/pickerSources';
import { askNotificationDraft, type NotificationDraft } from './createNotificationFlow';
import type { ExplorerCommandDeps } from '../explorer/explorerCommands';
import { plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import type { ExplorerNode } from '../explorer/nodes/types';
import { asArgs, listFirst, resolveItem, type TargetContext } from '../explorer/targets';
import {
  DASHBOARD_NAME,
  dashboardName,
  resolveDashboardNames,
} from '../explorer/notifications/dashboardNames';
import {
  describeFilters,
  notificationDashboard,
  notificationSchedule,
} from '../explorer/notifications/notificationLook';
import { draftOf, editChanges, pickDraft } from './notificationDraft';
import { memberChoices } from './members';

export class NotificationActions {
  constructor(
    private readonly deps: ExplorerCommandDeps,
    private readonly targets: TargetContext,
    private readonly confirmWrite: (what: string) => Promise<void>,
  ) {}

  register(reg: (spec: { id: string; title: string }, fn: (arg?: unknown) => unknown) => vscode.Disposable) {
    return [
      reg(COMMANDS.explorerOpenNotification, (a) => this.open(a)),
      reg(COMMANDS.explorerEditNotification, (a) => this.edit(a)),
      reg(COMMANDS.explorerPauseNotification, (a) => this.setEnabled(a, false)),
      reg(COMMANDS.explorerResumeNotification, (a) => this.setEnabled(a, true)),
      reg(COMMANDS.explorerDeleteNotification, (a) => this.remove(a)),
    ];
  }

  /** The notification acted on, fetched fresh, with its dashboard's name. */
  private async target(arg: unknown) {
    const t = await resolveItem(this.targets, arg, 'notification', 'notificationId', listFirst.notifications);
    const client = await this.targets.client();
    const id = Number(t.item['id']);
    const fresh = (await client.getNotification(t.deploymentId, id)) as Item;
    const dashboardId = fresh['dashboardId'];
    if (typeof dashboardId === 'number') {
      await resolveDashboardNames(client, t.deploymentId, [dashboardId]).catch(() => undefined);
      const name = dashboardName(client, t.deploymentId, dashboardId);
      if (name !== undefined) (fresh as Record<symbol, unknown>)[DASHBOARD_NAME] = name;
    }
    return { ...t, id, notification: fresh };
  }

  private refresh(deploymentId: number, node: ExplorerNode | undefined): void {
    const dep = this.deps.provider.loadedDeployments().find((d) => d.deploymentId === deploymentId);
    const list = node?.parent ?? dep?.list('notifications');
    if (list) this.deps.provider.refresh(list);
  }

  /** Opens the details as read-only JSON: names first, every recipient (all pages). */
  async open(arg?: unknown): Promise<vscode.TextDocument> {
    const { deploymentId, id, notification: n } = await this.target(arg);
    const client = await this.targets.client();
    const recipients: Item[] = [];
    for await (const r of client.iterateRecipients(deploymentId, id)) recipients.push(r as Item);
    const details = {
      schedule: notificationSchedule(n),
      dashboard: { name: notificationDashboard(n), id: n['dashboardId'] },
      timezone: n['timezone'],
      format: n['notificationFormat'],
      state: n['isEnabled'] === false ? 'paused' : 'active',
      filters: describeFilters(n['filters']) ?? 'none',
      recipients: recipients.map((r) => ({
        who: r['email'] ?? r['username'] ?? r['channelName'] ?? r['externalId'] ?? r['userId'],
        type: r['type'],
        ...(r['type'] === 'EMBED_USER' ? { tenant: r['embedTenantName'] } : {}),
      })),
      notification: n,
    };
    return this.deps.json.show(`notification:${deploymentId}:${id}`, `notification-${id}`, details);
  }

  async edit(arg?: unknown) {
    const { deploymentId, id, notification: n, node } = await this.target(arg);
    const given = asArgs<NotificationDraft>(arg);
    const start = draftOf(n);
    const { draft } = await askNotificationDraft(
      this.targets.prompter(),
      pickDraft(given, false),
      { timezones: timezoneChoices, members: () => memberChoices(this.deps.services, deploymentId) },
      'edit',
      start,
      notificationDashboard(n),
    );
    const changes = editChanges(start, draft);
    if (Object.keys(changes).length === 0) {
      void vscode.window.showInformationMessage('Nothing changed: the notification is as it was.');
      return n;
    }
    await this.confirmWrite(`Change the notification "${notificationSchedule(n)}"`);
    const updated = await (
      await this.targets.client()
    )
      .updateNotification(deploymentId, id, changes as never)
      .catch((e: unknown) => {
        throw withCheckCommand(e, COMMANDS.explorerRefresh.id);
      });
    this.refresh(deploymentId, node);
    void vscode.window.showInformationMessage(
      `Notification of ${notificationDashboard(n)} now runs: ${plainText((updated as Item)['humanReadableSchedule'] ?? '')}.`,
    );
    return updated;
  }

  async setEnabled(arg: unknown, enabled: boolean) {
    const { deploymentId, id, notification: n, node } = await this.target(arg);
    await this.confirmWrite(`${enabled ? 'Resume' : 'Pause'} the notification "${notificationSchedule(n)}"`);
    const updated = await (
      await this.targets.client()
    )
      .updateNotification(deploymentId, id, { isEnabled: enabled })
      .catch((e: unknown) => {
        throw withCheckCommand(e, COMMANDS.explorerRefresh.id);
      });
    this.refresh(deploymentId, node);
    vscode.window.setStatusBarMessage(
      `${enabled ? 'Resumed' : 'Paused'}: ${notificationSchedule(n)} · ${notificationDashboard(n)}`,
      4000,
    );
    return updated;
  }

  async remove(arg?: unknown): Promise<boolean> {
    const { deploymentId, id, notification: n, node } = await this.target(arg);
    const schedule = notificationSchedule(n);
    const dashboard = notificationDashboard(n);
    // Always modal, naming what goes: the schedule, its dashboard, and (cascading) its recipients.
    const ok = await this.targets
      .prompter()
      .confirm(
        `Delete the notification "${schedule}" of ${dashboard}?`,
        'Its recipients are unsubscribed too. This cannot be undone.',
        'Delete',
      );
    if (!ok) throw new UserCancelled();
    await this.confirmWrite(`Delete the notification "${schedule}" of ${dashboard}`);
    await (await this.targets.client()).deleteNotification(deploymentId, id).catch((e: unknown) => {
      throw withCheckCommand(e, COMMANDS.explorerRefresh.id);
    });
    this.refresh(deploymentId, node);
    void vscode.window.showInformationMessage(`Deleted the notification "${schedule}" of ${dashboard}.`);
    return true;
  }
}
