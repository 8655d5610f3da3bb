// Administration commands that provision embed users into a tenant: one user from a one-page form
// (an existing external id is said to be updated before anything is sent), or many from a CSV or
// JSON file (previewed, confirmed, sent in batches of 100 with progress and cancel, every user's
// result reported). A tenant may be typed new: provisioning creates it.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  ProvisionEmbedUserInputSchema,
  type EmbedUser,
  type ProvisionEmbedUserInput,
} from '../api/platform/admin/embed';
import { COMMANDS } from '../commands';
import { UserCancelled } from '../log';
import { plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import { asArgs } from '../explorer/targets';
import {
  addAnswer,
  batches,
  emptyReport,
  planProvisioning,
  reportSummary,
  type ProvisionReport,
} from './embedProvisionFile';
import {
  EmbedTenantCommandSet,
  n,
  PICK,
  rule,
  userDetail,
  userLabel,
  type FormValues,
  type Reg2,
} from './embedTenantCommandSet';

export class EmbedUserProvisioning extends EmbedTenantCommandSet {
  register(reg: Reg2): vscode.Disposable[] {
    return [
      reg(COMMANDS.adminProvisionEmbedUser, (a) => this.provisionUser(a)),
      reg(COMMANDS.adminProvisionEmbedUsersFromFile, (a) => this.provisionFromFile(a)),
    ];
  }

  /** The tenant's embed user with this external id (compared without case, as the service stores it), if any. */
  private async embedUserByExternalId(tenant: string, externalId: string): Promise<Item | undefined> {
    const admin = await this.admin();
    const want = externalId.trim().toLowerCase();
    const found = await admin.listEmbedUsers(tenant, { first: PICK, search: externalId.trim() });
    return (found.items as Item[]).find((u) => String(u['externalId'] ?? '').toLowerCase() === want);
  }

  /** Creates or updates one embed user (by external id) from a one-page form. */
  async provisionUser(arg?: unknown): Promise<EmbedUser> {
    const { name: tenant, node } = await this.tenant(arg, 'Provision Embed User: embed tenant', true);
    const admin = await this.admin();
    const a = asArgs<{ externalId: string; email: string; displayName: string; tenantGroups: string[] }>(arg);
    const shape = ProvisionEmbedUserInputSchema.shape;
    const groupChoices = async () =>
      (
        (await admin.listEmbedGroups(tenant, { first: PICK }).catch(() => ({ items: [] }))).items as Item[]
      ).map((g) => ({
        label: plainText(g['name']),
        description: plainText(g['description'] ?? ''),
        value: String(g['name']),
      }));
    const v: FormValues =
      a.externalId !== undefined
        ? {
            externalId: a.externalId,
            email: a.email ?? '',
            displayName: a.displayName ?? '',
            tenantGroups: a.tenantGroups ?? [],
          }
        : await this.form(
            `Provision Embed User in ${plainText(tenant)}`,
            'Provision the user',
            [
              {
                key: 'externalId',
                label: 'External id',
                hint: 'The id your application knows the user by (the externalId of its embed sessions); an existing one is updated.',
                required: true,
                validate: rule(shape.externalId),
              },
              {
                key: 'email',
                label: 'E-mail',
                hint: 'Shown wherever the user is listed.',
                validate: rule(shape.email),
              },
              {
                key: 'displayName',
                label: 'Display name',
                hint: 'The name shown for the user, e.g. on content they author.',
              },
              {
                key: 'tenantGroups',
                label: 'Tenant groups',
                hint: "Replaces the user's groups in this tenant (none checked: left as they are).",
                choices: groupChoices,
              },
            ],
            {},
          );
    const groups = Array.isArray(v['tenantGroups']) ? v['tenantGroups'] : [];
    const input: ProvisionEmbedUserInput = {
      externalId: String(v['externalId']).trim(),
      ...(String(v['email'] ?? '').trim() ? { email: String(v['email']).trim() } : {}),
      ...(String(v['displayName'] ?? '').trim()
        ? { userProfile: { displayName: String(v['displayName']).trim() } }
        : {}),
      ...(groups.length > 0 ? { tenantGroups: groups } : {}),
    };
    // Provisioning is an upsert by external id: an id already in use overwrites that user, so say so first.
    const existing = await this.embedUserByExternalId(tenant, input.externalId);
    if (existing) {
      const ok = await this.prompter.confirm(
        `Update the existing embed user "${plainText(input.externalId)}" in ${plainText(tenant)}?`,
        `${userLabel(existing)}${userDetail(existing) ? ` (${userDetail(existing)})` : ''} already has this external id: provisioning replaces their e-mail, display name${input.tenantGroups ? ' and groups' : ''} with what the form says.`,
        'Update',
      );
      if (!ok) throw new UserCancelled();
    }
    await this.deps.confirmWrite(
      `${existing ? 'Update' : 'Provision'} the embed user "${plainText(input.externalId)}" in ${plainText(tenant)}`,
    );
    const user = await admin.provisionEmbedUser(tenant, input);
    this.refresh(node);
    void vscode.window.showInformationMessage(
      `Embed user ${plainText(user.email ?? user.externalId ?? input.externalId)} ${existing ? 'updated' : 'provisioned'} in ${plainText(tenant)}.`,
    );
    return user;
  }

  /**
   * Provisions the users of a CSV or JSON file: shows how many will be sent (and which entries
   * cannot be, with why) in a modal, then sends batches of 100 with progress and cancel between
   * batches, and ends with a report naming every failure.
   */
  async provisionFromFile(arg?: unknown): Promise<ProvisionReport> {
    const { name: tenant, node } = await this.tenant(arg, 'Provision Embed Users: embed tenant', true);
    const givenFile = asArgs<{ file: string }>(arg).file;
    const file =
      givenFile ??
      (
        await vscode.window.showOpenDialog({
          title: `Provision Embed Users into ${tenant}`,
          openLabel: 'Preview',
          canSelectMany: false,
          filters: { 'Users (CSV or JSON)': ['csv', 'json'] },
        })
      )?.[0]?.fsPath;
    if (!file) throw new UserCancelled();
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (e) {
      throw new Error(`Cannot read ${path.basename(file)}: ${(e as Error).message}`, { cause: e });
    }
    const plan = planProvisioning(text, path.basename(file));
    const total = plan.users.length;
    if (total === 0)
      throw new Error(
        `${path.basename(file)} has no user that can be sent${
          plan.unsendable.length
            ? `: ${plan.unsendable
                .slice(0, 3)
                .map((u) => `${u.where}: ${u.reason}`)
                .join('; ')}`
            : ''
        }.`,
      );
    const parts = batches(plan.users);
    const ok = await this.prompter.confirm(
      `Provision ${n(total, 'embed user')} from ${plainText(path.basename(file))} into ${plainText(tenant)}?`,
      [
        `Sent in ${n(parts.length, 'request')} of at most 100. Existing users (same external id) are updated; each user's result is reported.`,
        plan.unsendable.length
          ? `${n(plan.unsendable.length, 'entry', 'entries')} cannot be sent and ${plan.unsendable.length === 1 ? 'is' : 'are'} left out: ${plan.unsendable
              .slice(0, 5)
              .map((u) => `${u.where}: ${u.reason}`)
              .join('; ')}${plan.unsendable.length > 5 ? '; …' : ''}.`
          : '',
      ]
        .filter(Boolean)
        .join('\n'),
      'Provision',
    );
    if (!ok) throw new UserCancelled();
    await this.deps.confirmWrite(`Provision ${n(total, 'embed user')} into ${plainText(tenant)}`);
    const admin = await this.admin();
    const report = emptyReport(tenant, plan.unsendable);
    let failure: unknown;
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Provisioning embed users into ${tenant}`,
        cancellable: true,
      },
      async (progress, token) => {
        for (let i = 0; i < parts.length; i++) {
          const part = parts[i]!;
          if (token.isCancellationRequested) {
            // Not sent: a later run with the same file is safe (provisioning is idempotent).
            report.unknown.push({
              externalIds: parts.slice(i).flatMap((p) => p.map((u) => u.externalId)),
              reason: 'not sent (cancelled)',
            });
            return;
          }
          progress.report({
            message: `${report.succeeded.length + report.failed.length} of ${total}`,
            increment: (100 * part.length) / total,
          });
          try {
            addAnswer(report, await admin.provisionEmbedUsers(tenant, { users: part }));
          } catch (e) {
            // This batch's outcome is what the error says (unknown or refused); the rest is not sent.
            failure = e;
            report.unknown.push({
              externalIds: part.map((u) => u.externalId),
              reason: `in a request that failed (${(e as Error).message})`,
            });
            if (i + 1 < parts.length)
              report.unknown.push({
                externalIds: parts.slice(i + 1).flatMap((p) => p.map((u) => u.externalId)),
                reason: 'not sent (an earlier request failed)',
              });
            return;
          }
        }
      },
    );
    this.refresh(node);
    await this.deps.json.show(`embed-provisioning:${tenant}`, `provisioning-${tenant}`, report);
    const summary = reportSummary(report, total);
    if (failure) throw new Error(summary, { cause: failure });
    if (report.failed.length > 0 || report.notSent.length > 0 || report.unknown.length > 0)
      void vscode.window.showWarningMessage(summary);
    else void vscode.window.showInformationMessage(summary);
    return report;
  }
}
