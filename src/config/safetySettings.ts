// Reading the settings that relax safety (see settingScope.ts): user settings only, and in
// Restricted Mode the ones that let tools write are off. Other features read these here rather
// than through getConfiguration().get(), which would honour a workspace value.
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import { userLevelValue } from './settingScope';

/** A setting's value from the user's settings (or its default), never from the workspace's. */
export function userSetting<T>(section: string, key: string, fallback: T): T {
  return userLevelValue(vscode.workspace.getConfiguration(section).inspect<T>(key), fallback);
}

/** dashboardPlatform.mcp.allowWrites from user settings, and never in Restricted Mode. */
export function mcpAllowWrites(): boolean {
  return (
    vscode.workspace.isTrusted && userSetting<unknown>('dashboardPlatform', 'mcp.allowWrites', false) === true
  );
}

/** dashboardPlatform.chat.allowRemoteImages from user settings. */
export function allowRemoteImages(): boolean {
  return userSetting<unknown>('dashboardPlatform', 'chat.allowRemoteImages', false) === true;
}

/** The error for what Restricted Mode turns off; says how to turn it back on. */
export function restrictedModeError(what: string): ApiError {
  return new ApiError(
    'validation',
    `${what} are off in Restricted Mode. Trust this workspace (command "Workspaces: Manage Workspace Trust") to use them.`,
    { code: 'RESTRICTED_MODE' },
  );
}

/** Throws `restrictedModeError(what)` while the workspace is not trusted. */
export function requireTrustedWorkspace(what: string): void {
  if (!vscode.workspace.isTrusted) throw restrictedModeError(what);
}
