// The getting-started walkthrough, opened once on a new install: a new user sees where to start
// (the sandbox, the explorer, a notebook) without looking for it. Remembered in global state, so a
// reload, a new window or an update never opens it again. Test hosts start a fresh profile for
// every run, and their suites expect an empty editor area: they do not get it.
import type * as vscode from 'vscode';

export const WALKTHROUGH_ID = 'dashboard-platform.dashboard-platform#gettingStarted';
export const WALKTHROUGH_SHOWN_KEY = 'dashboardPlatform.walkthroughShown';

/**
 * Opens the walkthrough unless it was opened before (or `testRun`); returns whether it opened.
 * The flag is written first, so a failure to open never turns into opening it on every start.
 */
export async function offerWalkthroughOnce(
  state: vscode.Memento,
  open: () => Thenable<unknown>,
  testRun: boolean,
): Promise<boolean> {
  if (testRun || state.get<boolean>(WALKTHROUGH_SHOWN_KEY) === true) return false;
  await state.update(WALKTHROUGH_SHOWN_KEY, true);
  await open();
  return true;
}
