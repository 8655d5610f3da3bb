// Administration commands on an embed tenant's groups and users: create a group (name and
// description on one form), edit its description (the name is immutable as published: it is part
// of the embed session's security context), delete it (a modal naming it; members are removed
// first when it has some, since the service deletes only empty groups), add members (a multi-pick
// of the tenant's users by e-mail or name) and remove them, provision one embed user (one form),
// and provision many from a CSV or JSON file (previewed, confirmed, sent in batches of 100 with
// progress and cancel, every user's result reported). Tenants and groups are picked by name.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  EMBED_TENANT_NAME,
  EmbedGroupNameSchema,
  ProvisionEmbedUserInputSchema,
  type EmbedUser,
  type ProvisionEmbedUserInput,
} from '../api/platform/admin/embed';
import { COMMANDS } from '../commands';
import { UserCancelled } from '../log';
import { plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import { ExplorerNode } from '../explorer/nodes/types';
import { asArgs } from '../explorer/targets';
import type { Choice } from '../ui/prompter';
import { confirmRemoval, subjectNode, AdminCommandSet } from './adminContext';
import {
  addAnswer,
  batches,
  emptyReport,
  planProvisioning,
  reportSummary,
  type ProvisionReport,
} from './embedProvisionFile';

const PICK = 200;
type Reg2 = (
  spec: { id: string; title: string },
  fn: (arg?: unknown, all?: unknown) => unknown,
) => vscode.Disposable;

/** A field of a one-page form: a row showing its value; picking the row edits it. */
interface Field {
  key: string;
  label: string;
  hint: string;
  required?: boolean;
  /** Refuses a typed value (shown under the box), in plain words. */
  validate?: (v: string) => string | undefined;
  /** A multi-pick of these instead of a text box (the value is the picked names). */
  choices?: () => Promise<Choice<string>[]>;
}
type FormValues = Record<string, string | string[]>;

const userLabel = (u: Item) =>
  plainText(
    (u['firstName'] as string | undefined) ??
      (u['email'] as string | undefined) ??
      (u['username'] as string | undefined) ??
      `#${String(u['id'])}`,
  );
const userDetail = (u: Item) =>
  plainText([u['email'], u['externalId']].filter((x) => typeof x === 'string' && x).join(' · '));
const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
/** A rule's message for a typed value (the schema's own words are plain ones, set with the rule). */
const rule =
  (schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } }) =>
  (v: string) => {
    const r = schema.safeParse(v);
    return r.success ? undefined : r.error?.issues[0]?.message;
  };

export class EmbedGroupCommands extends AdminCommandSet {
  register(reg: Reg2): vscode.Disposable[] {
    return [
      reg(COMMANDS.adminCreateEmbedGroup, (a) => this.createGroup(a)),
      reg(COMMANDS.adminEditEmbedGroup, (a) => this.editGroup(a)),
      reg(COMMANDS.adminDeleteEmbedGroup, (a) => this.deleteGroup(a)),
      reg(COMMANDS.adminAddEmbedGroupMembers, (a) => this.addMembers(a)),
      reg(COMMANDS.adminRemoveEmbedGroupMembers, (a, all) => this.removeMembers(a, all)),
      reg(COMMANDS.adminProvisionEmbedUser, (a) => this.provisionUser(a)),
      reg(COMMANDS.adminProvisionEmbedUsersFromFile, (a) => this.provisionFromFile(a)),
    ];
  }

  /** Refreshes the tenant's row (its groups, users and counts), else the tenants list. */
  private refresh(tenantNode: ExplorerNode | undefined): void {
    this.deps.provider.refresh(tenantNode ?? this.deps.provider.roots.admin.embedTenants);
  }

  /**
   * The tenant a command acts on: the row it was invoked on (or under), `{tenant}`, else a pick by
   * name; `allowNew` lets a new tenant name be typed (provisioning creates the tenant).
   */
  private async tenant(
    arg: unknown,
    title: string,
    allowNew = false,
  ): Promise<{ name: string; node?: ExplorerNode }> {
    const node = subjectNode(this.deps, arg, 'embedTenant');
    const fromNode = node?.data?.['name'];
    if (typeof fromNode === 'string') return { name: fromNode, node };
    const given = asArgs<{ tenant: string }>(arg).tenant;
    if (given) return { name: given };
    const tenants = (await (await this.admin()).listEmbedTenants({ first: PICK })).items;
    if (tenants.length === 0 && !allowNew) throw new Error('There are no embed tenants.');
    const name = await this.prompter.pick(
      title,
      tenants.map((t) => ({
        label: plainText(t.name),
        ...(t.displayName ? { description: plainText(t.displayName) } : {}),
        value: t.name,
      })),
      {
        placeHolder: allowNew ? 'Pick the embed tenant, or type a new tenant name' : 'Pick the embed tenant',
        ...(allowNew
          ? {
              typed: {
                hint: 'New embed tenant (created when the first user is provisioned)',
                validate: (v: string) =>
                  EMBED_TENANT_NAME.test(v.trim())
                    ? undefined
                    : 'A tenant name is 2–36 lowercase letters, digits or dashes, starting with a letter.',
                value: (v: string) => v.trim(),
              },
            }
          : {}),
      },
    );
    return { name };
  }

  /** The group: the row it was invoked on (or under), `{group}` (its name), else a pick by name. */
  private async group(
    arg: unknown,
    title: string,
  ): Promise<{ tenant: string; group: Item; node?: ExplorerNode; tenantNode?: ExplorerNode }> {
    const node = subjectNode(this.deps, arg, 'embedGroup');
    const { name: tenant, node: tenantNode } = await this.tenant(arg, `${title}: embed tenant`);
    if (node?.data) return { tenant, group: node.data, node, ...(tenantNode ? { tenantNode } : {}) };
    const groups = (await (await this.admin()).listEmbedGroups(tenant, { first: PICK })).items as Item[];
    const named = asArgs<{ group: string }>(arg).group;
    if (named) {
      const found = groups.find((g) => g['name'] === named);
      if (!found) throw new Error(`There is no group named "${plainText(named)}" in ${plainText(tenant)}.`);
      return { tenant, group: found, ...(tenantNode ? { tenantNode } : {}) };
    }
    if (groups.length === 0)
      throw new Error(`${plainText(tenant)} has no groups: create one with Create Embed Group….`);
    const group = await this.prompter.pick(
      title,
      groups.map((g) => ({
        label: plainText(g['name']),
        description: n(Number(g['userCount'] ?? 0), 'member'),
        ...(g['description'] ? { detail: plainText(g['description']) } : {}),
        value: g,
      })),
      `Pick the group of ${plainText(tenant)}`,
    );
    return { tenant, group, ...(tenantNode ? { tenantNode } : {}) };
  }

  /**
   * A one-page form: one row per field showing its value, a submit row once every required field
   * is filled. Picking a row edits it (a box that refuses what the operation refuses, or a
   * multi-pick); Escape cancels without sending anything.
   */
  private async form(title: string, submit: string, fields: Field[], given: FormValues): Promise<FormValues> {
    const values: FormValues = { ...given };
    const text = (k: string) => {
      const v = values[k];
      return Array.isArray(v) ? (v.length ? v.join(', ') : '') : (v ?? '');
    };
    for (;;) {
      const ready = fields.every((f) => !f.required || text(f.key) !== '');
      const missing = fields.filter((f) => f.required && text(f.key) === '').map((f) => f.label);
      const rows: Choice<string>[] = [
        ...(ready ? [{ label: `$(check) ${submit}`, id: 'submit', value: 'submit' }] : []),
        ...fields.map((f) => ({
          label: `${f.label}${f.required ? '' : ' (optional)'}`,
          description: text(f.key) ? plainText(text(f.key)) : 'not set',
          detail: f.hint,
          id: f.key,
          value: f.key,
        })),
      ];
      const key = await this.prompter.pick(title, rows, {
        placeHolder: ready
          ? `Change a row, or ${submit}`
          : `Fill in ${missing.join(' and ')}, then ${submit}`,
      });
      if (key === 'submit') return values;
      const f = fields.find((x) => x.key === key)!;
      if (f.choices) {
        const current = Array.isArray(values[key]) ? (values[key] as string[]) : [];
        values[key] = await this.prompter.pickMany(f.label, await f.choices(), {
          placeHolder: f.hint,
          selected: (v) => current.includes(v),
        });
      } else
        values[key] = (
          await this.prompter.input({
            title: `${title}: ${f.label}`,
            prompt: f.hint,
            value: text(key),
            ...(f.validate
              ? {
                  validate: (v: string) =>
                    v.trim() === '' && !f.required ? undefined : f.validate!(v.trim()),
                }
              : {}),
          })
        ).trim();
    }
  }

  // ---- groups

  async createGroup(arg?: unknown): Promise<Item> {
    const { name: tenant, node } = await this.tenant(arg, 'Create Embed Group: embed tenant');
    const a = asArgs<{ name: string; description: string }>(arg);
    const admin = await this.admin();
    const taken = new Set(
      ((await admin.listEmbedGroups(tenant, { first: PICK })).items as Item[]).map((g) =>
        String(g['name']).toLowerCase(),
      ),
    );
    const nameRule = rule(EmbedGroupNameSchema);
    const v =
      a.name !== undefined
        ? { name: a.name, description: a.description ?? '' }
        : await this.form(
            `Create Embed Group in ${plainText(tenant)}`,
            'Create the group',
            [
              {
                key: 'name',
                label: 'Name',
                hint: 'Unique in the tenant; it cannot be changed later (sessions name it in tenantGroups).',
                required: true,
                validate: (s) =>
                  nameRule(s) ??
                  (taken.has(s.toLowerCase())
                    ? `${plainText(tenant)} already has a group named "${plainText(s)}": pick another name.`
                    : undefined),
              },
              {
                key: 'description',
                label: 'Description',
                hint: 'What the group is for (at most 500 characters).',
                validate: (s) => (s.length > 500 ? 'A description is at most 500 characters.' : undefined),
              },
            ],
            {},
          );
    const name = String(v['name']).trim();
    const description = String(v['description'] ?? '').trim();
    await this.deps.confirmWrite(`Create the embed group "${plainText(name)}" in ${plainText(tenant)}`);
    const created = await admin.createEmbedGroup(tenant, { name, ...(description ? { description } : {}) });
    this.refresh(node);
    void vscode.window.showInformationMessage(
      `Embed group "${plainText(created.name)}" created in ${plainText(tenant)}.`,
    );
    return created;
  }

  /** Edits the description; says why the name cannot change. */
  async editGroup(arg?: unknown): Promise<Item> {
    const { tenant, group, tenantNode } = await this.group(arg, 'Edit Embed Group');
    const gname = plainText(group['name']);
    const given = asArgs<{ description: string }>(arg).description;
    const description =
      given ??
      (await this.prompter.input({
        title: `Edit Embed Group "${gname}"`,
        prompt:
          'Description (empty clears it). The name cannot change: sessions and data-model policies name the group; create a new group instead.',
        value: typeof group['description'] === 'string' ? group['description'] : '',
        validate: (s) => (s.trim().length > 500 ? 'A description is at most 500 characters.' : undefined),
      }));
    await this.deps.confirmWrite(`Save the description of the embed group "${gname}"`);
    const saved = await (
      await this.admin()
    ).updateEmbedGroup(tenant, Number(group['id']), { description: description.trim() });
    this.refresh(tenantNode);
    void vscode.window.showInformationMessage(
      saved.description ? `Description of "${gname}" saved.` : `Description of "${gname}" cleared.`,
    );
    return saved;
  }

  /**
   * Deletes a group after a modal naming it. The service refuses a group with members, so when it
   * has some the modal says they are removed first (the users stay in the tenant).
   */
  async deleteGroup(arg?: unknown): Promise<void> {
    const { tenant, group, tenantNode } = await this.group(arg, 'Delete Embed Group');
    const admin = await this.admin();
    const id = Number(group['id']);
    const gname = plainText(group['name']);
    const members = (await admin.listEmbedGroupMembers(tenant, id, { first: PICK })).items;
    await confirmRemoval(
      this.deps,
      `Delete the embed group "${gname}" of ${plainText(tenant)}?`,
      (members.length > 0
        ? `Its ${n(members.length, 'member')} ${members.length === 1 ? 'is' : 'are'} removed from it first (the users stay in the tenant). `
        : '') +
        'Embed sessions naming it in tenantGroups are refused, and data-model policies written for it stop matching. This cannot be undone.',
      members.length > 0 ? 'Remove Members and Delete' : 'Delete',
    );
    if (members.length > 0)
      for (const part of batches(members, 1000))
        await admin.removeEmbedGroupMembers(tenant, id, {
          members: part.map((m) => ({ embedUserId: m.id })),
        });
    await admin.deleteEmbedGroup(tenant, id);
    this.refresh(tenantNode);
    void vscode.window.showInformationMessage(`Embed group "${gname}" deleted from ${plainText(tenant)}.`);
  }

  // ---- members

  /** Adds tenant users picked by name or e-mail (those already members are not offered). */
  async addMembers(arg?: unknown): Promise<{ added: number; unchanged: number }> {
    const { tenant, group, node, tenantNode } = await this.group(arg, 'Add Members');
    const admin = await this.admin();
    const id = Number(group['id']);
    const gname = plainText(group['name']);
    const current = new Set(
      (await admin.listEmbedGroupMembers(tenant, id, { first: PICK })).items.map((u) => u.id),
    );
    const given = asArgs<{ externalIds: string[] }>(arg).externalIds;
    let members: { embedUserId?: number; externalId?: string }[];
    if (given) members = given.map((externalId) => ({ externalId }));
    else {
      const users = (await admin.listEmbedUsers(tenant, { first: PICK })).items.filter(
        (u) => !current.has(u.id),
      );
      if (users.length === 0)
        throw new Error(
          `Every user of ${plainText(tenant)} is already in "${gname}": provision users first (Provision Embed User…).`,
        );
      const picked = await this.prompter.pickMany(
        `Add Members to "${gname}"`,
        users.map((u) => ({
          label: userLabel(u as Item),
          description: userDetail(u as Item),
          id: u.externalId ?? u.email ?? String(u.id),
          value: u,
        })),
        { placeHolder: `Check the users of ${plainText(tenant)} to add (type to filter by name or e-mail)` },
      );
      if (picked.length === 0) throw new UserCancelled();
      members = picked.map((u: EmbedUser) => ({ embedUserId: u.id }));
    }
    await this.deps.confirmWrite(`Add ${n(members.length, 'member')} to the embed group "${gname}"`);
    const r = await admin.addEmbedGroupMembers(tenant, id, { members });
    this.deps.provider.refresh(node ?? tenantNode ?? this.deps.provider.roots.admin.embedTenants);
    if (tenantNode && node) this.deps.provider.refresh(tenantNode);
    const added = r.addedMembers.length;
    const unchanged = r.unchangedMembers.length;
    void vscode.window.showInformationMessage(
      `Added ${n(added, 'member')} to "${gname}"${unchanged ? ` (${n(unchanged, 'user was', 'users were')} already ${unchanged === 1 ? 'a member' : 'members'})` : ''}.`,
    );
    return { added, unchanged };
  }

  /** Removes the selected members (or members picked from the group) after a modal naming them. */
  async removeMembers(arg?: unknown, all?: unknown): Promise<number> {
    const selected = (Array.isArray(all) ? all : [arg]).filter(
      (x): x is ExplorerNode => x instanceof ExplorerNode && x.kind === 'embedMember',
    );
    const { tenant, group, tenantNode } = await this.group(selected[0] ?? arg, 'Remove Members');
    const admin = await this.admin();
    const id = Number(group['id']);
    const gname = plainText(group['name']);
    let users: Item[] = selected.map((s) => s.data!).filter(Boolean);
    const given = asArgs<{ externalIds: string[] }>(arg).externalIds;
    if (users.length === 0) {
      const members = (await admin.listEmbedGroupMembers(tenant, id, { first: PICK })).items as Item[];
      if (given) users = members.filter((m) => given.includes(String(m['externalId'])));
      else {
        if (members.length === 0) throw new Error(`"${gname}" has no members.`);
        users = await this.prompter.pickMany(
          `Remove Members from "${gname}"`,
          members.map((u) => ({
            label: userLabel(u),
            description: userDetail(u),
            id: String(u['externalId'] ?? u['id']),
            value: u,
          })),
          { placeHolder: 'Check the members to remove' },
        );
      }
      if (users.length === 0) throw new UserCancelled();
    }
    const names = users.map(userLabel);
    await confirmRemoval(
      this.deps,
      users.length === 1
        ? `Remove ${names[0]} from the embed group "${gname}"?`
        : `Remove ${users.length} members from the embed group "${gname}"?`,
      `${users.length > 1 ? `${names.slice(0, 10).join(', ')}${names.length > 10 ? ', …' : ''}. ` : ''}Only this group's membership is dropped: the users and their other groups stay.`,
      'Remove',
    );
    await admin.removeEmbedGroupMembers(tenant, id, {
      members: users.map((u) => ({ embedUserId: Number(u['id']) })),
    });
    this.refresh(tenantNode);
    void vscode.window.showInformationMessage(
      users.length === 1
        ? `${names[0]} removed from "${gname}".`
        : `${users.length} members removed from "${gname}".`,
    );
    return users.length;
  }

  /** The tenant's embed user with this external id (compared without case, as the service stores it), if any. */
  private async embedUserByExternalId(tenant: string, externalId: string): Promise<Item | undefined> {
    const admin = await this.admin();
    const want = externalId.trim().toLowerCase();
    const found = await admin.listEmbedUsers(tenant, { first: PICK, search: externalId.trim() });
    return (found.items as Item[]).find((u) => String(u['externalId'] ?? '').toLowerCase() === want);
  }

  // ---- provisioning

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
