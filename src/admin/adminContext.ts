// What the Administration commands share: the explorer's context (client, prompter, tree), and
// small helpers to find the subject of a command (the node a menu passes, the selection, else a picker).
import type * as vscode from 'vscode';
import { ApiError, exchangeOf, isApiError } from '../api/errors';
import { adminOnly } from '../api/platform/operation';
import { scimUserLabel, type ScimUser } from '../api/platform/admin/scim';
import { emailsOf, knownPlatformId, rememberPlatformId } from '../explorer/admin/platformIds';
import { UserCancelled } from '../log';
import type { ExplorerContext } from '../explorer/context';
import { plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import type { ExplorerNode, NodeKind } from '../explorer/nodes/types';
import type { Choice } from '../ui/prompter';
import { ancestor, asNode } from '../explorer/targets';

/** The explorer's context: the Administration rows live in its tree. */
export type AdminDeps = ExplorerContext;

/** What each Administration command class reaches through the explorer's context. */
export abstract class AdminCommandSet {
  constructor(protected readonly deps: AdminDeps) {}

  protected get prompter() {
    return this.deps.targets.prompter();
  }
  protected async client() {
    return this.deps.targets.client();
  }
  protected async admin() {
    return (await this.client()).admin;
  }
  protected get roots() {
    return this.deps.provider.roots.admin;
  }
}

/**
 * A look-up a command makes on the way to `doing` (the users or groups to pick from). A member is
 * refused it, and is told what they tried ("Deleting groups needs the admin role…"), not that a
 * list they never asked for was refused; status and request id are kept.
 */
export async function lookupFor<T>(doing: string, lookup: () => Promise<T>): Promise<T> {
  try {
    return await lookup();
  } catch (e) {
    if (isApiError(e) && e.kind === 'forbidden')
      throw new ApiError('forbidden', adminOnly(doing), exchangeOf(e));
    throw e;
  }
}

/** The node of `kind` the command acts on: the node passed, else the selection. */
export function subjectNode(deps: AdminDeps, arg: unknown, kind: NodeKind): ExplorerNode | undefined {
  const node = asNode(arg);
  if (node) return ancestor(node, kind);
  if (arg !== undefined && arg !== null && typeof arg === 'object') return undefined;
  const sel = deps.targets.selection();
  return sel ? ancestor(sel, kind) : undefined;
}

export { knownPlatformId } from '../explorer/admin/platformIds';

export function rememberPlatformUser(email: string | undefined, id: number | undefined): void {
  if (email && id !== undefined) rememberPlatformId([email], id);
}

/**
 * The platform user id the users, roles and attribute-value APIs need for a SCIM user. Where the
 * tenant's SCIM ids are platform ids (numbers) that is the id; else the id the platform answered
 * for the same e-mail. Past that the published documents offer no way: SCIM ids and `externalId`
 * are not platform ids, and the platform API publishes no user list or look-up by e-mail. Then the
 * user is asked for the id (the console shows it), with that said; cancelling cancels.
 */
export async function platformIdOf(deps: AdminDeps, u: ScimUser, needs: string): Promise<number> {
  const known = knownPlatformId(u);
  if (known !== undefined) return known;
  const name = plainText(scimUserLabel(u));
  const typed = await deps.targets.prompter().input({
    title: `Platform user id of ${name}`,
    prompt:
      `${needs} the platform user id (a number). This tenant's SCIM ids are not platform ids, and ` +
      'the platform API has no look-up by e-mail or externalId: type the id from the console’s Users page.',
    validate: (v) =>
      /^[1-9]\d*$/.test(v.trim()) ? undefined : 'A platform user id is a whole number from 1.',
  });
  const id = Number(typed.trim());
  rememberPlatformId(emailsOf(u), id);
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
