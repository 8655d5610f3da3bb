// The profile a query notebook runs on: the one stored in its metadata (so a notebook saved for
// "Production EU" queries Production EU whichever profile is active), else the active profile. Cells
// never switch the active profile. A stored profile that does not exist here, or has no token, stops
// the run with a message that offers to pick the notebook's profile.
import * as vscode from 'vscode';
import { ApiError, isApiError } from '../api/errors';
import { COMMANDS } from '../commands';
import type { Services } from '../services';
import { NOTEBOOK_TYPE } from './notebookFormat';

/** The profile a notebook was saved for (its metadata), if any. */
export function storedProfile(nb: vscode.NotebookDocument): string | undefined {
  const p = (nb.metadata as Record<string, unknown> | undefined)?.profile;
  return typeof p === 'string' && p.trim() ? p : undefined;
}

export type NotebookTarget =
  { ok: true; profile: string; stored: boolean } | { ok: false; stored: string | undefined; reason: string };

/** Where a notebook's cells run: its stored profile when this machine has it, else the active one. */
export function notebookTarget(services: Services, nb: vscode.NotebookDocument): NotebookTarget {
  const saved = storedProfile(nb);
  if (saved) {
    const known = services.profiles.get(saved);
    if (known) return { ok: true, profile: known.name, stored: true };
    return {
      ok: false,
      stored: saved,
      reason: `This notebook runs on the profile "${saved}", which does not exist here. Pick a profile for the notebook (Select Notebook Profile…), or add a profile named "${saved}".`,
    };
  }
  const active = services.profiles.active()?.profile.name;
  if (active) return { ok: true, profile: active, stored: false };
  return {
    ok: false,
    stored: undefined,
    reason: 'No profile is active and this notebook names none. Pick a profile for the notebook.',
  };
}

/** Whether a profile has any token to query with (the sandbox's exist once it starts). */
export async function profileSignedIn(services: Services, profile: string): Promise<boolean> {
  if (services.profiles.isSandbox(profile)) return true;
  if (await services.profiles.hasSecret('platformToken', profile)) return true;
  return services.profiles.hasSecret('dataApiToken', profile);
}

/**
 * The profile to run on, or an ApiError that says what to do: NO_PROFILE (none, or not here) or
 * SIGNED_OUT (no token).
 */
export async function requireNotebookProfile(
  services: Services,
  nb: vscode.NotebookDocument,
): Promise<string> {
  const t = notebookTarget(services, nb);
  if (!t.ok) throw new ApiError('validation', t.reason, { code: 'NO_PROFILE' });
  if (!(await profileSignedIn(services, t.profile))) {
    throw new ApiError(
      'auth',
      `The profile "${t.profile}" has no token here. Set one (Set Token…), or pick another profile for this notebook.`,
      { code: 'SIGNED_OUT' },
    );
  }
  return t.profile;
}

/** Errors a profile choice fixes: no such profile, or a profile without its token. */
export function isProfileProblem(e: unknown): boolean {
  return isApiError(e) && (e.code === 'NO_PROFILE' || e.code === 'SIGNED_OUT');
}

/** Says a profile problem once, with the action that fixes it. */
export async function offerProfilePick(message: string, nb: vscode.NotebookDocument): Promise<void> {
  const PICK = 'Pick Profile…';
  const choice = await vscode.window.showErrorMessage(message, PICK);
  if (choice === PICK) {
    await vscode.commands.executeCommand(COMMANDS.notebookSelectProfile.id, { notebook: nb.uri.toString() });
  }
}

/**
 * Stores a profile in the notebook's metadata (the active profile is left as it is). Another profile
 * has other deployments and branches, so those choices are cleared when the profile changes.
 */
export async function setNotebookProfile(nb: vscode.NotebookDocument, profile: string): Promise<void> {
  const meta = { ...(nb.metadata ?? {}) } as Record<string, unknown>;
  const before = storedProfile(nb);
  if (before?.toLowerCase() !== profile.toLowerCase()) {
    delete meta.deploymentId;
    delete meta.devBranch;
  }
  meta.profile = profile;
  const edit = new vscode.WorkspaceEdit();
  edit.set(nb.uri, [vscode.NotebookEdit.updateNotebookMetadata(meta)]);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('Could not update the notebook.');
}

/** "Select Notebook Profile…": a pick of the profiles here; `{profile}` skips the pick. */
export async function selectNotebookProfile(
  services: Services,
  args?: { profile?: string; notebook?: string },
): Promise<string | undefined> {
  const nb = args?.notebook
    ? vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === args.notebook)
    : vscode.window.activeNotebookEditor?.notebook;
  if (!nb || nb.notebookType !== NOTEBOOK_TYPE) throw new Error('Open a query notebook first.');
  let name = args?.profile;
  if (name === undefined) {
    const current = notebookTarget(services, nb);
    const active = services.profiles.active()?.profile.name;
    const picked = await vscode.window.showQuickPick(
      services.profiles.list().map((p) => ({
        label: p.name,
        description: [
          current.ok && current.profile === p.name ? 'this notebook' : '',
          p.name === active ? 'active' : '',
          p.production ? 'production' : (p.environment ?? ''),
        ]
          .filter(Boolean)
          .join(' · '),
      })),
      {
        title: 'Profile for this notebook',
        placeHolder: 'Cells run on this profile; the active profile stays as it is',
      },
    );
    if (!picked) return undefined;
    name = picked.label;
  }
  const profile = services.profiles.get(name);
  if (!profile) throw new Error(`There is no profile named "${name}".`);
  await setNotebookProfile(nb, profile.name);
  return profile.name;
}
