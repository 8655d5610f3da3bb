// The active profile and the profile list: non-secret parts from settings (parsed with zod), secrets
// from SecretStorage (per profile), environment variables, or a session-only store when
// SecretStorage cannot be used. The built-in Sandbox profile is always listed and never stored.
import * as vscode from 'vscode';
import type { KnownSecrets } from '../log';
import { parseProfiles } from './profileParse';
import {
  SANDBOX_PROFILE_NAME,
  SECRET_KINDS,
  secretFromEnv,
  secretKey,
  toSettingsValue,
  type Profile,
  type SecretKind,
} from './profileModel';
import { sandboxProfile, type SandboxControl } from './sandboxProfile';

export const SECTION = 'dashboardPlatform';

export interface ActiveProfile {
  profile: Profile;
  isSandbox: boolean;
}

export type SecretSource = 'secretStorage' | 'session' | 'environment' | 'sandbox';

export interface SecretLookup {
  value: string;
  source: SecretSource;
  /** The environment variable, when source is 'environment'. */
  variable?: string;
}

/** Workspace state key of the active profile's name ('' once "no profile" was chosen). */
export const ACTIVE_STATE_KEY = 'dashboardPlatform.activeProfile';
const NO_PROFILE = '';

export class ProfileService implements vscode.Disposable {
  private readonly activeEmitter = new vscode.EventEmitter<ActiveProfile | undefined>();
  private readonly listEmitter = new vscode.EventEmitter<void>();
  private readonly secretsEmitter = new vscode.EventEmitter<string>();
  /** Fires when the active profile changes, or the active profile is edited. */
  readonly onDidChangeActiveProfile = this.activeEmitter.event;
  /** Fires when the list of profiles changes (settings edited). */
  readonly onDidChangeProfiles = this.listEmitter.event;
  /** Fires with the profile name whose secrets changed. */
  readonly onDidChangeSecrets = this.secretsEmitter.event;

  private profiles: Profile[] = [];
  private problems: string[] = [];
  private activeKey: string | undefined;
  private readonly session = new Map<string, string>();
  private secretStorageError: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    readonly sandbox: SandboxControl,
    private readonly knownSecrets: KnownSecrets,
    private readonly env: Record<string, string | undefined> = process.env,
  ) {
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
      context.secrets.onDidChange((e) => {
        const name = this.profileOfSecretKey(e.key);
        if (name) this.secretsEmitter.fire(name);
      }),
      this.activeEmitter,
      this.listEmitter,
      this.secretsEmitter,
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
    const beforeList = JSON.stringify(this.profiles);
    const parsed = parseProfiles(config.get<unknown>('profiles'));
    this.profiles = parsed.profiles;
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
    if (JSON.stringify(this.profiles) !== beforeList) this.listEmitter.fire();
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

  active(): ActiveProfile | undefined {
    if (!this.activeKey) return undefined;
    const profile = this.get(this.activeKey);
    return profile ? { profile, isSandbox: this.isSandbox(profile.name) } : undefined;
  }

  /** Where settings writes go: the workspace when it already defines the value, else user settings. */
  private target(key: string): vscode.ConfigurationTarget {
    const info = vscode.workspace.getConfiguration(SECTION).inspect(key);
    if (info?.workspaceFolderValue !== undefined) return vscode.ConfigurationTarget.WorkspaceFolder;
    if (info?.workspaceValue !== undefined) return vscode.ConfigurationTarget.Workspace;
    return vscode.ConfigurationTarget.Global;
  }

  async switchTo(name: string | undefined): Promise<void> {
    const profile = name === undefined ? undefined : this.get(name);
    if (name !== undefined && !profile) throw new Error(`There is no profile named "${name}".`);
    // The choice is this workspace's state, never a write to the (often committed) settings file.
    await this.context.workspaceState.update(ACTIVE_STATE_KEY, profile?.name ?? NO_PROFILE);
    this.reload(true);
    this.log.info(profile ? `Active profile: ${profile.name}` : 'No active profile');
  }

  /** Adds or replaces a stored profile (by `previousName` or its own name). */
  async save(profile: Profile, previousName?: string): Promise<void> {
    if (this.isSandbox(profile.name))
      throw new Error(`"${SANDBOX_PROFILE_NAME}" is built in and cannot be saved.`);
    const key = (previousName ?? profile.name).toLowerCase();
    const clash = this.profiles.find(
      (p) => p.name.toLowerCase() === profile.name.toLowerCase() && p.name.toLowerCase() !== key,
    );
    if (clash) throw new Error(`A profile named "${profile.name}" already exists.`);
    const config = vscode.workspace.getConfiguration(SECTION);
    const raw = config.get<unknown[]>('profiles');
    const list = Array.isArray(raw) ? [...raw] : [];
    const index = list.findIndex(
      (e) =>
        !!e &&
        typeof e === 'object' &&
        typeof (e as { name?: unknown }).name === 'string' &&
        (e as { name: string }).name.trim().toLowerCase() === key,
    );
    const value = toSettingsValue(profile);
    if (index >= 0) list[index] = value;
    else list.push(value);
    await config.update('profiles', list, this.target('profiles'));
    if (previousName && previousName.toLowerCase() !== profile.name.toLowerCase()) {
      await this.moveSecrets(previousName, profile.name);
      if (this.activeKey?.toLowerCase() === previousName.toLowerCase()) {
        await this.context.workspaceState.update(ACTIVE_STATE_KEY, profile.name);
      }
    }
    this.reload(true);
  }

  async remove(name: string): Promise<void> {
    if (this.isSandbox(name)) throw new Error(`"${SANDBOX_PROFILE_NAME}" is built in and cannot be removed.`);
    const config = vscode.workspace.getConfiguration(SECTION);
    const raw = config.get<unknown[]>('profiles');
    const list = (Array.isArray(raw) ? raw : []).filter(
      (e) =>
        !(
          e &&
          typeof e === 'object' &&
          (e as { name?: string }).name?.trim().toLowerCase() === name.toLowerCase()
        ),
    );
    await config.update('profiles', list, this.target('profiles'));
    await this.clearSecrets(name);
    if (this.activeKey?.toLowerCase() === name.toLowerCase()) {
      await this.context.workspaceState.update(ACTIVE_STATE_KEY, NO_PROFILE);
    }
    this.reload(true);
  }

  // ---- secrets ----

  /** Undefined while SecretStorage works; otherwise the reason it does not. */
  get secretStorageProblem(): string | undefined {
    return this.secretStorageError;
  }

  private sessionKey(profile: string, kind: SecretKind): string {
    return secretKey(profile.toLowerCase(), kind);
  }

  private profileOfSecretKey(key: string): string | undefined {
    return this.profiles.find((p) => SECRET_KINDS.some((k) => secretKey(p.name, k) === key))?.name;
  }

  /**
   * A secret of a profile (the active one by default): session store, then SecretStorage, then the
   * environment (per-profile variable, or the generic one for the active profile).
   */
  async getSecret(kind: SecretKind, profileName?: string): Promise<SecretLookup | undefined> {
    const name = profileName ?? this.activeKey;
    if (!name) return undefined;
    if (this.isSandbox(name)) {
      const h = this.sandbox.current;
      if (!h) return undefined;
      const value =
        kind === 'platformToken'
          ? h.tokens.admin
          : kind === 'dataApiToken'
            ? h.tokens.dataApi
            : h.tokens.aiApiKey;
      this.knownSecrets.add(value);
      return { value, source: 'sandbox' };
    }
    const session = this.session.get(this.sessionKey(name, kind));
    if (session) return { value: session, source: 'session' };
    let stored: string | undefined;
    try {
      stored = await this.context.secrets.get(secretKey(name, kind));
    } catch (e) {
      this.noteSecretStorageFailure(e);
    }
    if (stored) {
      this.knownSecrets.add(stored);
      return { value: stored, source: 'secretStorage' };
    }
    const isActive = name.toLowerCase() === this.activeKey?.toLowerCase();
    const fromEnv = secretFromEnv(kind, name, isActive, this.env);
    if (fromEnv) {
      this.knownSecrets.add(fromEnv.value);
      return { value: fromEnv.value, source: 'environment', variable: fromEnv.variable };
    }
    return undefined;
  }

  /**
   * Stores a secret in SecretStorage. When SecretStorage fails and `sessionFallback` is true the
   * secret is kept in memory for this session instead; otherwise the failure is thrown.
   */
  async setSecret(
    profileName: string,
    kind: SecretKind,
    value: string,
    sessionFallback = false,
  ): Promise<'secretStorage' | 'session'> {
    if (this.isSandbox(profileName)) throw new Error('The Sandbox profile has its own tokens.');
    const trimmed = value.trim();
    this.knownSecrets.add(trimmed);
    try {
      await this.context.secrets.store(secretKey(profileName, kind), trimmed);
      this.session.delete(this.sessionKey(profileName, kind));
      this.secretsEmitter.fire(profileName);
      return 'secretStorage';
    } catch (e) {
      this.noteSecretStorageFailure(e);
      if (!sessionFallback) throw new SecretStorageUnavailableError(this.secretStorageError ?? String(e));
      this.session.set(this.sessionKey(profileName, kind), trimmed);
      this.secretsEmitter.fire(profileName);
      return 'session';
    }
  }

  /** Redacts a secret from every log line and error from now on (it is not stored). */
  rememberSecret(value: string): void {
    this.knownSecrets.add(value.trim());
  }

  /** Keeps a secret in memory only (never written anywhere). */
  setSessionSecret(profileName: string, kind: SecretKind, value: string): void {
    this.knownSecrets.add(value.trim());
    this.session.set(this.sessionKey(profileName, kind), value.trim());
    this.secretsEmitter.fire(profileName);
  }

  async clearSecrets(profileName: string): Promise<void> {
    for (const kind of SECRET_KINDS) {
      this.session.delete(this.sessionKey(profileName, kind));
      try {
        await this.context.secrets.delete(secretKey(profileName, kind));
      } catch (e) {
        this.noteSecretStorageFailure(e);
      }
    }
    this.secretsEmitter.fire(profileName);
  }

  private async moveSecrets(from: string, to: string): Promise<void> {
    for (const kind of SECRET_KINDS) {
      const session = this.session.get(this.sessionKey(from, kind));
      if (session) this.session.set(this.sessionKey(to, kind), session);
      try {
        const v = await this.context.secrets.get(secretKey(from, kind));
        if (v) await this.context.secrets.store(secretKey(to, kind), v);
      } catch (e) {
        this.noteSecretStorageFailure(e);
      }
    }
    await this.clearSecrets(from);
  }

  private noteSecretStorageFailure(e: unknown): void {
    const reason = e instanceof Error ? e.message : String(e);
    if (this.secretStorageError === undefined) {
      this.log.warn(`SecretStorage is unavailable: ${reason}`);
    }
    this.secretStorageError = reason;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.session.clear();
  }
}

export class SecretStorageUnavailableError extends Error {
  override readonly name = 'SecretStorageUnavailableError';
  constructor(readonly reason: string) {
    super(
      `VS Code cannot store secrets on this machine (${reason}). On Linux this usually means no keyring is running. You can keep the token for this session only.`,
    );
  }
}
