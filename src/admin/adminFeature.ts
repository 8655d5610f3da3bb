// The Administration commands, registered with the explorer's (lazily loaded) commands so they
// share its prompter (tests script it) and targets.
import type * as vscode from 'vscode';
import type { ExplorerCommandDeps } from '../explorer/explorerCommands';
import type { TargetContext } from '../explorer/targets';
import type { Reg } from './adminContext';
import { EmbedSettingsCommands } from './embedSettingsCommands';
import { SettingsEditCommands } from './settingsEditCommands';
import { UserCommands } from './userCommands';
import { UsersCommands } from './usersCommands';

export interface AdminCommands {
  users: UserCommands;
  embedSettings: EmbedSettingsCommands;
  usersSide: UsersCommands;
  settingsEdit: SettingsEditCommands;
}

export function registerAdminCommands(
  deps: ExplorerCommandDeps,
  targets: TargetContext,
  reg: Reg,
  expose: (a: AdminCommands) => void,
): vscode.Disposable[] {
  const d = { services: deps.services, provider: deps.provider, json: deps.json, targets };
  const a: AdminCommands = {
    users: new UserCommands(d),
    embedSettings: new EmbedSettingsCommands(d),
    usersSide: new UsersCommands(d),
    settingsEdit: new SettingsEditCommands(d),
  };
  expose(a);
  // The bulk user actions take VS Code's multi-selection (the second argument).
  const regMany = (spec: { id: string; title: string }, fn: (arg?: unknown, all?: unknown) => unknown) =>
    reg(spec, fn as (arg?: unknown) => unknown);
  return [
    ...a.users.register(reg),
    ...a.embedSettings.register(reg),
    ...a.usersSide.register(regMany),
    ...a.settingsEdit.register(reg),
  ];
}
