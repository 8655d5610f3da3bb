// Administration commands of the users side: user attributes (create, edit; the document publishes
// no delete), a user's attribute values (set with an input that fits the type, clear); bulk user
// actions and SCIM groups are in bulkGroupCommands.ts. Every removal is a modal naming what goes.
import * as vscode from 'vscode';
import { ATTRIBUTE_TYPES, parseAttributeValue, type AttributeValue } from '../api/platform/admin/attributes';
import { scimUserLabel, userNameFilter, type ScimUser } from '../api/platform/admin/scim';
import { COMMANDS } from '../commands';
import { plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import type { ExplorerNode } from '../explorer/nodes/types';
import { asArgs } from '../explorer/targets';
import {
  confirmRemoval,
  lookupFor,
  pickItem,
  platformIdOf,
  subjectNode,
  type AdminDeps,
  AdminCommandSet,
} from './adminContext';
import { BulkGroupCommands } from './bulkGroupCommands';
import { valueText } from '../explorer/admin/usersNodes';

const PICK = 200;
type Reg2 = (
  spec: { id: string; title: string },
  fn: (arg?: unknown, all?: unknown) => unknown,
) => vscode.Disposable;

export class UsersCommands extends AdminCommandSet {
  /** Bulk user actions and SCIM groups. */
  readonly many: BulkGroupCommands;
  constructor(deps: AdminDeps) {
    super(deps);
    this.many = new BulkGroupCommands(deps);
  }

  register(reg: Reg2): vscode.Disposable[] {
    return [
      reg(COMMANDS.adminCreateUserAttribute, (a) => this.createAttribute(a)),
      reg(COMMANDS.adminEditUserAttribute, (a) => this.editAttribute(a)),
      reg(COMMANDS.adminSetUserAttributeValue, (a) => this.setValue(a, false)),
      reg(COMMANDS.adminClearUserAttributeValue, (a) => this.setValue(a, true)),
      reg(COMMANDS.adminDeactivateUsers, (a, all) => this.many.bulk('DEACTIVATE', a, all)),
      reg(COMMANDS.adminActivateUsers, (a, all) => this.many.bulk('ACTIVATE', a, all)),
      reg(COMMANDS.adminDeleteUsers, (a, all) => this.many.bulk('DELETE', a, all)),
      reg(COMMANDS.adminCreateGroup, (a) => this.many.createGroup(a)),
      reg(COMMANDS.adminRenameGroup, (a) => this.many.renameGroup(a)),
      reg(COMMANDS.adminDeleteGroup, (a) => this.many.deleteGroup(a)),
    ];
  }

  // ---- user attributes

  async createAttribute(arg?: unknown): Promise<Item> {
    const a = asArgs<{ name: string; type: string; displayName: string }>(arg);
    const name =
      a.name ??
      (await this.prompter.input({
        title: 'Create User Attribute (1/3)',
        prompt: 'Name of the attribute (used in security contexts and embed sessions).',
        placeHolder: 'region',
        validate: (v) => (v.trim() ? undefined : 'Enter a name.'),
      }));
    const type =
      a.type ??
      (await this.prompter.pick(
        'Create User Attribute (2/3)',
        ATTRIBUTE_TYPES.map((t) => ({ label: t, value: t as string })),
        'The type of its values',
      ));
    const displayName =
      a.displayName ??
      (await this.prompter.input({
        title: 'Create User Attribute (3/3)',
        prompt: 'Display name (optional).',
      }));
    const created = await (
      await this.admin()
    ).createUserAttribute({
      name: name.trim(),
      type: type as (typeof ATTRIBUTE_TYPES)[number],
      ...(displayName.trim() ? { displayName: displayName.trim() } : {}),
    });
    this.deps.provider.refresh(this.roots.userAttributes);
    void vscode.window.showInformationMessage(`User attribute "${plainText(created.name)}" created.`);
    return created;
  }

  /** The attribute a command acts on (`doing`): the node, `{attribute}` (its name), else a pick. */
  private async attribute(arg: unknown, title: string, doing: string): Promise<Item> {
    const node = subjectNode(this.deps, arg, 'userAttribute');
    if (node?.data) return node.data;
    const name = asArgs<{ attribute: string }>(arg).attribute;
    const admin = await this.admin();
    const all = (await lookupFor(doing, () => admin.listUserAttributes({ first: PICK }))).items as Item[];
    if (name) {
      const found = all.find((x) => x['name'] === name);
      if (!found) throw new Error(`There is no user attribute named "${plainText(name)}".`);
      return found;
    }
    return pickItem(
      this.deps,
      title,
      all,
      (x) => String(x['displayName'] ?? x['name']),
      (x) => `${plainText(x['name'])} · ${plainText(x['type'])}`,
      'There are no user attributes: create one first.',
    );
  }

  /** Edits display name, description and default value (name and type cannot change). */
  async editAttribute(arg?: unknown): Promise<Item> {
    const attr = await this.attribute(arg, 'User attribute to edit', 'Changing user attributes');
    const given = asArgs<{ displayName: string; description: string; defaultValue: string }>(arg);
    const ask = async (field: string, prompt: string, step: number) => {
      const v = (given as Record<string, string | undefined>)[field];
      if (v !== undefined) return v;
      return this.prompter.input({
        title: `Edit ${plainText(attr['name'])} (${step}/3)`,
        prompt,
        value: typeof attr[field] === 'string' ? (attr[field] as string) : '',
      });
    };
    const displayName = await ask('displayName', 'Display name (empty for none).', 1);
    const description = await ask('description', 'Description (empty for none).', 2);
    const defaultValue = await ask(
      'defaultValue',
      `Default value, as text (type ${String(attr['type'])}).`,
      3,
    );
    if (defaultValue.trim()) {
      const parsed = parseAttributeValue(String(attr['type']), defaultValue.trim());
      if ('error' in parsed) throw new Error(`Default value: ${parsed.error}`);
    }
    const none = (s: string) => (s.trim() ? s.trim() : null);
    const saved = await (
      await this.admin()
    ).updateUserAttribute(Number(attr['id']), {
      displayName: none(displayName),
      description: none(description),
      defaultValue: none(defaultValue),
    });
    this.deps.provider.refresh(this.roots.userAttributes);
    void vscode.window.showInformationMessage(`User attribute "${plainText(saved.name)}" saved.`);
    return saved;
  }

  // ---- attribute values per user

  /** The SCIM user (for `doing`): the node (a user or one of its values), `{userName}`, else a pick. */
  private async user(
    arg: unknown,
    title: string,
    doing: string,
  ): Promise<{ user: ScimUser; node?: ExplorerNode }> {
    const node = subjectNode(this.deps, arg, 'user');
    if (node?.data) return { user: node.data as ScimUser, node };
    const admin = await this.admin();
    const userName = asArgs<{ userName: string }>(arg).userName;
    const list = (q: { first: number; filter?: string }) => lookupFor(doing, () => admin.listScimUsers(q));
    if (userName) {
      const found = (await list({ first: 1, filter: userNameFilter(userName) })).items[0];
      if (!found) throw new Error(`There is no user named "${plainText(userName)}".`);
      return { user: found };
    }
    const users = (await list({ first: PICK })).items as Item[];
    const picked = await pickItem(
      this.deps,
      title,
      users,
      (u) => scimUserLabel(u as ScimUser),
      (u) => (u as ScimUser).userName ?? undefined,
      'There are no users.',
    );
    return { user: picked as ScimUser };
  }

  /**
   * Sets (or clears) a user's value of one attribute. The input fits the type: a boolean is
   * picked, a number is refused while it is not one, arrays are comma-separated.
   */
  async setValue(arg: unknown, clear: boolean): Promise<Item> {
    const doing = clear ? 'Clearing user attribute values' : 'Setting user attribute values';
    const { user, node } = await this.user(
      arg,
      clear ? 'User whose value to clear' : 'User to set a value for',
      doing,
    );
    const admin = await this.admin();
    const userId = await platformIdOf(this.deps, user, 'Attribute values need');
    const uname = plainText(scimUserLabel(user));
    const a = asArgs<{ attribute: string; value: string }>(arg);
    const valueNode = subjectNode(this.deps, arg, 'attributeValue');
    let attr: Item | undefined;
    if (valueNode?.data && valueNode.parent === node) {
      const v = valueNode.data;
      attr = { id: v['userAttributeId'], name: v['name'], displayName: v['displayName'], type: v['type'] };
    } else if (clear && !a.attribute) {
      const set = (await admin.getUserAttributeValues(userId)).items as Item[];
      const v = await pickItem(
        this.deps,
        `Value of ${uname} to clear`,
        set,
        (x) => String(x['displayName'] ?? x['name']),
        (x) => valueText(x['value']),
        `${uname} has no attribute values set.`,
      );
      attr = { id: v['userAttributeId'], name: v['name'], displayName: v['displayName'], type: v['type'] };
    } else
      attr = await this.attribute(a.attribute ? { attribute: a.attribute } : {}, 'User attribute', doing);
    const aname = plainText(attr['displayName'] ?? attr['name']);
    let value: AttributeValue = null;
    if (clear) {
      await confirmRemoval(
        this.deps,
        `Clear ${uname}'s value of "${aname}"?`,
        'The user falls back to the attribute’s default value, if any.',
        'Clear Value',
      );
    } else {
      value = await this.askValue(String(attr['type']), aname, uname, a.value);
    }
    const saved = await admin.setUserAttributeValue(userId, Number(attr['id']), value);
    if (node) this.deps.provider.refresh(node);
    void vscode.window.showInformationMessage(
      clear
        ? `Cleared ${uname}'s value of "${aname}".`
        : `${uname}'s "${aname}" is now ${plainText(valueText(saved.value ?? value) ?? '')}.`,
    );
    return saved;
  }

  private async askValue(
    type: string,
    aname: string,
    uname: string,
    given?: string,
  ): Promise<AttributeValue> {
    const title = `${aname} for ${uname}`;
    let text = given;
    if (text === undefined && type === 'boolean')
      text = await this.prompter.pick(
        title,
        [
          { label: 'true', value: 'true' },
          { label: 'false', value: 'false' },
        ],
        'The value (a boolean)',
      );
    text ??= await this.prompter.input({
      title,
      prompt:
        type === 'number'
          ? 'A number.'
          : type.endsWith('_array')
            ? `Values separated by commas (${type.replace('_array', '')}s).`
            : `The value (${type}).`,
      validate: (v) => {
        const p = parseAttributeValue(type, v);
        return 'error' in p ? p.error : undefined;
      },
    });
    const parsed = parseAttributeValue(type, text);
    if ('error' in parsed) throw new Error(`${aname}: ${parsed.error}`);
    return parsed.value;
  }
}
