// The questions asked before a secret goes somewhere it was not stored for: a profile from the
// workspace's settings (trust it?), a token stored for another host (send it, enter a new one, or
// cancel?), a token from before tokens were tied to a host. Modal, so the decision stays on screen
// until taken; each names the hosts involved.
import * as vscode from 'vscode';
import { SECRET_LABELS, type SecretKind } from './profileModel';
import { hostOf, originOf, type ProfileScope } from './secretBinding';

export interface SecretUseContext {
  profile: string;
  kind: SecretKind;
  /** Where the secret would go. */
  origin: string;
  scope: ProfileScope;
  /** For a workspace profile named like one of the user's: the user profile's platform URL. */
  userProfileUrl?: string;
}

export type SecretAnswer = { kind: 'send' } | { kind: 'new'; value: string } | undefined;

export const TRUST_BUTTON = 'Trust This Workspace Profile';
export const ENTER_NEW = 'Enter a New One';
export const sendButton = (origin: string): string => `Send It to ${hostOf(origin)}`;

/** "Trust this workspace profile?" (once per workspace, profile and host). */
export async function askTrustProfile(ctx: SecretUseContext): Promise<boolean> {
  const host = hostOf(ctx.origin);
  const userHost = ctx.userProfileUrl ? originOf(ctx.userProfileUrl) : undefined;
  const detail = [
    `This profile is defined in this workspace's settings (.vscode/settings.json or the workspace file), not in your user settings, and sends requests to ${host}.`,
    userHost
      ? `Your own profile "${ctx.profile}" (${hostOf(userHost)}) is hidden in this window; its tokens are never sent for this one.`
      : '',
    `Trust it only if you expect this repository to use ${host}: the tokens you give this profile will be sent there. You are asked once per workspace, profile and host.`,
  ]
    .filter(Boolean)
    .join('\n\n');
  const choice = await vscode.window.showWarningMessage(
    `Profile "${ctx.profile}" comes from this workspace's settings. Trust it?`,
    { modal: true, detail },
    TRUST_BUTTON,
  );
  return choice === TRUST_BUTTON;
}

/** A token stored for other hosts: send it to the new one, enter a new one, or cancel. */
export async function askOriginMismatch(ctx: SecretUseContext, storedFor: string[]): Promise<SecretAnswer> {
  const label = SECRET_LABELS[ctx.kind];
  const host = hostOf(ctx.origin);
  const stored = storedFor.map(hostOf).join(', ') || 'another host';
  return sendOrEnterNew(
    ctx,
    `The ${label} of "${ctx.profile}" was stored for ${stored}, but the profile now sends requests to ${host}.`,
    `It is never sent to another host without your say. Send it to ${host} only if that is the same service (a new address of your tenant); otherwise enter the token for ${host}.${ctx.scope === 'workspace' ? " The profile comes from this workspace's settings." : ''}`,
  );
}

/** A plain token from before tokens were tied to a host, found for a workspace profile. */
export async function askLegacySecret(ctx: SecretUseContext): Promise<SecretAnswer> {
  const label = SECRET_LABELS[ctx.kind];
  const host = hostOf(ctx.origin);
  return sendOrEnterNew(
    ctx,
    `Send the ${label} stored for "${ctx.profile}" to ${host}?`,
    `It was stored before tokens were tied to a host, and "${ctx.profile}" now comes from this workspace's settings, which point it at ${host}. From now on it is sent only to the host you choose here.`,
  );
}

/** A modal offering to send the stored secret to the new host or to enter a new one (undefined: Cancel). */
async function sendOrEnterNew(ctx: SecretUseContext, message: string, detail: string): Promise<SecretAnswer> {
  const send = sendButton(ctx.origin);
  const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, send, ENTER_NEW);
  if (choice === send) return { kind: 'send' };
  if (choice === ENTER_NEW) return enterNew(ctx);
  return undefined;
}

async function enterNew(ctx: SecretUseContext): Promise<SecretAnswer> {
  const host = hostOf(ctx.origin);
  const value = await vscode.window.showInputBox({
    title: `${SECRET_LABELS[ctx.kind]} for "${ctx.profile}" at ${host}`,
    prompt: `Stored in VS Code's SecretStorage and sent only to ${host}.`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : 'Paste the token.'),
  });
  return value?.trim() ? { kind: 'new', value: value.trim() } : undefined;
}
