// The active profile and the profile list: non-secret parts from settings (user settings, plus the
// workspace's when the workspace is trusted, marked as such), added, renamed and removed where they
// are defined; the active profile is this workspace's choice. The built-in Sandbox profile is always
// listed and never stored. Profiles' secrets, and whether a workspace profile is trusted with them,
// are profileSecrets.ts's (this service passes its questions on, so callers hold one object).
import * as vscode from 'vscode';
import type { KnownSecrets } from '../log';
import { SANDBOX_PROFILE_NAME, toSettingsValue, type Profile, type SecretKind } from './profileModel';
import { ProfileSecrets, type SecretLookup } from './profileSecrets';
import { sandboxProfile, type SandboxControl } from './sandboxProfile';
import { scopedProfiles, type ProfileScope } from './secretBinding';

export const SECTION = 'dashboardPlatform';

export interface ActiveProfile {
  profile: Profile;
  isSandbox: boolean;
}

/** Workspace state key of the active profile's name ('' once "no profile" was chosen). */
export const ACTIVE_STATE_KEY = 'dashboardPlatform.activeProfile';
const NO_PROFILE = '';

export class ProfileService implements vscode.Disposable {
  private readonly activeEmitter = new vscode.EventEmitter<ActiveProfile | undefined>();
  private readonly listEmitter = new vscode.EventEmitter<void>();
  /** Fires when the active profile changes, or the active profile is edited. */
  readonly onDidChangeActiveProfile = this.activeEmitter.event;
  /** Fires when the list of profiles changes (settings edited, workspace trusted). */
  readonly onDidChangeProfiles = this.listEmitter.event;
  private profiles: Profile[] = [];
  private workspaceNames = new Set<string>();
  private shadowed = new Map<string, Profile>();
  private problems: string[] = [];
  private activeKey: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly secrets: ProfileSecrets;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    readonly sandbox: SandboxControl,
    knownSecrets: KnownSecrets,
    env: Record<string, string | undefined> = process.env,
  ) {
    this.secrets = new ProfileSecrets(context, log, sandbox, knownSecrets, env, this);
    this.reload(false);
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SECTION}.activeProfile`)) {
          // The user edited the setting by hand: adopt it as this workspace's choice (read only).
          const v = vscode.workspace.getConfiguration(SECTION).get<string>('activeProfile')?.trim();
          void this.context.workspaceState
            .update(ACTIVE_STATE_KEY, v ? v : NO_PROFILE)
            .then(() => this.reload(true));
          return;
        }
        if (e.affectsConfiguration(`${SECTION}.profiles`)) this.reload(true);
      }),
      // Restricted Mode hides the workspace's profiles; trusting the workspace shows them.
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.reload(true)),
      this.secrets,
      this.activeEmitter,
      this.listEmitter,
    );
    const sub = sandbox.onDidChange(() => {
      if (this.active()?.isSandbox) this.activeEmitter.fire(this.active());
    });
    this.disposables.push({ dispose: () => sub.dispose() });
  }

  /** Re-reads settings; fires events for what changed. */
  private reload(fire: boolean): void {
    const config = vscode.workspace.getConfiguration(SECTION);
    const before = JSON.stringify(this.active() ?? null);
    const beforeList = JSON.stringify([this.profiles, [...this.workspaceNames]]);
    const parsed = scopedProfiles(config.inspect('profiles'), vscode.workspace.isTrusted);
    this.profiles = parsed.profiles;
    this.workspaceNames = parsed.workspaceNames;
    this.shadowed = parsed.shadowed;
    const newProblems = parsed.problems.filter((p) => !this.problems.includes(p));
    this.problems = parsed.problems;
    for (const p of newProblems) {
      this.log.warn(p);
      if (fire) void vscode.window.showWarningMessage(p);
    }
    const name = this.chosenName(config.get<string>('activeProfile')?.trim() || undefined);
    this.activeKey = name && this.get(name) ? this.get(name)?.name : undefined;
    if (name && !this.activeKey) {
      this.log.warn(`Active profile "${name}" is not defined in dashboardPlatform.profiles.`);
    }
    if (!fire) return;
    if (JSON.stringify([this.profiles, [...this.workspaceNames]]) !== beforeList) this.listEmitter.fire();
    if (JSON.stringify(this.active() ?? null) !== before) this.activeEmitter.fire(this.active());
  }

  /**
   * The active profile's name: this workspace's choice (workspace state); before any choice, the
   * `activeProfile` setting of older versions is taken over once, without rewriting the file.
   */
  private chosenName(fromSettings: string | undefined): string | undefined {
    const state = this.context.workspaceState.get<string>(ACTIVE_STATE_KEY);
    if (state === undefined) {
      void this.context.workspaceState.update(ACTIVE_STATE_KEY, fromSettings ?? NO_PROFILE);
      return fromSettings;
    }
    return state === NO_PROFILE ? undefined : state;
  }

  /** Settings problems (one sentence per ignored profile). */
  settingsProblems(): readonly string[] {
    return this.problems;
  }

  /** Stored profiles plus the built-in Sandbox (last). */
  list(): Profile[] {
    return [...this.profiles, sandboxProfile(this.sandbox.current)];
  }

  storedProfiles(): Profile[] {
    return [...this.profiles];
  }

  get(name: string): Profile | undefined {
    const key = name.trim().toLowerCase();
    if (key === SANDBOX_PROFILE_NAME.toLowerCase()) return sandboxProfile(this.sandbox.current);
    return this.profiles.find((p) => p.name.toLowerCase() === key);
  }

  isSandbox(name: string | undefined): boolean {
    return name?.trim().toLowerCase() === SANDBOX_PROFILE_NAME.toLowerCase();
  }

  /** Where a profile is defined: the user's settings or this workspace's. */
  scopeOf(name: string): ProfileScope {
    return this.workspaceNames.has(name.trim().toLowerCase()) ? 'workspace' : 'user';
  }

  /** Whether a workspace profile hides a user profile of the same name in this window. */
  shadowsUserProfile(name: string): boolean {
    return this.shadowed.has(name.trim().toLowerCase());
  }

  /** The user profile a workspace profile of this name hides in this window, if any. */
  shadowedUserProfile(name: string): Profile | undefined {
    return this.shadowed.get(name.trim().toLowerCase());
  }

  /** The active profile's name (as stored), if any. */
  activeName(): string | undefined {
    return this.activeKey;
  }

  active(): ActiveProfile | undefined {
    if (!this.activeKey) return undefined;
    const profile = this.get(this.activeKey);
    return profile ? { profile, isSandbox: this.isSandbox(profile.name) } : undefined;
  }

  /** The settings level a profile lives in, and its raw list there (unknown fields kept). */
  private level(scope: ProfileScope): { list: unknown[]; target: vscode.ConfigurationTarget } {
    const info = vscode.workspace.getConfiguration(SECTION).inspect<unknown[]>('profiles');
    if (scope === 'workspace') {
      if (info?.workspaceFolderValue !== undefined)
        return {
          list: asList(info.workspaceFolderValue),
          target: vscode.ConfigurationTarget.WorkspaceFolder,
        };
      return { list: asList(info?.workspaceValue), target: vscode.ConfigurationTarget.Workspace };
    }
    return { list: asList(info?.globalValue), target: vscode.ConfigurationTarget.Global };
  }

  async switchTo(name: string | undefined): Promise<void> {
    const profile = name === undefined ? undefined : this.get(name);
    if (name !== undefined && !profile) throw new Error(`There is no profile named "${name}".`);
    // Choosing a profile again asks again what was answered "Cancel".
    if (profile) this.secrets.forgetDeclined(profile.name);
    // The choice is this workspace's state, never a write to the (often committed) settings file.
    await this.context.workspaceState.update(ACTIVE_STATE_KEY, profile?.name ?? NO_PROFILE);
    this.reload(true);
    this.log.info(profile ? `Active profile: ${profile.name}` : 'No active profile');
  }

  /**
   * Adds or replaces a profile (by `previousName` or its own name) where it is defined: a
   * workspace profile in the workspace's settings, any other (a new one too) in the user's.
   */
  async save(profile: Profile, previousName?: string): Promise<void> {
    if (this.isSandbox(profile.name))
      throw new Error(`"${SANDBOX_PROFILE_NAME}" is built in and cannot be saved.`);
    const key = (previousName ?? profile.name).toLowerCase();
    const clash = this.profiles.find(
      (p) => p.name.toLowerCase() === profile.name.toLowerCase() && p.name.toLowerCase() !== key,
    );
    if (clash) throw new Error(`A profile named "${profile.name}" already exists.`);
    const scope = this.get(key) ? this.scopeOf(key) : 'user';
    const { list: raw, target } = this.level(scope);
    const list = [...raw];
    const index = list.findIndex((e) => nameOf(e)?.toLowerCase() === key);
    const value = toSettingsValue(profile);
    if (index >= 0) list[index] = value;
    else list.push(value);
    await vscode.workspace.getConfiguration(SECTION).update('profiles', list, target);
    if (previousName && previousName.toLowerCase() !== profile.name.toLowerCase()) {
      await this.secrets.moveSecrets(previousName, profile.name, scope);
      if (this.activeKey?.toLowerCase() === previousName.toLowerCase()) {
        await this.context.workspaceState.update(ACTIVE_STATE_KEY, profile.name);
      }
    }
    this.reload(true);
  }

  async remove(name: string): Promise<void> {
    if (this.isSandbox(name)) throw new Error(`"${SANDBOX_PROFILE_NAME}" is built in and cannot be removed.`);
    const scope = this.scopeOf(name);
    const { list: raw, target } = this.level(scope);
    const key = name.trim().toLowerCase();
    const list = raw.filter((e) => nameOf(e)?.toLowerCase() !== key);
    await vscode.workspace.getConfiguration(SECTION).update('profiles', list, target);
    // The secrets are kept under the stored name: a name given in another case or with spaces
    // (a command's argument) must not leave them behind.
    const stored = raw.map(nameOf).filter((n): n is string => n?.toLowerCase() === key);
    for (const n of new Set([...stored, name])) await this.secrets.clearSecrets(n, scope);
    if (this.activeKey?.toLowerCase() === key) {
      await this.context.workspaceState.update(ACTIVE_STATE_KEY, NO_PROFILE);
    }
    this.reload(true);
  }

  // ---- secrets (profileSecrets.ts) ----

  /** Fires with the profile name whose secrets changed. */
  get onDidChangeSecrets(): vscode.Event<string> {
    return this.secrets.onDidChange;
  }

  /** Undefined while SecretStorage works; otherwise the reason it does not. */
  get secretStorageProblem(): string | undefined {
    return this.secrets.secretStorageProblem;
  }

  isTrustedFor(name: string, origin: string): boolean {
    return this.secrets.isTrustedFor(name, origin);
  }

  isTrusted(name: string): boolean {
    return this.secrets.isTrusted(name);
  }

  getSecret(kind: SecretKind, profileName?: string, agentUrl?: string): Promise<SecretLookup | undefined> {
    return this.secrets.getSecret(kind, profileName, agentUrl);
  }

  hasSecret(kind: SecretKind, profileName?: string): Promise<boolean> {
    return this.secrets.hasSecret(kind, profileName);
  }

  secretForUse(kind: SecretKind, profileName: string, agentUrl?: string): Promise<SecretLookup | undefined> {
    return this.secrets.secretForUse(kind, profileName, agentUrl);
  }

  setSecret(
    profileName: string,
    kind: SecretKind,
    value: string,
    sessionFallback = false,
  ): Promise<'secretStorage' | 'session'> {
    return this.secrets.setSecret(profileName, kind, value, sessionFallback);
  }

  rememberSecret(value: string): void {
    this.secrets.rememberSecret(value);
  }

  setSessionSecret(profileName: string, kind: SecretKind, value: string): void {
    this.secrets.setSessionSecret(profileName, kind, value);
  }

  clearSecrets(profileName: string): Promise<void> {
    return this.secrets.clearSecrets(profileName);
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? [...(v as unknown[])] : [];
}

function nameOf(entry: unknown): string | undefined {
  const n = entry && typeof entry === 'object' ? (entry as { name?: unknown }).name : undefined;
  return typeof n === 'string' ? n.trim() : undefined;
}
