// Notifications from the tree and the palette: create one (the multi-step flow, then its
// recipients), open its details (names, not ids, and every recipient), edit its
// schedule/format/filters (the create flow, prefilled), pause, resume, delete after a modal
// confirmation naming its schedule and dashboard, add and remove recipients, and filter a
// deployment's list on the server. Every write asks first on a production profile.
import * as vscode from 'vscode';
import { withCheckCommand } from '../api/http';
import { COMMANDS } from '../commands';
import { UserCancelled } from '../log';
import { dashboardChoices, timezoneChoices, userChoices } from '../ui/pickerSources';
import { askNotificationDraft } from './createNotificationFlow';
import { askNotificationFilter } from './notificationFilterFlow';
import { askRecipient, type RecipientInput } from './recipientFlow';
import { describeAddResult, recipientRemoval } from '../api/platform/notifications';
import { refreshList, type ExplorerContext } from '../explorer/context';
import {
  buildNotificationFilter,
  describeFilter,
  FILTER_KEYS,
  isEmptyFilter,
  type NotificationFilterArgs,
} from '../explorer/notificationFilter';
import { plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import type { ExplorerNode } from '../explorer/nodes/types';
import {
  ancestor,
  asArgs,
  asNode,
  deploymentLabel,
  listFirst,
  resolveDeploymentId,
  resolveItem,
} from '../explorer/targets';
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
import { draftOf, editChanges, pickDraft, type NotificationDraft } from './notificationDraft';
import { memberChoices } from './members';

export class NotificationActions {
  constructor(private readonly ctx: ExplorerContext) {}

  private get targets() {
    return this.ctx.targets;
  }

  private get prompter() {
    return this.ctx.targets.prompter();
  }

  private confirmWrite(what: string): Promise<void> {
    return this.ctx.confirmWrite(what);
  }

  register(reg: (spec: { id: string; title: string }, fn: (arg?: unknown) => unknown) => vscode.Disposable) {
    return [
      reg(COMMANDS.notificationsCreate, (a) => this.create(a)),
      reg(COMMANDS.notificationsOpen, (a) => this.open(a)),
      reg(COMMANDS.notificationsEdit, (a) => this.edit(a)),
      reg(COMMANDS.notificationsPause, (a) => this.setEnabled(a, false)),
      reg(COMMANDS.notificationsResume, (a) => this.setEnabled(a, true)),
      reg(COMMANDS.notificationsDelete, (a) => this.remove(a)),
      reg(COMMANDS.notificationsAddRecipient, (a) => this.addRecipient(a)),
      reg(COMMANDS.notificationsRemoveRecipient, (a) => this.removeRecipient(a)),
      reg(COMMANDS.notificationsFilter, (a) => this.filter(a)),
      reg(COMMANDS.notificationsClearFilter, (a) => this.clearFilter(a)),
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
    const dep = this.ctx.provider.loadedDeployments().find((d) => d.deploymentId === deploymentId);
    const list = node?.parent ?? dep?.list('notifications');
    if (list) this.ctx.provider.refresh(list);
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
    return this.ctx.json.show(`notification:${deploymentId}:${id}`, `notification-${id}`, details);
  }

  async edit(arg?: unknown) {
    const { deploymentId, id, notification: n, node } = await this.target(arg);
    const given = asArgs<NotificationDraft>(arg);
    const start = draftOf(n);
    const { draft } = await askNotificationDraft(
      this.targets.prompter(),
      pickDraft(given, false),
      { timezones: timezoneChoices, members: () => memberChoices(this.ctx.services, deploymentId) },
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

  async create(arg?: unknown) {
    const deploymentId = await resolveDeploymentId(this.targets, arg);
    const args = asArgs<NotificationDraft & { recipients: string[] }>(arg);
    const client = await this.targets.client();
    const { draft, dashboardName, recipients } = await askNotificationDraft(this.prompter, pickDraft(args), {
      dashboards: () => dashboardChoices(client, deploymentId),
      ...(args.recipients === undefined ? { users: () => userChoices(client) } : {}),
      timezones: timezoneChoices,
      members: () => memberChoices(this.ctx.services, deploymentId),
    });
    const to = args.recipients ?? recipients;
    const what = dashboardName ? `“${plainText(dashboardName)}”` : 'the dashboard';
    await this.confirmWrite(
      `Create a notification of ${what} in ${await deploymentLabel(this.targets, deploymentId)}`,
    );
    const created = await client
      .createNotification(deploymentId, { ...draft, notificationEnabled: true } as never)
      .catch((e: unknown) => {
        // Unknown outcome: "Check" refreshes the list instead of inviting a duplicate.
        throw withCheckCommand(e, COMMANDS.explorerRefresh.id);
      });
    refreshList(this.ctx, deploymentId, 'notifications');
    const schedule = plainText((created as Item)['humanReadableSchedule'] ?? '');
    if (to.length > 0) {
      // A second write: its failure leaves a notification without recipients, which we say.
      try {
        await client.addRecipients(
          deploymentId,
          Number((created as Item)['id']),
          to.map((email) => ({ type: 'USER' as const, email })),
        );
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        throw new Error(
          `The notification (${schedule}) was created, but its recipients were not added: ${why} Use "Add Recipient…" on it.`,
          { cause: e },
        );
      }
    }
    void vscode.window.showInformationMessage(
      `Notification created: ${schedule} of ${what}, ${to.length === 0 ? 'no recipients yet' : `${to.length} recipient${to.length === 1 ? '' : 's'}`}.`,
    );
    return created;
  }

  async addRecipient(arg?: unknown) {
    const { deploymentId, item, node } = await resolveItem(
      this.targets,
      arg,
      'notification',
      'notificationId',
      listFirst.notifications,
    );
    const given = asArgs<{ recipient: RecipientInput }>(arg).recipient;
    const client = await this.targets.client();
    const recipient = given ?? (await askRecipient(this.prompter, () => userChoices(client)));
    await this.confirmWrite(`Add a recipient to notification ${plainText(item['id'])}`);
    const result = await (
      await this.targets.client()
    ).addRecipients(deploymentId, Number(item['id']), [recipient]);
    if (node) this.ctx.provider.refresh(node);
    void vscode.window.showInformationMessage(
      `Recipients of notification ${plainText(item['id'])}: ${describeAddResult(result)}.`,
    );
    return result;
  }

  async removeRecipient(arg?: unknown) {
    const node = asNode(arg);
    const args = asArgs<{ recipient: RecipientInput & { embedUserId?: string | number } }>(arg);
    let deploymentId: number;
    let notificationId: number;
    let recipient: Item;
    let notificationNode: ExplorerNode | undefined;
    if (node?.kind === 'recipient' && node.data) {
      notificationNode = ancestor(node, 'notification');
      deploymentId = node.deploymentId!;
      notificationId = Number(notificationNode?.data?.['id']);
      recipient = node.data;
    } else {
      const target = await resolveItem(
        this.targets,
        arg,
        'notification',
        'notificationId',
        listFirst.notifications,
      );
      deploymentId = target.deploymentId;
      notificationId = Number(target.item['id']);
      notificationNode = target.node;
      if (args.recipient) recipient = args.recipient as Item;
      else {
        const client = await this.targets.client();
        const items: Item[] = [];
        for await (const r of client.iterateRecipients(deploymentId, notificationId)) items.push(r);
        if (items.length === 0) throw new Error(`Notification ${notificationId} has no recipients.`);
        recipient = await this.prompter.pick(
          'Remove Recipient',
          items.map((i) => ({
            label: plainText(
              i['email'] ??
                i['username'] ??
                i['externalId'] ??
                i['channelName'] ??
                i['channelId'] ??
                i['userId'],
            ),
            description: plainText(i['type']),
            value: i,
          })),
        );
      }
    }
    await this.confirmWrite(`Remove a recipient from notification ${notificationId}`);
    const removal = recipientRemoval(recipient);
    await (await this.targets.client()).removeRecipients(deploymentId, notificationId, [removal]);
    if (notificationNode) this.ctx.provider.refresh(notificationNode);
    return removal;
  }

  /** Filters a deployment's notifications list on the server (arguments, else the filter flow). */
  async filter(arg?: unknown) {
    const deploymentId = await resolveDeploymentId(this.targets, arg);
    const list = await this.ctx.listOf(deploymentId, 'notifications');
    const args = asArgs<NotificationFilterArgs>(arg);
    const hasArgs = [...FILTER_KEYS, 'dashboard', 'recipient'].some((k) => k in args);
    let filter;
    if (hasArgs) {
      const built = buildNotificationFilter(args);
      // Refused before any request: the message names the parameters in conflict.
      if (!built.ok) throw new Error(built.message);
      filter = built.value;
    } else {
      const client = await this.targets.client();
      filter = await askNotificationFilter(this.prompter, list.listSpec.notificationFilter, {
        dashboards: () => dashboardChoices(client, deploymentId),
        users: () => userChoices(client),
      });
    }
    // The row and the view description name the dashboard, not its id.
    let text: string | undefined;
    if (!isEmptyFilter(filter)) {
      const client = await this.targets.client();
      const id = filter.dashboardId;
      let name: string | undefined;
      if (id !== undefined) {
        await resolveDashboardNames(client, deploymentId, [id]).catch(() => undefined);
        name = dashboardName(client, deploymentId, id);
      }
      text = describeFilter(filter, name);
    }
    list.setSpec({ ...list.listSpec, notificationFilter: filter, notificationFilterText: text });
    this.ctx.provider.changedRow(list);
    return filter;
  }

  async clearFilter(arg?: unknown): Promise<void> {
    const node = asNode(arg);
    const args = asArgs(arg);
    const lists =
      node || args.deploymentId !== undefined
        ? [await this.ctx.listOf(await resolveDeploymentId(this.targets, arg), 'notifications')]
        : this.ctx.provider.loadedDeployments().map((d) => d.list('notifications'));
    for (const list of lists) {
      list.setSpec({ ...list.listSpec, notificationFilter: undefined, notificationFilterText: undefined });
      this.ctx.provider.changedRow(list);
    }
  }
}
