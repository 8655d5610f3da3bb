// What the suites driving the explorer against the sandbox share: the sandbox made the active
// profile and started, the view shown, the scripted prompter removed after each test, and (for the
// Administration suites) a member profile signed in with the member token and removed afterwards.
import * as vscode from 'vscode';
import { getApi, waitFor } from './harness';

/* eslint-disable @typescript-eslint/no-explicit-any -- the nodes and the API are the extension's own objects */

export interface SandboxSession {
  api: any;
  ex: any;
  /** Where the sandbox listens, e.g. http://127.0.0.1:PORT (its platform API under /api). */
  base: string;
  /** The sandbox's admin and member platform tokens. */
  admin: string;
  member: string;
}

/** Calls the sandbox's platform API (under `base`/api) with `token`: to read back what the extension did. */
export async function platformCall(
  base: string,
  token: string,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/api${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Makes the sandbox the active profile and starts it (one sandbox for every suite of the run). */
export async function useSandbox(api: any): Promise<Pick<SandboxSession, 'base' | 'admin' | 'member'>> {
  await vscode.commands.executeCommand('dashboardPlatform.sandbox.use');
  const sb = await api.sandbox.start();
  return { base: `http://127.0.0.1:${sb.port}`, admin: sb.tokens.admin, member: sb.tokens.member };
}

/**
 * Starts the sandbox and shows the Dashboard Platform view. `switchTo`: the profile named Sandbox
 * made active again (a suite before may have left another active); `refresh`: the tree read afresh.
 */
export async function openSandboxView(
  opts: { switchTo?: boolean; refresh?: boolean } = {},
): Promise<SandboxSession> {
  const api: any = await getApi();
  const ex = api.explorer;
  const session = { api, ex, ...(await useSandbox(api)) };
  if (opts.switchTo) await api.services.profiles.switchTo('Sandbox');
  await vscode.commands.executeCommand('workbench.view.extension.dashboardPlatform');
  if (opts.refresh) ex.provider.refresh();
  return session;
}

/**
 * Registers, in the calling `describe`, the hooks of a suite on the explorer: before its tests the
 * view is open on the sandbox (`set` receives the session), after each test the scripted prompter
 * is removed so a leftover script never answers the next test's questions.
 */
export function explorerSuite(
  set: (s: SandboxSession) => void,
  opts: { switchTo?: boolean; refresh?: boolean } = {},
): void {
  let ex: any;
  before(async () => {
    const s = await openSandboxView(opts);
    ex = s.ex;
    set(s);
  });
  afterEach(() => ex?.usePrompter(undefined));
}

/**
 * The hooks of an Administration suite: those of explorerSuite (the profile Sandbox active, the
 * tree read afresh) and, after the suite, the member profile removed (when a test added it) and the
 * sandbox active again.
 */
export function adminSuite(set: (s: SandboxSession) => void, memberProfile?: string): void {
  let api: any;
  explorerSuite(
    (s) => {
      api = s.api;
      set(s);
    },
    { switchTo: true, refresh: true },
  );
  after(async () => {
    if (memberProfile && api.services.profiles.get(memberProfile))
      await vscode.commands.executeCommand('dashboardPlatform.profiles.remove', { name: memberProfile });
    await api.services.profiles.switchTo('Sandbox');
  });
}

/**
 * Adds a profile on the sandbox holding the member token (for this session only) and makes it the
 * active one: the view then shows what a user without the admin role sees.
 */
export async function signInAsMember(
  profile: string,
  s: Pick<SandboxSession, 'api' | 'ex' | 'base'>,
): Promise<void> {
  await vscode.commands.executeCommand('dashboardPlatform.profiles.add', {
    name: profile,
    platformUrl: `${s.base}/api`,
    activate: false,
  });
  s.api.services.profiles.setSessionSecret(profile, 'platformToken', s.api.sandbox.current().tokens.member);
  await s.api.services.profiles.switchTo(profile);
  await waitFor('the member profile', () =>
    s.api.services.profiles.active()?.profile.name === profile ? true : undefined,
  );
  s.ex.provider.refresh();
}
