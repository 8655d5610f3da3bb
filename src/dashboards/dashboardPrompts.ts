// The dashboards commands' inputs: argument objects and explorer nodes, the active dashboard file
// (in a text editor or the Dashboard Editor), and the pickers for a deployment and a workbook
// (lists from the profile; typed ids only when a list cannot load). Also what their flows share
// around a call: names in messages, the save before a send, and cancellable progress.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { saveFirst, type NextSave } from './saveFirst';

/** A file's name (the last part of its path), as messages name it. */
export const fileName = (uri: vscode.Uri) => uri.path.slice(uri.path.lastIndexOf('/') + 1);

/** A deployment as messages name it: its quoted name when known, else its id. */
export function deploymentLabel(deploymentId: number, deploymentName: string | undefined): string {
  return deploymentName ? `"${deploymentName}"` : `deployment ${deploymentId}`;
}

/** Runs a server call under a cancellable notification; Cancel aborts the call's signal. */
export function withCancelProgress<T>(title: string, run: (signal: AbortSignal) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (_progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      return run(abort.signal).finally(() => sub.dispose());
    },
  );
}

/**
 * Saves a dirty document before its text is sent (the rule is saveFirst's); `refused` and `again`
 * word the error when it cannot be saved.
 */
export function saveBeforeSending(doc: vscode.TextDocument, refused: string, again: string): Promise<void> {
  return saveFirst(doc, nextSaveOf(doc), fileName(doc.uri), refused, again);
}

/** This document's next save (VS Code's save event), or the end of `ms`. */
function nextSaveOf(doc: vscode.TextDocument): NextSave {
  return (ms) => {
    let done: () => void = () => undefined;
    const saved = new Promise<void>((resolve) => (done = resolve));
    const timer = setTimeout(done, ms);
    const sub = vscode.workspace.onDidSaveTextDocument((d) => {
      if (d.uri.toString() === doc.uri.toString()) done();
    });
    return {
      saved,
      dispose: () => {
        clearTimeout(timer);
        sub.dispose();
      },
    };
  };
}

/** A path or URI string (or a Uri) as a Uri. */
export function toUri(u: string | vscode.Uri): vscode.Uri {
  if (typeof u !== 'string') return u;
  return /^[a-z][a-z0-9+.-]+:/i.test(u) && !/^[a-z]:\\/i.test(u) ? vscode.Uri.parse(u) : vscode.Uri.file(u);
}

/** A command's arguments object (a Uri argument is not one). */
export function objectArg<T>(arg: unknown): Partial<T> {
  return arg && typeof arg === 'object' && !(arg instanceof vscode.Uri) ? (arg as Partial<T>) : {};
}

/** An explorer workbook node passed by its context menu: `{deploymentId, data: {id, name}}`. */
export function workbookFromNode(arg: unknown): { deploymentId: number; workbookId: number } | undefined {
  const n = arg as { deploymentId?: unknown; data?: { id?: unknown } } | undefined;
  if (n && typeof n.deploymentId === 'number' && typeof n.data?.id === 'number' && n.data.id > 0) {
    return { deploymentId: n.deploymentId, workbookId: n.data.id };
  }
  return undefined;
}

/** The dashboard file in the active editor: a text editor or the dashboard editor. */
export function activeDashboardFile(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const uri =
    input instanceof vscode.TabInputCustom || input instanceof vscode.TabInputText
      ? input.uri
      : vscode.window.activeTextEditor?.document.uri;
  return uri?.path.endsWith('.dashboard.json') ? uri : undefined;
}

export async function askNumber(prompt: string): Promise<number> {
  const v = await vscode.window.showInputBox({
    prompt,
    validateInput: (s) => (/^[1-9]\d*$/.test(s.trim()) ? undefined : 'A positive whole number.'),
  });
  if (v === undefined) throw new vscode.CancellationError();
  return Number(v.trim());
}

export async function askText(prompt: string, optional = false): Promise<string | undefined> {
  const v = await vscode.window.showInputBox({
    prompt,
    validateInput: (s) => (optional || s.trim() ? undefined : 'Required.'),
  });
  if (v === undefined) throw new vscode.CancellationError();
  return v.trim() || undefined;
}

/** A deployment picked from the profile's list (typed as a number when the list cannot load). */
export async function pickDeployment(services: Services, title: string): Promise<number> {
  let items: { label: string; description: string; id: number }[];
  try {
    const client = await services.clients.platform();
    items = (await client.listDeployments({ first: 100 })).items.map((d) => ({
      label: String(d.name ?? `Deployment ${d.id}`),
      description: `id ${d.id}${d.region ? ` · ${String(d.region)}` : ''}`,
      id: d.id,
    }));
  } catch (e) {
    services.log.warn(`Could not list deployments for the picker: ${(e as Error).message}`);
    return askNumber(`${title} (id)`);
  }
  if (items.length === 0) throw new Error('This profile has no deployments.');
  const picked = await vscode.window.showQuickPick(items, { title, matchOnDescription: true });
  if (!picked) throw new vscode.CancellationError();
  return picked.id;
}

/** A workbook of a deployment picked from its list (typed when the list cannot load). */
export async function pickWorkbook(services: Services, deploymentId: number): Promise<number> {
  let items: { label: string; description: string; id: number }[];
  try {
    const client = await services.clients.platform();
    items = (await client.listWorkbooks(deploymentId, { first: 100 })).items.map((w) => ({
      label: String(w.name ?? `Workbook ${w.id}`),
      description: `id ${w.id}`,
      id: w.id,
    }));
  } catch (e) {
    services.log.warn(`Could not list workbooks for the picker: ${(e as Error).message}`);
    return askNumber('Workbook id');
  }
  if (items.length === 0) {
    const name = await services.clients
      .platform()
      .then((c) => c.getDeployment(deploymentId))
      .then(
        (d) => `"${String(d.name)}"`,
        () => 'This deployment',
      );
    throw new Error(`${name} has no workbooks.`);
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Workbook',
    matchOnDescription: true,
  });
  if (!picked) throw new vscode.CancellationError();
  return picked.id;
}
