// Administration, loaded on first use of one of its commands (index.ts registers the shims):
// users, roles, groups and attributes (SCIM and the platform's users API), embedding, tenant
// settings, OAuth integrations and OIDC configs. The rows they act on are the explorer's
// (src/explorer/admin/).
import type * as vscode from 'vscode';
import { registerCommand } from '../commandRunner';
import { COMMANDS } from '../commands';
import { explorerContext, type ExplorerContext, type ExplorerHost } from '../explorer/context';
import { EmbedGroupCommands } from './embedGroupCommands';
import { EmbedSettingsCommands } from './embedSettingsCommands';
import { EmbedUserProvisioning } from './embedUserProvisioning';
import { MeCommands } from './meCommands';
import { RoleCommands } from './roleCommands';
import { ScimEditCommands } from './scimEditCommands';
import { SettingsEditCommands } from './settingsEditCommands';
import { UserCommands } from './userCommands';
import { UsersCommands } from './usersCommands';

export interface AdminCommands {
  users: UserCommands;
  embedSettings: EmbedSettingsCommands;
  embedGroups: EmbedGroupCommands;
  embedProvisioning: EmbedUserProvisioning;
  usersSide: UsersCommands;
  settingsEdit: SettingsEditCommands;
  roles: RoleCommands;
  scimEdit: ScimEditCommands;
  me: MeCommands;
}

export function createAdminFeature(host: ExplorerHost): {
  feature: AdminCommands;
  disposables: vscode.Disposable[];
} {
  const ctx = explorerContext(host);
  const a: AdminCommands = {
    users: new UserCommands(ctx),
    embedSettings: new EmbedSettingsCommands(ctx),
    embedGroups: new EmbedGroupCommands(ctx),
    embedProvisioning: new EmbedUserProvisioning(ctx),
    usersSide: new UsersCommands(ctx),
    settingsEdit: new SettingsEditCommands(ctx),
    roles: new RoleCommands(ctx),
    scimEdit: new ScimEditCommands(ctx),
    me: new MeCommands(ctx),
  };
  // The bulk user actions take VS Code's multi-selection (the second argument).
  const reg = (spec: { id: string; title: string }, fn: (arg?: unknown, all?: unknown) => unknown) =>
    registerCommand(host.services, spec, fn as (...a: never[]) => unknown);
  const disposables = [
    reg(COMMANDS.adminShowAppConfig, () => showAppConfig(ctx)),
    ...a.users.register(reg),
    ...a.embedSettings.register(reg),
    ...a.embedGroups.register(reg),
    ...a.embedProvisioning.register(reg),
    ...a.usersSide.register(reg),
    ...a.settingsEdit.register(reg),
    ...a.roles.register(reg),
    ...a.scimEdit.register(reg),
    ...a.me.register(reg),
  ];
  return { feature: a, disposables };
}

/** The account's app config as read-only JSON. */
async function showAppConfig(ctx: ExplorerContext): Promise<vscode.TextDocument> {
  const config = await (await ctx.targets.client()).getAppConfig();
  return ctx.json.show('app-config', 'app-config', config);
}
