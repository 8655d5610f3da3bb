// Administration commands on an embed tenant's groups: create a group (name and description on one
// form), edit its description (the name is immutable as published: it is part of the embed
// session's security context), delete it (a modal naming it; members are removed first when it has
// some, since the service deletes only empty groups), add members (a multi-pick of the tenant's
// users by e-mail or name) and remove them. Tenants and groups are picked by name.
import * as vscode from 'vscode';
import { EmbedGroupNameSchema, type EmbedUser } from '../api/platform/admin/embed';
import { COMMANDS } from '../commands';
import { UserCancelled } from '../log';
import { plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import { ExplorerNode } from '../explorer/nodes/types';
import { asArgs } from '../explorer/targets';
import { confirmRemoval, subjectNode } from './adminContext';
import { batches } from './embedProvisionFile';
import {
  EmbedTenantCommandSet,
  n,
  PICK,
  rule,
  userDetail,
  userLabel,
  type Reg2,
} from './embedTenantCommandSet';

export class EmbedGroupCommands extends EmbedTenantCommandSet {
  register(reg: Reg2): vscode.Disposable[] {
    return [
      reg(COMMANDS.adminCreateEmbedGroup, (a) => this.createGroup(a)),
      reg(COMMANDS.adminEditEmbedGroup, (a) => this.editGroup(a)),
      reg(COMMANDS.adminDeleteEmbedGroup, (a) => this.deleteGroup(a)),
      reg(COMMANDS.adminAddEmbedGroupMembers, (a) => this.addMembers(a)),
      reg(COMMANDS.adminRemoveEmbedGroupMembers, (a, all) => this.removeMembers(a, all)),
    ];
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
}
