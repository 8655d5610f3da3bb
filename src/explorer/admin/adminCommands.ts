// The Administration commands, registered with the explorer's (lazily loaded) commands so they
// share its prompter (tests script it) and targets.
import type * as vscode from 'vscode';
import type { ExplorerCommandDeps } from '../explorerCommands';
import type { TargetContext } from '../targets';
import type { Reg } from './adminContext';
import { EmbedSettingsCommands } from './embedSettingsCommands';
import { SettingsEditCommands } from './settingsEditCommands';
import { UserCommands } from './userCommands';

export interface AdminCommands {
  users: UserCommands;
  embedSettings: EmbedSettingsCommands;
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
    settingsEdit: new SettingsEditCommands(d),
  };
  expose(a);
  return [...a.users.register(reg), ...a.embedSettings.register(reg), ...a.settingsEdit.register(reg)];
}
