// The Dashboard Platform view as a journey finds it, whatever ran before: suites run in one window,
// and the one before may have left the view open (a click on the activity bar icon would then
// close it), rows expanded or scrolled out of sight, a report search or sort, or a notification
// filter. A journey starts from the same place a user who just opened the view would.
import * as vscode from 'vscode';
import { click, pageText, pressKeys, waitFor } from '../harness';

export const SIDEBAR = '.part.sidebar';
const C = 'dashboardPlatform.explorer.';

/** A row of the tree by its exact label. */
export const row = (label: string): string =>
  `${SIDEBAR} .monaco-list-row:has(.monaco-icon-label[aria-label=${JSON.stringify(label)}])`;

/** A row whose label starts with `prefix` (rows whose label carries a count or a state). */
export const rowStartingWith = (prefix: string): string =>
  `${SIDEBAR} .monaco-list-row:has(.monaco-icon-label[aria-label^=${JSON.stringify(prefix)}])`;

/**
 * Opens the view the way a user does (its activity bar icon) on a tree that is collapsed and
 * unfiltered: queries and filters cleared, every row collapsed, the side bar closed first so the
 * click opens it rather than toggling an already open view shut.
 */
export async function openExplorerFresh(): Promise<void> {
  await vscode.commands.executeCommand(`${C}clearReportsQuery`);
  await vscode.commands.executeCommand(`${C}clearNotificationFilter`);
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  await click({ selector: '.part.activitybar .action-item a[aria-label^="Dashboard Platform"]' });
  // Collapse All, the view's own title action (showCollapseAll), so the roots are at the top.
  await vscode.commands.executeCommand('workbench.actions.treeView.dashboardPlatform.explorer.collapseAll');
  await waitFor(
    'the view open on its roots',
    async () => ((await pageText(row('Deployments'))) ?? '') !== '',
    30_000,
  );
}

/** Clicks a collapsed row to expand it (an expanded one is left as it is). */
export async function expand(label: string): Promise<void> {
  await waitFor(`the row "${label}"`, async () => ((await pageText(row(label))) ?? '') !== '', 30_000);
  const collapsed = `${row(label)}[aria-expanded="false"]`;
  if ((await pageText(collapsed)) !== '') await click({ selector: collapsed });
  await waitFor(
    `"${label}" expanded`,
    async () => (await pageText(`${row(label)}[aria-expanded="true"]`)) !== '',
  );
}

const MENU = '.monaco-menu';

/**
 * Opens a row's context menu as a keyboard user does (click the row, Shift+F10) and answers the
 * menu's text: the actions the user is offered there.
 */
export async function contextMenu(rowSelector: string): Promise<string> {
  await click({ selector: rowSelector });
  await pressKeys(['Shift+F10']);
  return waitFor('the context menu', async () => {
    const t = (await pageText(MENU)) ?? '';
    return t.trim() !== '' ? t : undefined;
  });
}

/**
 * Opens the context menu of a row whose click runs a command (a notification opens its details in
 * an editor, which takes the focus, so Shift+F10 after a click opens the editor's menu): the row is
 * selected and focused through the view (as arrow keys would), then Shift+F10 as a keyboard user.
 */
export async function contextMenuOfSelected<T>(
  view: vscode.TreeView<T>,
  node: T,
  rowSelector: string,
): Promise<string> {
  await view.reveal(node, { select: true, focus: true });
  await waitFor(
    'the row selected and focused',
    async () => ((await pageText(`${rowSelector}.selected.focused`)) ?? '') !== '' || undefined,
    30_000,
  );
  await pressKeys(['Shift+F10']);
  return waitFor('the context menu', async () => {
    const t = (await pageText(MENU)) ?? '';
    return t.trim() !== '' ? t : undefined;
  });
}

/** Clicks an entry of the open context menu by its exact title. */
export async function chooseMenu(title: string): Promise<void> {
  await click({ selector: `${MENU} .action-menu-item:has(.action-label:text-is(${JSON.stringify(title)}))` });
  await waitFor('the menu closed', async () => (((await pageText(MENU)) ?? '') === '' ? true : undefined));
}

/** The text a row shows (label and description), '' when it is not on screen. */
export async function rowText(rowSelector: string): Promise<string> {
  return (await pageText(rowSelector)) ?? '';
}
