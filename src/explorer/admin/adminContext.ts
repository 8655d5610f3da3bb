// What the Administration commands share: the client, the prompter, the tree, and small helpers
// to find the subject of a command (the node a menu passes, the selection, else a picker).
import type * as vscode from 'vscode';
import { scimUserLabel, type ScimUser } from '../../api/platform/admin/scim';
import { platformUserId } from '../../api/platform/admin/users';
import { UserCancelled } from '../../log';
import type { Services } from '../../services';
import type { ExplorerProvider } from '../explorerProvider';
import type { JsonDocumentProvider } from '../jsonDocumentProvider';
import { plainText } from '../labels';
import type { Item } from '../loaders';
import type { ExplorerNode, NodeKind } from '../nodes/types';
import type { Choice } from '../prompter';
import { ancestor, asNode, type TargetContext } from '../targets';

export interface AdminDeps {
  services: Services;
  provider: ExplorerProvider;
  json: JsonDocumentProvider;
  targets: TargetContext;
}

/** The node of `kind` the command acts on: the node passed, else the selection. */
export function subjectNode(deps: AdminDeps, arg: unknown, kind: NodeKind): ExplorerNode | undefined {
  const node = asNode(arg);
  if (node) return ancestor(node, kind);
  if (arg !== undefined && arg !== null && typeof arg === 'object') return undefined;
  const sel = deps.targets.selection();
  return sel ? ancestor(sel, kind) : undefined;
}

/**
 * The users API's numeric id of a SCIM user; when SCIM gives none, a clear error naming the user
 * and what needs the id (`needs`, e.g. "the users API needs").
 */
export function numericUserId(u: ScimUser, needs: string): number {
  const id = platformUserId(u.id);
  if (id === undefined)
    throw new Error(
      `The user "${plainText(scimUserLabel(u))}" has no numeric user id in SCIM, which ${needs}.`,
    );
  return id;
}

/** A pick from items, by name; fails clearly when there is nothing to pick. */
export async function pickItem(
  deps: AdminDeps,
  title: string,
  items: Item[],
  label: (i: Item) => string,
  describe?: (i: Item) => string | undefined,
  none = `There is nothing to pick for ${title}.`,
): Promise<Item> {
  if (items.length === 0) throw new Error(none);
  const choices: Choice<Item>[] = items.map((i) => {
    const d = describe?.(i);
    return { label: plainText(label(i)), ...(d ? { description: plainText(d) } : {}), value: i };
  });
  return deps.targets.prompter().pick(title, choices, `Pick ${title.toLowerCase()}`);
}

/** A modal confirmation naming what is removed; declining cancels the command. */
export async function confirmRemoval(
  deps: AdminDeps,
  message: string,
  detail: string,
  action: string,
): Promise<void> {
  if (!(await deps.targets.prompter().confirm(message, detail, action))) throw new UserCancelled();
  const profile = deps.services.profiles.active()?.profile;
  if (profile?.production) {
    const ok = await deps.targets
      .prompter()
      .confirm(
        `${action} on the production profile "${plainText(profile.name)}"?`,
        'This profile is marked as production: the change applies to live data.',
        'Continue',
      );
    if (!ok) throw new UserCancelled();
  }
}

/** Re-renders one Administration list (or the whole tree when it is not shown). */
export function refreshNode(deps: AdminDeps, node: ExplorerNode | undefined): void {
  deps.provider.refresh(node);
}

export type Reg = (spec: { id: string; title: string }, fn: (arg?: unknown) => unknown) => vscode.Disposable;
