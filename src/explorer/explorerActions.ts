// The explorer's write actions (dbt sync is in deployment/dbtFlows.ts): duplicate a workbook, connect a
// report to a workbook, create a notification, add and remove recipients, delete an embed tenant.
// Each asks first on a production profile and refreshes only the list it changed.
import * as vscode from 'vscode';
import { withCheckCommand } from '../api/http';
import { COMMANDS } from '../commands';
import { UserCancelled } from '../log';
import { askNotificationDraft, type NotificationDraft } from '../notifications/createNotificationFlow';
import { memberChoices } from '../notifications/members';
import type { ExplorerCommandDeps } from './explorerCommands';
import { displayName, plainText } from './labels';
import type { Item } from './loaders';
import type { ExplorerNode } from './nodes/types';
import type { Prompter } from '../ui/prompter';
import { describeAddResult, recipientRemoval } from '../api/platform/notifications';
import { pickDraft } from '../notifications/notificationDraft';
import { askRecipient, type RecipientInput } from '../notifications/recipientFlow';
import { dashboardChoices, timezoneChoices, userChoices } from '../ui/pickerSources';
import {
  ancestor,
  asArgs,
  asNode,
  deploymentLabel,
  listFirst,
  resolveDeploymentId,
  resolveItem,
  type TargetContext,
} from './targets';

export class ExplorerActions {
  constructor(
    private readonly deps: ExplorerCommandDeps,
    readonly targets: TargetContext,
  ) {}

  private get prompter(): Prompter {
    return this.targets.prompter();
  }

  /** Asks before a write when the active profile is marked production; throws UserCancelled if declined. */
  async confirmWrite(what: string): Promise<void> {
    const profile = this.deps.services.profiles.active()?.profile;
    if (!profile?.production) return;
    const ok = await this.prompter.confirm(
      `${what} on the production profile "${plainText(profile.name)}"?`,
      'This profile is marked as production: the change applies to live data.',
      'Continue',
    );
    if (!ok) throw new UserCancelled();
  }

  /** Re-fetches one list of a deployment if it is shown, leaving every other list alone. */
  private refreshList(deploymentId: number, kind: 'reports' | 'workbooks' | 'notifications'): void {
    const dep = this.deps.provider.loadedDeployments().find((d) => d.deploymentId === deploymentId);
    if (dep) this.deps.provider.refresh(dep.list(kind));
  }

  async duplicateWorkbook(arg?: unknown) {
    const { deploymentId, item } = await resolveItem(
      this.targets,
      arg,
      'workbook',
      'workbookId',
      listFirst.workbooks,
    );
    const args = asArgs<{ shared: boolean }>(arg);
    const shared =
      args.shared ??
      (await this.prompter.pick('Duplicate Workbook', [
        { label: 'From my workspace', value: false },
        { label: 'From the shared workspace', description: 'shared: true', value: true },
      ]));
    await this.confirmWrite(`Duplicate workbook ${displayName(item)}`);
    const copy = await (
      await this.targets.client()
    ).duplicateWorkbook(deploymentId, Number(item['id']), { shared });
    this.refreshList(deploymentId, 'workbooks');
    void vscode.window.showInformationMessage(`Duplicated as "${displayName(copy as Item)}".`);
    return copy;
  }

  async connectReport(arg?: unknown) {
    const { deploymentId, item } = await resolveItem(
      this.targets,
      arg,
      'report',
      'reportId',
      listFirst.reports,
    );
    const args = asArgs<{ externalWorkbookId: string; resultLocation: string; endResultCell: string }>(arg);
    const required = (what: string) => (v: string) => (v.trim() === '' ? `Enter the ${what}.` : undefined);
    const externalWorkbookId =
      args.externalWorkbookId ??
      (await this.prompter.input({
        title: 'Connect Report to Workbook (1/3)',
        prompt: 'The external workbook (spreadsheet) id.',
        validate: required('external workbook id'),
      }));
    const resultLocation =
      args.resultLocation ??
      (await this.prompter.input({
        title: 'Connect Report to Workbook (2/3)',
        prompt: 'Where the result starts, e.g. Sheet1!A1.',
        value: 'Sheet1!A1',
        validate: required('result location'),
      }));
    const endResultCell =
      args.endResultCell ??
      (await this.prompter.input({
        title: 'Connect Report to Workbook (3/3)',
        prompt: 'The last cell of the result (optional), e.g. D20.',
      }));
    await this.confirmWrite(
      `Connect report ${displayName(item)} to workbook ${plainText(externalWorkbookId)}`,
    );
    const updated = await (
      await this.targets.client()
    ).connectReportToWorkbook(deploymentId, Number(item['id']), {
      externalWorkbookId: externalWorkbookId.trim(),
      resultLocation: resultLocation.trim(),
      ...(endResultCell.trim() ? { endResultCell: endResultCell.trim() } : {}),
    });
    this.refreshList(deploymentId, 'reports');
    void vscode.window.showInformationMessage(
      `Connected "${displayName(item)}" to ${plainText(externalWorkbookId)}.`,
    );
    return updated;
  }

  async createNotification(arg?: unknown) {
    const deploymentId = await resolveDeploymentId(this.targets, arg);
    const args = asArgs<NotificationDraft & { recipients: string[] }>(arg);
    const client = await this.targets.client();
    const { draft, dashboardName, recipients } = await askNotificationDraft(this.prompter, pickDraft(args), {
      dashboards: () => dashboardChoices(client, deploymentId),
      ...(args.recipients === undefined ? { users: () => userChoices(client) } : {}),
      timezones: timezoneChoices,
      members: () => memberChoices(this.deps.services, deploymentId),
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
    this.refreshList(deploymentId, 'notifications');
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
    if (node) this.deps.provider.refresh(node);
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
    if (notificationNode) this.deps.provider.refresh(notificationNode);
    return removal;
  }

  async deleteEmbedTenant(arg?: unknown): Promise<boolean> {
    const args = typeof arg === 'string' ? { name: arg } : asArgs<{ name: string; confirmed: boolean }>(arg);
    // The tenant: the Administration row it was invoked on, the arguments, else a pick by name.
    const fromNode = asNode(arg)?.kind === 'embedTenant' ? asNode(arg)?.data?.['name'] : undefined;
    const name =
      (typeof fromNode === 'string' ? fromNode : undefined) ??
      args.name ??
      String(
        await this.prompter.pick(
          'Delete Embed Tenant',
          (await (await this.targets.client()).admin.listEmbedTenants({ first: 200 })).items.map((t) => ({
            label: plainText(t.name),
            ...(t.displayName ? { description: plainText(t.displayName) } : {}),
            value: t.name,
          })),
          'Pick the embed tenant to delete',
        ),
      );
    // Always modal, naming the tenant: this deletes its users, groups and content.
    const ok = await this.prompter.confirm(
      `Delete the embed tenant "${plainText(name)}"?`,
      'This deletes its users, groups, memberships, attributes, policies and content. It cannot be undone.',
      'Delete',
    );
    if (!ok) throw new UserCancelled();
    await this.confirmWrite(`Delete the embed tenant "${plainText(name)}"`);
    await (await this.targets.client()).deleteEmbedTenant(name.trim());
    void vscode.window.showInformationMessage(`Embed tenant "${plainText(name)}" deleted.`);
    return true;
  }
}
