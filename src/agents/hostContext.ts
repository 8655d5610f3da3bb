// What the tools need from the extension host: the gateway over the active profile's clients, and
// file access for proposals (a diff the user applies as one WorkspaceEdit, or discards).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Services } from '../services';
import { PlatformGateway, type ProfileInfo } from './gateway';
import { quote, type FileAccess, type ProposedChange, type ProposalOutcome } from './tools';
import { resolveInside } from './tools/workspacePaths';

export function activeProfileInfo(services: Services): ProfileInfo {
  const active = services.profiles.active();
  if (!active) {
    throw new Error(
      'No Dashboard Platform profile is active. Add a profile or choose "Sandbox" from the status bar.',
    );
  }
  return {
    name: active.profile.name,
    production: active.profile.production === true,
    sandbox: active.isSandbox,
    ...(active.profile.defaultDeploymentId
      ? { defaultDeploymentId: active.profile.defaultDeploymentId }
      : {}),
  };
}

export function hostGateway(services: Services): PlatformGateway {
  return new PlatformGateway(
    { platform: () => services.clients.platform(), data: (d) => services.clients.data(d) },
    () => activeProfileInfo(services),
  );
}

/**
 * A workspace file named relative to the first workspace folder, or absolutely inside any folder,
 * checked by REAL path (resolveInside): a link leading out of the workspace is refused. The URI is
 * the real file's, so reads and edits never follow a link.
 */
async function resolveWorkspaceFile(file: string): Promise<{ uri: vscode.Uri; display: string }> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (folders.length === 0)
    throw new Error('Open a folder first: dashboard files are edited inside the workspace.');
  const roots = folders.map((f) => f.uri.fsPath);
  const r = await resolveInside(roots, file);
  if (!r.exists) throw new Error(`Cannot read ${quote(r.display)}: it does not exist.`);
  return { uri: vscode.Uri.file(r.real), display: r.display };
}

export const PROPOSAL_SCHEME = 'dashboard-platform-proposal';
const DIFF_LINES_IN_DIALOG = 30;

/** The proposed texts shown on the right of the diff editor (read-only virtual documents). */
export class ProposalDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private seq = 0;

  add(display: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${display}`, query: String(++this.seq) });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  delete(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}

async function closeDiff(proposed: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs);
  const mine = tabs.filter(
    (t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === proposed.toString(),
  );
  if (mine.length) await vscode.window.tabGroups.close(mine);
}

/**
 * Reads open documents (unsaved text included). A proposal opens a diff of the file against the
 * proposed text and asks Apply or Discard; Apply makes it one WorkspaceEdit in the editor (one undo
 * step; this code never saves it). Nothing is published.
 */
export function workspaceFiles(
  proposals: ProposalDocuments,
  production: () => string | undefined,
): FileAccess {
  return {
    async read(file) {
      const { uri, display } = await resolveWorkspaceFile(file);
      try {
        const doc = await vscode.workspace.openTextDocument(uri);
        return { text: doc.getText(), display };
      } catch (e) {
        throw new Error(`Cannot read ${quote(display)}: ${e instanceof Error ? e.message : String(e)}`, {
          cause: e,
        });
      }
    },
    async propose(change: ProposedChange, signal?: AbortSignal): Promise<ProposalOutcome> {
      const { uri, display } = await resolveWorkspaceFile(change.file);
      const proposed = proposals.add(display, change.newText);
      try {
        await vscode.commands.executeCommand(
          'vscode.diff',
          uri,
          proposed,
          `${path.basename(display)} ↔ proposed by an agent`,
          { preview: true },
        );
        const prod = production();
        // A modal question, with the diff both behind it (the diff editor) and in its detail.
        const lines = change.diff.split('\n').slice(2);
        const detail = [
          change.summary,
          '',
          ...lines.slice(0, DIFF_LINES_IN_DIALOG),
          ...(lines.length > DIFF_LINES_IN_DIALOG
            ? [`… ${lines.length - DIFF_LINES_IN_DIALOG} more lines in the diff editor`]
            : []),
          '',
          'Apply makes it one edit in the editor (undo reverts it). Nothing is published.',
        ].join('\n');
        const ask = vscode.window.showInformationMessage(
          `${prod ? `Production profile "${prod}": a` : 'A'}pply the change an agent proposes to ${display}?`,
          { modal: true, detail },
          { title: 'Apply' },
          { title: 'Discard', isCloseAffordance: true },
        );
        const cancelled = new Promise<undefined>((resolve) => {
          if (signal?.aborted) resolve(undefined);
          signal?.addEventListener('abort', () => resolve(undefined), { once: true });
        });
        const choice = (await Promise.race([ask, cancelled]))?.title;
        if (choice !== 'Apply') {
          const why = signal?.aborted ? 'the call was cancelled' : 'the user discarded the change';
          return { applied: false, detail: `${why}; ${quote(display)} is unchanged.` };
        }
        const doc = await vscode.workspace.openTextDocument(uri);
        if (doc.getText() !== change.oldText) {
          return {
            applied: false,
            detail: `${quote(display)} changed while the proposal was shown; read it again.`,
          };
        }
        const edit = new vscode.WorkspaceEdit();
        edit.replace(
          uri,
          new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)),
          change.newText,
        );
        if (!(await vscode.workspace.applyEdit(edit))) {
          return { applied: false, detail: `VS Code could not apply the change to ${quote(display)}.` };
        }
        return {
          applied: true,
          detail: `the user applied the change to ${quote(display)} as one edit in the editor (the user saves or undoes it).`,
        };
      } finally {
        await closeDiff(proposed);
        proposals.delete(proposed);
      }
    },
  };
}
