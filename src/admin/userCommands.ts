// Administration commands on users, roles and SCIM groups. Users are picked by name (SCIM list,
// searchable by user name), roles and groups from their lists; every removal is a modal naming it.
import * as vscode from 'vscode';
import { scimUserLabel, userNameFilter, type ScimUser } from '../api/platform/admin/scim';
import { emailProblem } from '../api/platform/admin/users';
import { COMMANDS } from '../commands';
import { plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import { type ListNode } from '../explorer/nodes/listNode';
import type { ExplorerNode } from '../explorer/nodes/types';
import { asArgs } from '../explorer/targets';
import {
  confirmRemoval,
  lookupFor,
  pickItem,
  platformIdOf,
  rememberPlatformUser,
  subjectNode,
  type Reg,
  AdminCommandSet,
} from './adminContext';

const PICK = 200;

function scimIdOf(u: ScimUser): string {
  if (!u.id) throw new Error(`The user "${plainText(scimUserLabel(u))}" has no SCIM id: refresh Users.`);
  return u.id;
}

export class UserCommands extends AdminCommandSet {
  register(reg: Reg): vscode.Disposable[] {
    return [
      reg(COMMANDS.adminSearchUsers, (a) => this.searchUsers(a)),
      reg(COMMANDS.adminClearUsersSearch, () => this.setUsersFilter(undefined)),
      reg(COMMANDS.adminCreateUser, (a) => this.createUser(a)),
      reg(COMMANDS.adminDeactivateUser, (a) => this.setActive(a, false)),
      reg(COMMANDS.adminActivateUser, (a) => this.setActive(a, true)),
      reg(COMMANDS.adminDeleteUser, (a) => this.deleteUser(a)),
      reg(COMMANDS.adminAssignRole, (a) => this.role(a, 'assign')),
      reg(COMMANDS.adminRemoveRole, (a) => this.role(a, 'remove')),
      reg(COMMANDS.adminAddGroupMember, (a) => this.groupMember(a, 'add')),
      reg(COMMANDS.adminRemoveGroupMember, (a) => this.groupMember(a, 'remove')),
    ];
  }

  private get usersList(): ListNode {
    return this.deps.provider.roots.admin.users;
  }

  /** Filters Users on the server (`userName eq "…"`); an empty answer clears the search. */
  async searchUsers(arg?: unknown): Promise<void> {
    const given = asArgs<{ userName: string }>(arg).userName;
    const text =
      given ??
      (await this.prompter.input({
        title: 'Search Users',
        prompt: 'The user name (usually the e-mail) to find; leave empty to show every user.',
        placeHolder: 'jane@example.com',
      }));
    this.setUsersFilter(text.trim() ? userNameFilter(text.trim()) : undefined);
  }

  setUsersFilter(filter: string | undefined): void {
    const list = this.usersList;
    list.setSpec({ kind: 'admin', admin: { list: 'scimUsers', ...(filter ? { filter } : {}) } });
    this.deps.provider.changedRow(list);
    void vscode.commands.executeCommand('setContext', 'dashboardPlatform.admin.usersFiltered', !!filter);
  }

  /**
   * The SCIM user a command acts on: the node, `{userName}` in the arguments, else a pick among the
   * users `offer` accepts (`none` says why there is nobody to pick). The list is looked up for
   * `doing`, which a member refused it reads.
   */
  private async user(
    arg: unknown,
    title: string,
    doing: string,
    offer: (u: ScimUser) => boolean = () => true,
    none = 'There are no users.',
  ): Promise<{ user: ScimUser; node?: ExplorerNode }> {
    const node = subjectNode(this.deps, arg, 'user');
    if (node?.data) return { user: node.data as ScimUser, node };
    const admin = await this.admin();
    const userName = asArgs<{ userName: string }>(arg).userName;
    const page = await lookupFor(doing, () =>
      admin.listScimUsers(userName ? { first: 1, filter: userNameFilter(userName) } : { first: PICK }),
    );
    if (userName) {
      const found = page.items[0];
      if (!found) throw new Error(`There is no user named "${plainText(userName)}".`);
      return { user: found };
    }
    const picked = await pickItem(
      this.deps,
      title,
      page.items.filter(offer) as Item[],
      (u) => scimUserLabel(u as ScimUser),
      (u) => (u as ScimUser).userName ?? undefined,
      none,
    );
    return { user: picked as ScimUser };
  }

  async createUser(arg?: unknown): Promise<Item> {
    const a = asArgs<{ email: string; firstName: string }>(arg);
    const email =
      a.email ??
      (await this.prompter.input({
        title: 'Create User (1/2)',
        prompt: 'E-mail of the new user (also the user name).',
        validate: emailProblem,
      }));
    const firstName =
      a.firstName ??
      (await this.prompter.input({ title: 'Create User (2/2)', prompt: 'First name (optional).' }));
    const created = await (
      await this.admin()
    ).createUser({
      email: email.trim(),
      username: email.trim(),
      ...(firstName.trim() ? { firstName: firstName.trim() } : {}),
    });
    rememberPlatformUser(created.email ?? email.trim(), Number(created.id));
    this.deps.provider.refresh(this.usersList);
    void vscode.window.showInformationMessage(`User ${plainText(created.email ?? email)} created.`);
    return created;
  }

  /** Activates or deactivates through SCIM (`active`), which takes the SCIM id of any shape. */
  async setActive(arg: unknown, active: boolean): Promise<void> {
    const { user } = await this.user(
      arg,
      active ? 'User to activate' : 'User to deactivate',
      active ? 'Activating users' : 'Deactivating users',
      (u) => (u.active !== false) !== active,
      active ? 'Every user is active.' : 'No user is active.',
    );
    const name = plainText(scimUserLabel(user));
    if ((user.active !== false) === active)
      throw new Error(`${name} is already ${active ? 'active' : 'inactive'}.`);
    if (!active)
      await confirmRemoval(
        this.deps,
        `Deactivate ${name}?`,
        `${name} loses access and their sessions end. You can activate the user again later.`,
        'Deactivate',
      );
    await (await this.admin()).setScimUserActive(scimIdOf(user), active);
    this.deps.provider.refresh(this.usersList);
    void vscode.window.showInformationMessage(`${name} ${active ? 'activated' : 'deactivated'}.`);
  }

  async deleteUser(arg?: unknown): Promise<void> {
    const { user } = await this.user(arg, 'User to delete', 'Deleting users');
    const name = plainText(scimUserLabel(user));
    await confirmRemoval(
      this.deps,
      `Delete the user ${name}${user.userName && user.userName !== name ? ` (${plainText(user.userName)})` : ''}?`,
      'The user is removed from the tenant with their role assignments. This cannot be undone.',
      'Delete',
    );
    await (await this.admin()).deleteScimUser(scimIdOf(user));
    this.deps.provider.refresh(this.usersList);
    void vscode.window.showInformationMessage(`User ${name} deleted.`);
  }

  /** Assigns or removes a role: the user from the node or a pick, the role picked by name. */
  async role(arg: unknown, op: 'assign' | 'remove'): Promise<void> {
    const doing = op === 'assign' ? 'Assigning roles' : 'Removing roles from a user';
    const { user } = await this.user(
      arg,
      op === 'assign' ? 'User to give a role' : 'User to take a role from',
      doing,
    );
    const admin = await this.admin();
    const roleName = asArgs<{ role: string }>(arg).role;
    const name = plainText(scimUserLabel(user));
    const listed = (await lookupFor(doing, () => admin.listRoles({ first: PICK }))).items as Item[];
    // Where the user's record lists its roles, Remove offers those held and Assign the others; where
    // it does not (the SCIM document does not promise `roles`), every role is offered.
    const held = heldRoles(user);
    const offered = held ? listed.filter((r) => held.has(String(r['name'])) === (op === 'remove')) : listed;
    if (
      roleName &&
      held &&
      !offered.some((r) => r['name'] === roleName) &&
      listed.some((r) => r['name'] === roleName)
    ) {
      void vscode.window.showInformationMessage(
        op === 'remove'
          ? `${name} does not hold the role "${plainText(roleName)}": nothing to remove.`
          : `${name} already holds the role "${plainText(roleName)}".`,
      );
      return;
    }
    const role = roleName
      ? listed.find((r) => r['name'] === roleName)
      : await pickItem(
          this.deps,
          'Role',
          offered,
          (r) => String(r['name']),
          (r) => (r['description'] as string) ?? undefined,
          listed.length === 0
            ? 'There are no custom roles.'
            : op === 'remove'
              ? `${name} holds no custom role.`
              : `${name} already holds every custom role.`,
        );
    if (!role) throw new Error(`There is no role named "${plainText(roleName)}".`);
    const rname = plainText(role['name']);
    // The platform id is asked (where it must be) before the confirmation, which then acts at once.
    const userId = await platformIdOf(
      this.deps,
      user,
      op === 'remove' ? 'Removing a role from a user needs' : 'Assigning a role needs',
    );
    if (op === 'remove') {
      await confirmRemoval(
        this.deps,
        `Remove the role "${rname}" from ${name}?`,
        `${name} loses what "${rname}" grants.`,
        'Remove Role',
      );
      await admin.removeRole(Number(role['id']), userId);
    } else {
      await admin.assignRole(Number(role['id']), userId);
    }
    // The user's row lists its roles (SCIM `roles`): fetch the users again so it shows the change.
    this.deps.provider.refresh(this.usersList);
    // Both calls succeed whether or not the role was held before (the document: "Role removed, or
    // was not held"), so the sentence says what is true after the call, not that it changed.
    void vscode.window.showInformationMessage(
      op === 'assign'
        ? `${name} now holds the role "${rname}".`
        : `${name} no longer holds the role "${rname}".`,
    );
  }

  /** Adds a user to a SCIM group, or removes a member (picked from the group's members). */
  async groupMember(arg: unknown, op: 'add' | 'remove'): Promise<void> {
    const admin = await this.admin();
    const doing = op === 'add' ? 'Adding group members' : 'Removing group members';
    const a = asArgs<{ group: string; userName: string }>(arg);
    const node = subjectNode(this.deps, arg, 'scimGroup');
    let group = node?.data;
    if (!group) {
      const groups = (await lookupFor(doing, () => admin.listScimGroups({ first: PICK }))).items as Item[];
      group = a.group
        ? groups.find((g) => g['displayName'] === a.group)
        : await pickItem(
            this.deps,
            'Group',
            groups,
            (g) => String(g['displayName']),
            undefined,
            'There are no groups.',
          );
      if (!group) throw new Error(`There is no group named "${plainText(a.group)}".`);
    }
    const gname = plainText(group['displayName']);
    const gid = String(group['id']);
    const memberNode = subjectNode(this.deps, arg, 'adminItem');
    if (op === 'add') {
      // Only users who are not members yet are offered (members are named by SCIM id).
      const members = new Set(
        ((Array.isArray(group['members']) ? group['members'] : []) as Item[]).map((m) => String(m['value'])),
      );
      const { user } = await this.user(
        a.userName ? { userName: a.userName } : {},
        `User to add to ${gname}`,
        doing,
        (u) => !members.has(String(u.id)),
        `Every user is already a member of ${gname}.`,
      );
      if (members.has(String(user.id)))
        throw new Error(`${plainText(scimUserLabel(user))} is already a member of ${gname}.`);
      await admin.changeGroupMembers(gid, { add: [String(user.id)] });
      void vscode.window.showInformationMessage(`${plainText(scimUserLabel(user))} added to ${gname}.`);
    } else {
      const members = (Array.isArray(group['members']) ? group['members'] : []) as Item[];
      const member =
        (memberNode?.parent === node && memberNode?.data
          ? members.find((m) => m['value'] === memberNode.data!['value'])
          : undefined) ??
        (a.userName ? members.find((m) => m['display'] === a.userName) : undefined) ??
        (await pickItem(
          this.deps,
          `Member of ${gname}`,
          members,
          (m) => String(m['display'] ?? m['value']),
          undefined,
          `${gname} has no members.`,
        ));
      const mname = plainText(member['display'] ?? member['value']);
      await confirmRemoval(
        this.deps,
        `Remove ${mname} from the group ${gname}?`,
        'Only the membership is removed; the user stays.',
        'Remove Member',
      );
      await admin.changeGroupMembers(gid, { remove: [String(member['value'])] });
      void vscode.window.showInformationMessage(`${mname} removed from ${gname}.`);
    }
    this.deps.provider.refresh(this.deps.provider.roots.admin.groups);
  }
}

/** The names a SCIM user's `roles` list holds (values and display names), if it has one. */
function heldRoles(u: ScimUser): Set<string> | undefined {
  const roles = (u as Record<string, unknown>)['roles'];
  if (!Array.isArray(roles)) return undefined;
  const names = new Set<string>();
  for (const r of roles) {
    if (typeof r === 'string') names.add(r);
    else if (r && typeof r === 'object')
      for (const k of ['value', 'display'])
        if (typeof (r as Record<string, unknown>)[k] === 'string')
          names.add((r as Record<string, string>)[k]!);
  }
  return names;
}
