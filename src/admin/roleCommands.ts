// Custom roles: create and edit in one form (name, description, base role, deployments and the
// actions granted on them; any other policy a role holds is kept as it is), delete after a modal
// naming the role. Built-in roles are not listed, so they are never offered here. Done is said
// only when the service confirms; a save sends only what changed (`policies` replaces them all).
import * as vscode from 'vscode';
import {
  POLICY_ACTIONS,
  roleNameProblem,
  type PolicyAction,
  type PolicyInput,
  type Role,
  type RoleUpdateInput,
} from '../api/platform/admin/roles';
import { COMMANDS } from '../commands';
import { plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import { asArgs } from '../explorer/targets';
import { confirmRemoval, lookupFor, pickItem, subjectNode, type Reg, AdminCommandSet } from './adminContext';
import { onePageForm } from './form';

const PICK = 200;

/** The license tiers a role's `Global` policy names (the console's "Base Role"). */
export const TIERS = [
  { action: 'AIBIDevelop', label: 'Developer', detail: 'builds models and dashboards' },
  { action: 'AIBIExplore', label: 'Explorer', detail: 'explores data and builds workbooks' },
  { action: 'AIBIView', label: 'Viewer', detail: 'views dashboards' },
] as const;
const TIER_ACTIONS: readonly string[] = TIERS.map((t) => t.action);
/** What a deployment policy may grant: every published action but the tiers. */
const DEPLOYMENT_ACTIONS = POLICY_ACTIONS.filter(
  (a) => !TIER_ACTIONS.includes(a) && !['AIBIDeveloper', 'AIBIUser', 'AIBIViewer'].includes(a),
);
/** The deployment actions the console allows below the Developer tier (the rest force it). */
const BELOW_DEVELOPER = ['DeploymentRead', 'DeploymentAgentRead', 'DownloadData', 'ChatHistoryRead'];

/** The editable parts of a role, and the policies the form leaves alone. */
export interface RoleDraft {
  name: string;
  description: string;
  tier: string | undefined;
  /** Deployment ids as strings, or ["All"]. */
  deployments: string[];
  actions: PolicyAction[];
  kept: PolicyInput[];
}

/** A role read back into the form: its first tier policy and first Deployment policy; the rest kept. */
export function draftOf(role: Role | undefined): RoleDraft {
  const draft: RoleDraft = {
    name: role?.name ?? '',
    description: role?.description ?? '',
    tier: undefined,
    deployments: [],
    actions: [],
    kept: [],
  };
  let deploymentSeen = false;
  for (const p of role?.policies ?? []) {
    const actions = p.actions ?? [];
    const resources = p.resources ?? [];
    if (
      p.resourceType === 'Global' &&
      draft.tier === undefined &&
      actions.length === 1 &&
      TIER_ACTIONS.includes(actions[0]!)
    )
      draft.tier = actions[0];
    else if (p.resourceType === 'Deployment' && !deploymentSeen) {
      deploymentSeen = true;
      draft.deployments = [...resources];
      draft.actions = actions as PolicyAction[];
    } else draft.kept.push({ ...p, actions, resources } as PolicyInput);
  }
  return draft;
}

/** The policies a draft sends: the tier, the deployment grant, then the ones kept. */
export function policiesOf(d: RoleDraft): PolicyInput[] {
  return [
    ...(d.tier
      ? [{ resourceType: 'Global' as const, actions: [d.tier as PolicyAction], resources: ['All'] }]
      : []),
    ...(d.deployments.length > 0 && d.actions.length > 0
      ? [{ resourceType: 'Deployment' as const, actions: d.actions, resources: d.deployments }]
      : []),
    ...d.kept,
  ];
}

/** Why the form cannot be sent yet. */
export function draftProblem(d: RoleDraft, taken: readonly string[]): string | undefined {
  const name = roleNameProblem(d.name, taken);
  if (name) return name;
  if (d.description.length > 255)
    return `A description has at most 255 characters (this one has ${d.description.length}).`;
  if (d.deployments.length > 0 && d.actions.length === 0)
    return 'Pick the actions granted on the deployments.';
  if (d.actions.length > 0 && d.deployments.length === 0) return 'Pick the deployments the actions apply to.';
  return undefined;
}

export class RoleCommands extends AdminCommandSet {
  register(reg: Reg): vscode.Disposable[] {
    return [
      reg(COMMANDS.adminCreateRole, (a) => this.createRole(a)),
      reg(COMMANDS.adminEditRole, (a) => this.editRole(a)),
      reg(COMMANDS.adminDeleteRole, (a) => this.deleteRole(a)),
    ];
  }

  /**
   * The custom roles, listed for `doing` (a form's taken names, a pick): a member refused the list
   * is told what they tried ("Creating roles needs the admin role"), not that a list was refused.
   */
  private async roles(doing: string): Promise<Role[]> {
    return lookupFor(doing, async () => (await (await this.client()).admin.listRoles({ first: PICK })).items);
  }

  /** The role a command acts on: the node, `{role: name}`, else a pick by name. */
  private async role(arg: unknown, title: string, doing: string): Promise<Role> {
    const node = subjectNode(this.deps, arg, 'role');
    if (node?.data) return node.data as Role;
    const roles = await this.roles(doing);
    const name = asArgs<{ role: string }>(arg).role;
    if (name) {
      const r = roles.find((x) => x.name === name);
      if (!r) throw new Error(`There is no custom role named "${plainText(name)}".`);
      return r;
    }
    return (await pickItem(
      this.deps,
      title,
      roles as Item[],
      (r) => String(r['name']),
      (r) => (typeof r['description'] === 'string' ? r['description'] : undefined),
      'There are no custom roles (built-in roles cannot be changed).',
    )) as Role;
  }

  /** The form, filled from `draft`; resolves when the user picks the action with nothing missing. */
  private async form(title: string, action: string, draft: RoleDraft, taken: string[]): Promise<void> {
    const names = new Map<string, string>();
    const deploymentNames = async () => {
      if (names.size === 0)
        for (const d of (await (await this.client()).listDeployments({ first: PICK })).items)
          names.set(String(d.id), String(d.name ?? `Deployment ${d.id}`));
      return names;
    };
    await deploymentNames();
    const shownDeployments = () =>
      draft.deployments.length === 0
        ? '(none)'
        : draft.deployments
            .map((r) => (r === 'All' ? 'all deployments' : plainText(names.get(r) ?? `#${r}`)))
            .join(', ');
    const tierWarning = () =>
      draft.actions.some((a) => !BELOW_DEVELOPER.includes(a)) && draft.tier && draft.tier !== 'AIBIDevelop'
        ? ' (the console asks for Developer for these actions)'
        : '';
    await onePageForm(
      this.prompter,
      title,
      [
        {
          label: 'Name',
          shown: () => plainText(draft.name) || '(none)',
          edit: async () => {
            draft.name = (
              await this.prompter.input({
                title: `${title}: name`,
                prompt: 'A unique name (built-in role names are refused).',
                value: draft.name,
                validate: (v) => roleNameProblem(v, taken),
              })
            ).trim();
          },
        },
        {
          label: 'Description',
          shown: () => plainText(draft.description) || '(none)',
          edit: async () => {
            draft.description = (
              await this.prompter.input({
                title: `${title}: description`,
                prompt: 'What the role is for (optional, at most 255 characters).',
                value: draft.description,
                validate: (v) =>
                  v.trim().length > 255 ? `At most 255 characters (this has ${v.trim().length}).` : undefined,
              })
            ).trim();
          },
        },
        {
          label: 'Base role',
          shown: () => TIERS.find((t) => t.action === draft.tier)?.label ?? '(none: another role gives it)',
          edit: async () => {
            draft.tier = await this.prompter.pick<string | undefined>(
              `${title}: base role`,
              [
                ...TIERS.map((t) => ({
                  label: t.label,
                  description: t.action,
                  detail: t.detail,
                  value: t.action as string,
                })),
                {
                  label: 'None',
                  detail: 'only when another role the user holds gives the base role',
                  value: undefined,
                },
              ],
              { active: (v) => v === draft.tier },
            );
          },
        },
        {
          label: 'Deployments',
          shown: shownDeployments,
          edit: async () => {
            const all = await deploymentNames();
            draft.deployments = await this.prompter.pickMany(
              `${title}: deployments`,
              [
                { label: 'All deployments', description: 'now and later', value: 'All' },
                ...[...all].map(([id, name]) => ({
                  label: plainText(name),
                  description: `#${id}`,
                  value: id,
                })),
              ],
              {
                selected: (v) => draft.deployments.includes(v),
                placeHolder: 'The deployments the actions apply to',
              },
            );
            if (draft.deployments.includes('All')) draft.deployments = ['All'];
          },
        },
        {
          label: 'Deployment actions',
          shown: () => (draft.actions.length ? draft.actions.join(', ') + tierWarning() : '(none)'),
          edit: async () => {
            draft.actions = await this.prompter.pickMany(
              `${title}: deployment actions`,
              DEPLOYMENT_ACTIONS.map((a) => ({
                label: a,
                ...(BELOW_DEVELOPER.includes(a) ? {} : { description: 'Developer base role' }),
                value: a,
              })),
              {
                selected: (v) => draft.actions.includes(v),
                placeHolder: 'What the role may do on those deployments',
              },
            );
          },
        },
        ...(draft.kept.length > 0
          ? [
              {
                label: 'Other policies',
                shown: () =>
                  `${draft.kept.length} kept as they are (${draft.kept.map((p) => p.resourceType).join(', ')})`,
                edit: async () => {
                  void vscode.window.showInformationMessage(
                    'Policies on other resource types are kept as they are; this form does not change them.',
                  );
                },
              },
            ]
          : []),
      ],
      { label: action, problem: () => draftProblem(draft, taken) },
    );
  }

  async createRole(arg?: unknown): Promise<Role> {
    const a = asArgs<{
      name: string;
      description: string;
      tier: string;
      deployments: string[];
      actions: PolicyAction[];
    }>(arg);
    const taken = (await this.roles('Creating roles')).map((r) => r.name);
    const draft: RoleDraft = {
      name: a.name ?? '',
      description: a.description ?? '',
      tier: a.tier,
      deployments: a.deployments ?? [],
      actions: a.actions ?? [],
      kept: [],
    };
    if (a.name === undefined) await this.form('Create Role', 'Create Role', draft, taken);
    const made = await (
      await this.client()
    ).admin.createRole({
      name: draft.name.trim(),
      ...(draft.description ? { description: draft.description } : {}),
      policies: policiesOf(draft),
    });
    this.deps.provider.refresh(this.deps.provider.roots.admin.roles);
    void vscode.window.showInformationMessage(`Role ${plainText(made.name)} created.`);
    return made;
  }

  async editRole(arg?: unknown): Promise<Role> {
    const listed = await this.role(arg, 'Role to edit', 'Changing roles');
    const admin = (await this.client()).admin;
    // Read afresh: the form starts from the role as it is now, not as the list showed it.
    const current = await admin.getRole(listed.id);
    const taken = (await this.roles('Changing roles')).filter((r) => r.id !== current.id).map((r) => r.name);
    const before = draftOf(current);
    const draft = { ...draftOf(current), ...asArgs<Partial<RoleDraft>>(arg) };
    if (asArgs<{ name: string }>(arg).name === undefined)
      await this.form(`Edit Role ${plainText(current.name)}`, 'Save', draft, taken);
    const change: RoleUpdateInput = {};
    if (draft.name.trim() !== before.name) change.name = draft.name.trim();
    if (draft.description !== before.description) change.description = draft.description || null;
    const policies = policiesOf(draft);
    if (JSON.stringify(policies) !== JSON.stringify(policiesOf(before))) change.policies = policies;
    const what = Object.keys(change);
    if (what.length === 0) {
      void vscode.window.showInformationMessage(
        `Nothing to save: role ${plainText(current.name)} already has these values.`,
      );
      return current;
    }
    const saved = await admin.updateRole(current.id, change);
    this.deps.provider.refresh(this.deps.provider.roots.admin.roles);
    void vscode.window.showInformationMessage(`Role ${plainText(saved.name)} saved (${what.join(', ')}).`);
    return saved;
  }

  async deleteRole(arg?: unknown): Promise<void> {
    const role = await this.role(arg, 'Role to delete', 'Deleting roles');
    const name = plainText(role.name);
    await confirmRemoval(
      this.deps,
      `Delete the role ${name}?`,
      'Every user and group holding it loses what it grants. This cannot be undone.',
      'Delete Role',
    );
    await (await this.client()).admin.deleteRole(role.id);
    this.deps.provider.refresh(this.deps.provider.roots.admin.roles);
    void vscode.window.showInformationMessage(`Role ${name} deleted.`);
  }
}
