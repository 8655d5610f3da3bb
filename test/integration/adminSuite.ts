// What the Administration suites (admin, admin-users, admin-settings) share: the sandbox as the
// active profile with the explorer shown, and the member profile removed afterwards.
import * as vscode from 'vscode';
import { getApi } from './harness';

/* eslint-disable @typescript-eslint/no-explicit-any -- the nodes and the API are the extension's own objects */

export interface AdminSuite {
  api: any;
  ex: any;
  base: string;
  member: string;
}

/** Starts the sandbox, makes it the active profile and shows the explorer. */
export async function openAdminSuite(): Promise<AdminSuite> {
  const api: any = await getApi();
  const ex = api.explorer;
  await vscode.commands.executeCommand('dashboardPlatform.sandbox.use');
  const sb = await api.sandbox.start();
  await api.services.profiles.switchTo('Sandbox');
  await vscode.commands.executeCommand('workbench.view.extension.dashboardPlatform');
  ex.provider.refresh();
  return { api, ex, base: `http://127.0.0.1:${sb.port}`, member: sb.tokens.member };
}

/** Removes the suite's member profile (when a test added it) and goes back to the sandbox. */
export async function closeAdminSuite(api: any, memberProfile: string): Promise<void> {
  if (api.services.profiles.get(memberProfile))
    await vscode.commands.executeCommand('dashboardPlatform.profiles.remove', { name: memberProfile });
  await api.services.profiles.switchTo('Sandbox');
}
