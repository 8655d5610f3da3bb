// SCIM users and groups edited whole, in one form each: create a SCIM user, edit one (a replace:
// PUT sends the whole user, so the form starts from the user as read now and keeps every e-mail
// it has), and edit a group's name and members together (read afresh with GET, saved with one
// replace of the whole membership). Done is said only when the service confirms.
import * as vscode from 'vscode';
import {
  groupNameProblem,
  scimUserLabel,
  userNameFilter,
  type ScimGroup,
  type ScimUser,
  type ScimUserInput,
} from '../api/platform/admin/scim';
import { emailProblem } from '../api/platform/admin/users';
import { COMMANDS } from '../commands';
import { plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import { asArgs } from '../explorer/targets';
import { pickItem, subjectNode, type Reg, AdminCommandSet } from './adminContext';
import { onePageForm, onOff } from './form';

const PICK = 200;
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User' as const;
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group' as const;

interface UserDraft {
  userName: string;
  givenName: string;
  familyName: string;
  email: string;
  active: boolean;
  externalId: string;
}

/** The user as the form edits it (the primary e-mail, else the first). */
export function userDraftOf(u: ScimUser | undefined): UserDraft {
  const emails = u?.emails ?? [];
  return {
    userName: u?.userName ?? '',
    givenName: u?.name?.givenName ?? '',
    familyName: u?.name?.familyName ?? '',
    email: (emails.find((e) => e.primary) ?? emails[0])?.value ?? '',
    active: u?.active ?? true,
    externalId: u?.externalId ?? '',
  };
}

/** The whole user to send: the form's fields, and every other e-mail the user had, kept. */
export function userInputOf(d: UserDraft, before?: ScimUser): ScimUserInput {
  const others = (before?.emails ?? [])
    .filter((e) => e.value && e.value !== d.email && !e.primary)
    .map((e) => ({ value: e.value!, primary: false }));
  const name = {
    ...(d.givenName ? { givenName: d.givenName } : {}),
    ...(d.familyName ? { familyName: d.familyName } : {}),
  };
  return {
    schemas: [USER_SCHEMA],
    userName: d.userName.trim(),
    ...(Object.keys(name).length ? { name } : {}),
    ...(d.email || others.length
      ? { emails: [...(d.email ? [{ value: d.email, primary: true }] : []), ...others] }
      : {}),
    active: d.active,
    ...(d.externalId ? { externalId: d.externalId } : {}),
  };
}

export class ScimEditCommands extends AdminCommandSet {
  register(reg: Reg): vscode.Disposable[] {
    return [
      reg(COMMANDS.adminCreateScimUser, (a) => this.createUser(a)),
      reg(COMMANDS.adminEditScimUser, (a) => this.editUser(a)),
      reg(COMMANDS.adminEditGroup, (a) => this.editGroup(a)),
    ];
  }

  private async userForm(title: string, action: string, d: UserDraft): Promise<void> {
    const text = (label: string, key: 'givenName' | 'familyName' | 'externalId', prompt: string) => ({
      label,
      shown: () => plainText(d[key]) || '(none)',
      edit: async () => {
        d[key] = (
          await this.prompter.input({ title: `${title}: ${label.toLowerCase()}`, prompt, value: d[key] })
        ).trim();
      },
    });
    await onePageForm(
      this.prompter,
      title,
      [
        {
          label: 'User name',
          shown: () => plainText(d.userName) || '(none)',
          edit: async () => {
            d.userName = (
              await this.prompter.input({
                title: `${title}: user name`,
                prompt: 'The unique name the user signs in with, usually their e-mail.',
                value: d.userName,
                validate: (v) => (v.trim() ? undefined : 'Enter a user name.'),
              })
            ).trim();
            // A user name that is an e-mail is the e-mail too, unless one was given.
            if (!d.email && !emailProblem(d.userName)) d.email = d.userName;
          },
        },
        text('Given name', 'givenName', 'First name (optional).'),
        text('Family name', 'familyName', 'Last name (optional).'),
        {
          label: 'E-mail',
          shown: () => plainText(d.email) || '(none)',
          edit: async () => {
            d.email = (
              await this.prompter.input({
                title: `${title}: e-mail`,
                prompt: 'Primary e-mail address (empty for none).',
                value: d.email,
                validate: (v) => (v.trim() ? emailProblem(v) : undefined),
              })
            ).trim();
          },
        },
        {
          label: 'Active',
          shown: () => onOff(d.active),
          edit: async () => {
            d.active = await this.prompter.pick(`${title}: active`, [
              { label: 'on', detail: 'the user can sign in', value: true },
              { label: 'off', detail: 'the user is deactivated', value: false },
            ]);
          },
        },
        text('External id', 'externalId', "The identity provider's id of the user (optional)."),
      ],
      {
        label: action,
        problem: () =>
          !d.userName.trim()
            ? 'enter a user name'
            : d.email && emailProblem(d.email)
              ? 'the e-mail is not an address'
              : undefined,
      },
    );
  }

  async createUser(arg?: unknown): Promise<ScimUser> {
    const a = asArgs<Partial<UserDraft>>(arg);
    const d = { ...userDraftOf(undefined), ...a };
    if (a.userName === undefined) await this.userForm('Create SCIM User', 'Create User', d);
    const made = await (await this.admin()).createScimUser(userInputOf(d));
    this.deps.provider.refresh(this.roots.users);
    void vscode.window.showInformationMessage(`User ${plainText(scimUserLabel(made))} created.`);
    return made;
  }

  async editUser(arg?: unknown): Promise<ScimUser> {
    const admin = await this.admin();
    const node = subjectNode(this.deps, arg, 'user');
    let listed = node?.data as ScimUser | undefined;
    const byName = asArgs<{ user: string }>(arg).user;
    if (!listed && byName) {
      listed = (await admin.listScimUsers({ first: 1, filter: userNameFilter(byName) })).items[0];
      if (!listed) throw new Error(`There is no user named "${plainText(byName)}".`);
    }
    listed ??= (await pickItem(
      this.deps,
      'User to edit',
      (await admin.listScimUsers({ first: PICK })).items as Item[],
      (u) => scimUserLabel(u as ScimUser),
      (u) => (u as ScimUser).userName ?? undefined,
      'There are no users.',
    )) as ScimUser;
    if (!listed.id) throw new Error('This user has no SCIM id, so it cannot be edited.');
    // Read afresh: a replace sends the whole user, so it starts from the user as it is now.
    const current = await admin.getScimUser(listed.id);
    const before = userDraftOf(current);
    const changes = asArgs<{ changes: Partial<UserDraft> }>(arg).changes;
    const d = { ...before, ...changes };
    const label = plainText(scimUserLabel(current));
    if (!changes) await this.userForm(`Edit User ${label}`, 'Save', d);
    const changed = (Object.keys(d) as (keyof UserDraft)[]).filter((k) => d[k] !== before[k]);
    if (changed.length === 0) {
      void vscode.window.showInformationMessage(`Nothing to save: ${label} already has these values.`);
      return current;
    }
    const saved = await admin.replaceScimUser(listed.id, userInputOf(d, current));
    this.deps.provider.refresh(this.roots.users);
    void vscode.window.showInformationMessage(`User ${plainText(scimUserLabel(saved))} saved.`);
    return saved;
  }

  async editGroup(arg?: unknown): Promise<ScimGroup> {
    const admin = await this.admin();
    const node = subjectNode(this.deps, arg, 'scimGroup');
    const groups = (await admin.listScimGroups({ first: PICK })).items;
    let listed = node?.data as ScimGroup | undefined;
    const byName = asArgs<{ group: string }>(arg).group;
    if (!listed && byName) {
      listed = groups.find((g) => g.displayName === byName);
      if (!listed) throw new Error(`There is no group named "${plainText(byName)}".`);
    }
    listed ??= (await pickItem(
      this.deps,
      'Group to edit',
      groups as Item[],
      (g) => String(g['displayName'] ?? g['id']),
      undefined,
      'There are no groups.',
    )) as ScimGroup;
    if (!listed.id) throw new Error('This group has no SCIM id, so it cannot be edited.');
    // Read afresh (GET): the replace sends the whole membership, so it starts from it as it is now.
    const current = await admin.getScimGroup(listed.id);
    const oldName = current.displayName ?? '';
    const oldMembers = (current.members ?? []).map((m) => m.value).filter((v): v is string => !!v);
    const taken = groups.filter((g) => g.id !== current.id).map((g) => (g.displayName ?? '').toLowerCase());
    const a = asArgs<{ name: string; members: string[] }>(arg);
    let name = a.name ?? oldName;
    // Members by SCIM id; names for the ones listed (a member not among the users keeps its display).
    const users = (await admin.listScimUsers({ first: PICK })).items;
    const nameOf = new Map<string, string>(
      (current.members ?? []).filter((m) => m.value).map((m) => [m.value!, m.display ?? m.value!]),
    );
    for (const u of users) if (u.id) nameOf.set(u.id, scimUserLabel(u));
    let members = a.members
      ? a.members.map((n) => {
          const u = users.find((x) => x.userName === n || x.id === n || scimUserLabel(x) === n);
          if (!u?.id) throw new Error(`There is no user named "${plainText(n)}".`);
          return u.id;
        })
      : [...oldMembers];
    const nameRefusal = (v: string) =>
      groupNameProblem(v) ??
      (taken.includes(v.trim().toLowerCase())
        ? `A group named ${v.trim()} already exists (names are compared without regard to case): pick another name.`
        : undefined);
    const title = `Edit Group ${plainText(oldName)}`;
    if (a.name === undefined && a.members === undefined)
      await onePageForm(
        this.prompter,
        title,
        [
          {
            label: 'Name',
            shown: () => plainText(name) || '(none)',
            edit: async () => {
              name = (
                await this.prompter.input({
                  title: `${title}: name`,
                  prompt: 'The group’s name.',
                  value: name,
                  validate: nameRefusal,
                })
              ).trim();
            },
          },
          {
            label: 'Members',
            shown: () =>
              `${members.length}: ${members.map((m) => plainText(nameOf.get(m) ?? m)).join(', ') || '(none)'}`,
            edit: async () => {
              const choices = [...nameOf].map(([id, label]) => ({ label: plainText(label), id, value: id }));
              members = await this.prompter.pickMany(`${title}: members`, choices, {
                selected: (v) => members.includes(v),
                placeHolder: 'Check the members; unchecked ones leave the group',
              });
            },
          },
        ],
        { label: 'Save', problem: () => nameRefusal(name) },
      );
    const problem = nameRefusal(name);
    if (problem) throw new Error(`Group not saved: ${problem}`);
    const added = members.filter((m) => !oldMembers.includes(m));
    const removed = oldMembers.filter((m) => !members.includes(m));
    if (name.trim() === oldName && added.length === 0 && removed.length === 0) {
      void vscode.window.showInformationMessage(
        `Nothing to save: ${plainText(oldName)} already has these values.`,
      );
      return current;
    }
    const saved = await admin.replaceScimGroup(current.id!, {
      schemas: [GROUP_SCHEMA],
      displayName: name.trim(),
      members: members.map((value) => ({ value })),
    });
    this.deps.provider.refresh(this.roots.groups);
    const names = (ids: string[]) => ids.map((m) => plainText(nameOf.get(m) ?? m)).join(', ');
    const parts = [
      ...(name.trim() !== oldName ? [`renamed from ${plainText(oldName)}`] : []),
      ...(added.length ? [`added ${names(added)}`] : []),
      ...(removed.length ? [`removed ${names(removed)}`] : []),
    ];
    void vscode.window.showInformationMessage(
      `Group ${plainText(saved.displayName ?? name)} saved: ${parts.join('; ')}.`,
    );
    return saved;
  }
}
