// Context keys for `when` clauses (viewsWelcome, menus):
//   dashboardPlatform.profileState   'none' | 'signedOut' | 'ready'
//   dashboardPlatform.hasStoredProfiles, dashboardPlatform.sandboxRunning
//   dashboardPlatform.sandboxActive  (the walkthrough's "Try the sandbox" step completes on it)
import * as vscode from 'vscode';
import type { ProfileService } from './profileService';

export type ProfileState = 'none' | 'signedOut' | 'ready';

export async function profileState(profiles: ProfileService): Promise<ProfileState> {
  const active = profiles.active();
  if (!active) return 'none';
  if (active.isSandbox) return 'ready';
  // A token that still needs the user's decision (trust, another host) is asked about on first use.
  return (await profiles.hasSecret('platformToken')) ? 'ready' : 'signedOut';
}

export function trackProfileContext(profiles: ProfileService): vscode.Disposable {
  let generation = 0;
  const update = async () => {
    const mine = ++generation;
    const state = await profileState(profiles).catch(() => 'signedOut' as const);
    if (mine !== generation) return;
    await vscode.commands.executeCommand('setContext', 'dashboardPlatform.profileState', state);
    await vscode.commands.executeCommand(
      'setContext',
      'dashboardPlatform.hasStoredProfiles',
      profiles.storedProfiles().length > 0,
    );
    await vscode.commands.executeCommand(
      'setContext',
      'dashboardPlatform.sandboxRunning',
      !!profiles.sandbox.current,
    );
    await vscode.commands.executeCommand(
      'setContext',
      'dashboardPlatform.sandboxActive',
      !!profiles.active()?.isSandbox,
    );
  };
  const run = () => void update();
  const subs = [
    profiles.onDidChangeActiveProfile(run),
    profiles.onDidChangeProfiles(run),
    profiles.onDidChangeSecrets(run),
    profiles.sandbox.onDidChange(run),
  ];
  run();
  return { dispose: () => subs.forEach((s) => s.dispose()) };
}
