// One action on many users (`/v1/users/bulk`: the multi-selection, `{userNames}` or a multi
// pick; one modal naming them; failures reported by name; an answer that never came said to be
// unknown) and SCIM groups (create, rename, delete after a modal naming the group).
import * as vscode from 'vscode';
import { ApiError, isApiError } from '../api/errors';
import { groupNameProblem, scimUserLabel, userNameFilter, type ScimUser } from '../api/platform/admin/scim';
import type { BulkUserAction } from '../api/platform/admin/users';
import { plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import { ExplorerNode } from '../explorer/nodes/types';
import { asArgs } from '../explorer/targets';
import {
  confirmRemoval,
  knownPlatformId,
  lookupFor,
  pickItem,
  subjectNode,
  AdminCommandSet,
} from './adminContext';

const PICK = 200;

const BULK: Record<BulkUserAction, { verb: string; doing: string; past: string; detail: string }> = {
  DEACTIVATE: {
    verb: 'Deactivate',
    doing: 'Deactivating users',
    past: 'deactivated',
    detail: 'They lose access and their sessions end. You can activate them again later.',
  },
  ACTIVATE: {
    verb: 'Activate',
    doing: 'Activating users',
    past: 'activated',
    detail: 'They get their access back.',
  },
  DELETE: {
    verb: 'Delete',
    doing: 'Deleting users',
    past: 'deleted',
    detail: 'They are removed from the tenant with their role assignments. This cannot be undone.',
  },
};

export class BulkGroupCommands extends AdminCommandSet {
  // ---- one action on many users

  private async manyUsers(action: BulkUserAction, arg: unknown, all: unknown): Promise<ScimUser[]> {
    const picked = Array.isArray(all) ? all.filter((n): n is ExplorerNode => n instanceof ExplorerNode) : [];
    const nodes = arg instanceof ExplorerNode ? (picked.includes(arg) ? picked : [arg]) : picked;
    const fromNodes = nodes.filter((n) => n.kind === 'user' && n.data).map((n) => n.data as ScimUser);
    if (fromNodes.length > 0) return fromNodes;
    const admin = await this.admin();
    const names = asArgs<{ userNames: string[] }>(arg).userNames;
    if (names) {
      const out: ScimUser[] = [];
      for (const n of names) {
        const u = (
          await lookupFor(BULK[action].doing, () =>
            admin.listScimUsers({ first: 1, filter: userNameFilter(n) }),
          )
        ).items[0];
        if (!u) throw new Error(`There is no user named "${plainText(n)}".`);
        out.push(u);
      }
      return out;
    }
    const users = (await lookupFor(BULK[action].doing, () => admin.listScimUsers({ first: PICK }))).items;
    const chosen = await this.prompter.pickMany(
      `${BULK[action].verb} Users`,
      users.map((u) => ({
        label: plainText(scimUserLabel(u)),
        ...(u.userName ? { description: plainText(u.userName) } : {}),
        value: u,
      })),
      { placeHolder: 'Check the users (at most 100)' },
    );
    return chosen;
  }

  /** One bulk action: a modal naming every user, then one request a hundred users. */
  async bulk(
    action: BulkUserAction,
    arg?: unknown,
    all?: unknown,
  ): Promise<{ succeeded: string[]; failed: string[] }> {
    const users = await this.manyUsers(action, arg, all);
    if (users.length === 0) throw new Error('No users picked.');
    const b = BULK[action];
    const label = (u: ScimUser) => plainText(scimUserLabel(u));
    const lines = users
      .slice(0, 15)
      .map(
        (u) => `• ${label(u)}${u.userName && u.userName !== label(u) ? ` (${plainText(u.userName)})` : ''}`,
      );
    if (users.length > 15) lines.push(`… and ${users.length - 15} more`);
    const what = users.length === 1 ? label(users[0]!) : `${users.length} users`;
    await confirmRemoval(this.deps, `${b.verb} ${what}?`, `${lines.join('\n')}\n\n${b.detail}`, b.verb);
    const admin = await this.admin();
    const succeeded: string[] = [];
    const failed: string[] = [];
    if (users.some((u) => knownPlatformId(u) === undefined)) {
      // SCIM ids that are not platform ids: one SCIM request per user (the bulk API takes platform ids).
      await this.bulkThroughScim(action, users, succeeded, failed);
      return this.bulkDone(b, what, users.length, succeeded, failed);
    }
    const byId = new Map(users.map((u) => [knownPlatformId(u)!, u]));
    const ids = [...byId.keys()];
    for (let i = 0; i < ids.length; i += 100) {
      const chunk = ids.slice(i, i + 100);
      try {
        const res = await admin.bulkUserAction(action, chunk);
        for (const id of res.succeeded) succeeded.push(label(byId.get(id) ?? { id: String(id) }));
        for (const f of res.failed) {
          const u = f.userId !== null && f.userId !== undefined ? byId.get(f.userId) : undefined;
          failed.push(
            `${u ? label(u) : `user ${String(f.userId)}`}: ${plainText(f.error?.message ?? `status ${String(f.error?.status ?? '?')}`)}`,
          );
        }
      } catch (e) {
        this.deps.provider.refresh(this.roots.users);
        if (isApiError(e) && e.kind === 'unknownOutcome') {
          const names = chunk.map((id) => label(byId.get(id)!)).join(', ');
          throw new ApiError(
            'unknownOutcome',
            `It is unknown whether ${names} ${chunk.length === 1 ? 'was' : 'were'} ${b.past}${succeeded.length ? ` (${succeeded.join(', ')} ${succeeded.length === 1 ? 'was' : 'were'})` : ''}: ${e.message} Refresh Users to see.`,
            e.check ? { check: e.check } : {},
          );
        }
        throw e;
      }
    }
    return this.bulkDone(b, what, ids.length, succeeded, failed);
  }

  private bulkDone(
    b: (typeof BULK)[BulkUserAction],
    what: string,
    total: number,
    succeeded: string[],
    failed: string[],
  ): { succeeded: string[]; failed: string[] } {
    this.deps.provider.refresh(this.roots.users);
    if (failed.length > 0)
      throw new Error(
        `${b.verb}: ${succeeded.length} of ${total} ${b.past}; not ${b.past}: ${failed.join('; ')}`,
      );
    void vscode.window.showInformationMessage(`${what} ${b.past}.`);
    return { succeeded, failed };
  }

  /** The bulk action as one SCIM request per user, in order; each outcome is reported. */
  private async bulkThroughScim(
    action: BulkUserAction,
    users: ScimUser[],
    succeeded: string[],
    failed: string[],
  ): Promise<void> {
    const admin = await this.admin();
    const label = (u: ScimUser) => plainText(scimUserLabel(u));
    for (const u of users) {
      try {
        if (!u.id) throw new Error('no SCIM id');
        if (action === 'DELETE') await admin.deleteScimUser(u.id);
        else await admin.setScimUserActive(u.id, action === 'ACTIVATE');
        succeeded.push(label(u));
      } catch (e) {
        if (isApiError(e) && e.kind === 'unknownOutcome') {
          this.deps.provider.refresh(this.roots.users);
          throw new ApiError(
            'unknownOutcome',
            `It is unknown whether ${label(u)} was ${BULK[action].past}${succeeded.length ? ` (${succeeded.join(', ')} ${succeeded.length === 1 ? 'was' : 'were'})` : ''}: ${e.message} Refresh Users to see.`,
            e.check ? { check: e.check } : {},
          );
        }
        failed.push(`${label(u)}: ${plainText(e instanceof Error ? e.message : String(e))}`);
      }
    }
  }

  // ---- SCIM groups

  /** The group a command acts on (`doing`): the node, `{group: name}`, else a pick by name. */
  private async group(arg: unknown, title: string, doing: string): Promise<Item> {
    const node = subjectNode(this.deps, arg, 'scimGroup');
    if (node?.data) return node.data;
    const name = asArgs<{ group: string }>(arg).group;
    const admin = await this.admin();
    const groups = (await lookupFor(doing, () => admin.listScimGroups({ first: PICK }))).items as Item[];
    if (name) {
      const g = groups.find((x) => x['displayName'] === name);
      if (!g) throw new Error(`There is no group named "${plainText(name)}".`);
      return g;
    }
    return pickItem(
      this.deps,
      title,
      groups,
      (g) => String(g['displayName']),
      undefined,
      'There are no groups.',
    );
  }

  /**
   * Why a typed group name cannot be used: the rows' own rule (so the box refuses what the call
   * would, in words), or a name another group has (compared without regard to case, as the
   * service does).
   */
  private async nameRefusal(doing: string, selfId?: unknown): Promise<(v: string) => string | undefined> {
    const admin = await this.admin();
    const groups = (await lookupFor(doing, () => admin.listScimGroups({ first: PICK }))).items;
    const taken = groups.filter((g) => g.id !== selfId).map((g) => (g.displayName ?? '').toLowerCase());
    return (v) =>
      groupNameProblem(v) ??
      (taken.includes(v.trim().toLowerCase())
        ? `A group named ${v.trim()} already exists (names are compared without regard to case): pick another name.`
        : undefined);
  }

  async createGroup(arg?: unknown): Promise<Item> {
    const name =
      asArgs<{ name: string }>(arg).name ??
      (await this.prompter.input({
        title: 'Create Group',
        prompt: 'Name of the new group (members are added afterwards).',
        validate: await this.nameRefusal('Creating groups'),
      }));
    const g = await (await this.admin()).createScimGroup(name.trim());
    this.deps.provider.refresh(this.roots.groups);
    void vscode.window.showInformationMessage(`Group ${plainText(g.displayName ?? name)} created.`);
    return g;
  }

  async renameGroup(arg?: unknown): Promise<Item> {
    const g = await this.group(arg, 'Group to rename', 'Renaming groups');
    const old = String(g['displayName'] ?? '');
    const name =
      asArgs<{ name: string }>(arg).name ??
      (await this.prompter.input({
        title: `Rename ${plainText(old)}`,
        prompt: 'New name of the group.',
        value: old,
        validate: await this.nameRefusal('Renaming groups', g['id']),
      }));
    const saved = await (await this.admin()).renameScimGroup(String(g['id']), name.trim());
    this.deps.provider.refresh(this.roots.groups);
    void vscode.window.showInformationMessage(
      `Group ${plainText(old)} renamed to ${plainText(saved.displayName ?? name)}.`,
    );
    return saved;
  }

  async deleteGroup(arg?: unknown): Promise<void> {
    const g = await this.group(arg, 'Group to delete', 'Deleting groups');
    const name = plainText(g['displayName']);
    const members = Array.isArray(g['members']) ? g['members'].length : 0;
    await confirmRemoval(
      this.deps,
      `Delete the group ${name}?`,
      `${members} member${members === 1 ? '' : 's'} lose${members === 1 ? 's' : ''} the membership; the users themselves stay. This cannot be undone.`,
      'Delete Group',
    );
    await (await this.admin()).deleteScimGroup(String(g['id']));
    this.deps.provider.refresh(this.roots.groups);
    void vscode.window.showInformationMessage(`Group ${name} deleted.`);
  }
}
