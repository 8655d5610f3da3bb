// The sandbox feature: the manager of the local emulator (started on first use of the Sandbox
// profile, its code loaded only then) and its commands. The sandbox keeps its data in the
// extension's global storage (sandbox/state.json), so a reload, a restart of the extension host or
// another window finds what the user did; "Reset Sandbox Data" starts it afresh.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { registerCommand, SHOW_LOGS } from '../commandRunner';
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

/** Where the sandbox keeps its data: in the extension's global storage (shared by all windows). */
export function sandboxStateFile(globalStorage: vscode.Uri | undefined): string | undefined {
  return globalStorage?.scheme === 'file'
    ? path.join(globalStorage.fsPath, 'sandbox', 'state.json')
    : undefined;
}

/**
 * The manager; its tokens join the known secrets (never logged) once it runs. `globalStorage`: the
 * extension's global storage, where the sandbox keeps its data (without it, in memory only).
 */
export function createSandbox(
  log: RedactingLog,
  secrets: KnownSecrets,
  globalStorage?: vscode.Uri,
): SandboxManager<SandboxHandle> & { readonly stateFile: string | undefined } {
  const stateFile = sandboxStateFile(globalStorage);
  const sandbox = new SandboxManager(
    () => loadSandbox({ stateFile }),
    () => ({ rows: vscode.workspace.getConfiguration('dashboardPlatform').get<number>('sandbox.rows') }),
    apiLogger(log),
  );
  sandbox.onDidChange((h) => {
    if (h) secrets.add(h.tokens.admin, h.tokens.member, h.tokens.dataApi, h.tokens.aiApiKey);
    const kept = h?.persistence?.keptAside;
    if (kept) void reportUnreadable(log, kept);
  });
  return Object.assign(sandbox, { stateFile });
}

/** The saved data could not be read: it was kept aside; say so, and offer to look at it. */
async function reportUnreadable(log: RedactingLog, kept: { file: string; reason: string }): Promise<void> {
  const open = 'Open Kept Copy';
  const pick = await vscode.window.showWarningMessage(
    `The sandbox's saved data could not be read (${kept.reason}). It was kept as "${path.basename(kept.file)}" and the sandbox started from its sample data.`,
    open,
    SHOW_LOGS,
  );
  if (pick === open) await vscode.window.showTextDocument(vscode.Uri.file(kept.file));
  else if (pick === SHOW_LOGS) log.show();
}

export function registerSandboxCommands(
  services: { log: RedactingLog; profiles: ProfileService },
  sandbox: SandboxManager<SandboxHandle> & { readonly stateFile?: string },
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
      if (sandbox.stateFile) log.info(`  saved data: ${sandbox.stateFile}`);
      log.show(true);
    }),
    registerCommand(services, COMMANDS.sandboxReset, () => resetSandboxData(log, sandbox)),
  ];
}

/**
 * Deletes the sandbox's saved data after a modal confirmation; a running sandbox restarts from its
 * sample data (and the sandboxes of other windows follow at their next request). True when reset.
 */
async function resetSandboxData(
  log: RedactingLog,
  sandbox: SandboxManager<SandboxHandle> & { readonly stateFile?: string },
): Promise<boolean> {
  const file = sandbox.stateFile;
  if (!file) {
    void vscode.window.showInformationMessage(
      'The sandbox keeps no saved data in this window (the extension has no global storage folder on this file system): stopping it is enough to start afresh.',
    );
    return false;
  }
  const reset = 'Reset Sandbox Data';
  const pick = await vscode.window.showWarningMessage(
    "Reset the sandbox's data?",
    {
      modal: true,
      detail:
        'Everything done in the sandbox is deleted, in every window: data-model branches and edits, notifications, publishes, workspace items, chats and administration changes. The sandbox starts again from its sample data. Your own profiles and files are not touched.',
    },
    reset,
  );
  if (pick !== reset) return false;
  const wasRunning = sandbox.current !== undefined;
  // Stopped first: its last save must not bring the data back after the file is gone.
  await sandbox.stop();
  await fs.promises.rm(file, { force: true });
  log.info(`Sandbox data reset: removed ${file}`);
  if (wasRunning) await sandbox.start();
  void vscode.window.showInformationMessage(
    'Sandbox data reset: the sandbox starts again from its sample data.',
  );
  return true;
}
