// The sandbox feature: the manager of the local emulator (started on first use of the Sandbox
// profile, its code loaded only then) and its commands.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { registerCommand } from '../commandRunner';
import type { KnownSecrets, RedactingLog } from '../log';
import { apiLogger } from '../log';
import { SANDBOX_PROFILE_NAME } from '../profiles/profileModel';
import type { ProfileService } from '../profiles/profileService';
import { loadSandbox, type SandboxHandle } from '../profiles/sandboxLoader';
import { SandboxManager, sandboxInfoLines } from '../profiles/sandboxProfile';

export type { SandboxHandle };

/** The sandbox in the extension's API (integration tests). */
export interface SandboxApi {
  (): Promise<SandboxHandle>;
  start(): Promise<SandboxHandle>;
  stop(): Promise<boolean>;
  current(): SandboxHandle | undefined;
}

/** The manager; its tokens join the known secrets (never logged) once it runs. */
export function createSandbox(log: RedactingLog, secrets: KnownSecrets): SandboxManager<SandboxHandle> {
  const sandbox = new SandboxManager(
    loadSandbox,
    () => ({ rows: vscode.workspace.getConfiguration('dashboardPlatform').get<number>('sandbox.rows') }),
    apiLogger(log),
  );
  sandbox.onDidChange((h) => {
    if (h) secrets.add(h.tokens.admin, h.tokens.member, h.tokens.dataApi, h.tokens.aiApiKey);
  });
  return sandbox;
}

export function registerSandboxCommands(
  services: { log: RedactingLog; profiles: ProfileService },
  sandbox: SandboxManager<SandboxHandle>,
): vscode.Disposable[] {
  const { log, profiles } = services;
  return [
    registerCommand(services, COMMANDS.sandboxUse, async () => {
      await profiles.switchTo(SANDBOX_PROFILE_NAME);
      await sandbox.start();
    }),
    registerCommand(services, COMMANDS.sandboxStart, async () => {
      const h = await sandbox.start();
      for (const l of sandboxInfoLines(h)) log.info(l);
      return h.urls;
    }),
    registerCommand(services, COMMANDS.sandboxStop, async () => {
      const stopped = await sandbox.stop();
      void vscode.window.showInformationMessage(stopped ? 'Sandbox stopped.' : 'The sandbox is not running.');
    }),
    registerCommand(services, COMMANDS.sandboxShowInfo, async () => {
      const h = sandbox.current;
      if (!h) {
        log.info('The sandbox is not running; it starts on first use of the "Sandbox" profile.');
      } else {
        for (const l of sandboxInfoLines(h)) log.info(l);
      }
      log.show(true);
    }),
  ];
}
