// Helpers for the integration suites: the extension's API, polling, and asking the harness (which
// drives the workbench page with Playwright) for screenshots and keystrokes. Outside the
// code-server harness (test-electron), the UI helpers are no-ops that say so in the log.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';

export const EXTENSION_ID = 'dashboard-platform.dashboard-platform';

export async function getApi(): Promise<ExtensionApi> {
  const ext = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not installed`);
  return ext.activate();
}

/** Polls `fn` until it returns a truthy value; fails with `what` after `ms`. */
export async function waitFor<T>(
  what: string,
  fn: () => T | undefined | Promise<T | undefined>,
  ms = 15_000,
): Promise<T> {
  const end = Date.now() + ms;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > end) {
      throw new Error(
        `timed out after ${ms} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface HarnessConfig {
  controlUrl?: string;
}

function harness(): HarnessConfig | undefined {
  const file = process.env.DP_TEST_CONFIG;
  if (!file || !fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, 'utf8')) as HarnessConfig;
}

async function post(path: string, body: unknown): Promise<Response | undefined> {
  const url = harness()?.controlUrl;
  if (!url) {
    console.log(`[harness] no UI control in this route; skipped ${path}`);
    return undefined;
  }
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`harness ${path} failed: ${res.status} ${await res.text()}`);
  return res;
}

async function control(path: string, body: unknown): Promise<boolean> {
  return (await post(path, body)) !== undefined;
}

/** The text of the first workbench element matching `selector` ('' if none; undefined without UI control). */
export async function pageText(selector: string): Promise<string | undefined> {
  const res = await post('/text', { selector });
  return res ? ((await res.json()) as { text: string }).text : undefined;
}

/** How many visible workbench elements match `selector` (undefined without UI control). */
export async function pageCount(selector: string): Promise<number | undefined> {
  const res = await post('/count', { selector });
  return res ? ((await res.json()) as { count: number }).count : undefined;
}

/** What part of the window a screenshot keeps: the elements matching a selector, or a rectangle. */
export type ScreenshotCrop =
  { selector: string } | { clip: { x: number; y: number; width: number; height: number } };

/**
 * Saves a PNG of the whole workbench as <name>.png (code-server route only): in out/screenshots/
 * during test runs (ignored by git), in docs/images/ during the README walk (npm run screenshots).
 */
export async function screenshot(name: string, settleMs = 800, crop?: ScreenshotCrop): Promise<boolean> {
  await new Promise((r) => setTimeout(r, settleMs));
  return control('/screenshot', { name, ...crop });
}

/** Presses keys in the workbench page, e.g. ['Control+Shift+P'] (code-server route only). */
export function pressKeys(keys: string[]): Promise<boolean> {
  return control('/keys', { keys });
}

/** Clicks the first element matching a CSS selector or containing a text (code-server route only). */
export function click(target: { selector?: string; text?: string }): Promise<boolean> {
  return control('/click', target);
}

/** A real pointer drag by (dx, dy) px of the first element matching `selector` in a webview. */
export function webviewDrag(selector: string, dx: number, dy: number): Promise<boolean> {
  return control('/webview-drag', { selector, dx, dy });
}

/** Clicks the first element matching `selector` in a webview. */
export function webviewClick(selector: string): Promise<boolean> {
  return control('/webview-click', { selector });
}

/** The text of the first element matching `selector` in a webview ('' if none; undefined without UI control). */
export async function webviewText(selector: string): Promise<string | undefined> {
  const res = await post('/webview-text', { selector });
  return res ? ((await res.json()) as { text: string }).text : undefined;
}

/** Types `text` into the first field matching `selector` in a webview, then tabs out of it. */
export function webviewFill(selector: string, text: string): Promise<boolean> {
  return control('/webview-fill', { selector, text });
}

/** Focuses the first element matching `selector` in a webview and presses keys there. */
export function webviewKeys(selector: string, keys: string[]): Promise<boolean> {
  return control('/webview-keys', { selector, keys });
}

/** Types text into whatever has focus in the workbench (a quick pick, say). */
export function typeText(text: string): Promise<boolean> {
  return control('/type', { text });
}

/**
 * Reverts every unsaved editor (untitled notebooks included) and closes all editors, so a suite's
 * clean-up never leaves VS Code's "Do you want to save…?" dialog on screen for the next suite. It
 * walks the tabs, not `visibleNotebookEditors`: a notebook behind another editor is not visible
 * but still asks when closed.
 */
export async function revertAndCloseAll(): Promise<void> {
  const dirty = () =>
    vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter(
        (t) =>
          t.isDirty && (t.input instanceof vscode.TabInputNotebook || t.input instanceof vscode.TabInputText),
      );
  // Bounded: a tab that cannot be shown or reverted must not loop for ever.
  for (let i = 0, tabs = dirty(); i < 50 && tabs.length > 0; i++, tabs = dirty()) {
    const input = tabs[0]!.input;
    if (input instanceof vscode.TabInputNotebook) {
      const nb =
        vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === input.uri.toString()) ??
        (await vscode.workspace.openNotebookDocument(input.uri));
      await vscode.window.showNotebookDocument(nb);
    } else if (input instanceof vscode.TabInputText) {
      await vscode.window.showTextDocument(input.uri);
    }
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  // Closing an editor still unsaved would leave the save dialog up: fail here, naming it, instead.
  const left = dirty().map((t) => t.label);
  if (left.length > 0) throw new Error(`Unsaved editors could not be reverted: ${left.join(', ')}`);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** Sets VS Code's colour theme (user settings) and waits until the setting reads back. */
export async function setTheme(name: string): Promise<void> {
  const workbench = () => vscode.workspace.getConfiguration('workbench');
  await workbench().update('colorTheme', name, vscode.ConfigurationTarget.Global);
  await waitFor(`the theme "${name}"`, () => (workbench().get('colorTheme') === name ? true : undefined));
}

/**
 * Leaves the workbench as a test found it: every untitled or unsaved notebook reverted (visible or
 * not: an untitled notebook is dirty, and closing it would ask), notifications cleared, and every
 * editor reverted and closed (revertAndCloseAll).
 */
export async function clearWorkbench(): Promise<void> {
  for (const nb of vscode.workspace.notebookDocuments.filter((d) => d.isUntitled || d.isDirty)) {
    await vscode.window.showNotebookDocument(nb);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await vscode.commands.executeCommand('notifications.clearAll');
  await revertAndCloseAll();
}
