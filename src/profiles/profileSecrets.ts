// The secrets of profiles: platform token, Data API token and AI API key, from a session-only
// store, SecretStorage (per profile, bound to the origins they were stored for) or environment
// variables. A secret is handed out only to a profile whose URL has one of the secret's origins;
// a workspace profile gets none until the user trusts it (per workspace, profile and origin), and
// where sending needs the user's decision it is asked once for concurrent requests. When
// SecretStorage cannot be used, a secret may be kept in memory for the session instead.
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import type { KnownSecrets } from '../log';
import {
  SECRET_KINDS,
  SECRET_LABELS,
  secretFromEnv,
  secretKey,
  workspaceSecretKey,
  type Profile,
  type SecretKind,
} from './profileModel';
import type { SandboxControl } from './sandboxProfile';
import {
  bindingOrigins,
  decodeSecret,
  encodeSecret,
  hostOf,
  legacyDecision,
  targetOrigin,
  trustKey,
  withOrigin,
  type BoundSecret,
  type ProfileScope,
} from './secretBinding';
import { askLegacySecret, askOriginMismatch, askTrustProfile, type SecretUseContext } from './profileTrust';

export type SecretSource = 'secretStorage' | 'session' | 'environment' | 'sandbox';

export interface SecretLookup {
  value: string;
  source: SecretSource;
  /** The environment variable, when source is 'environment'. */
  variable?: string;
}

/** Global state key of the "Trust this workspace profile" decisions (see secretBinding.trustKey). */
export const TRUSTED_PROFILES_KEY = 'dashboardPlatform.trustedWorkspaceProfiles';

/** A secret found for a profile, before the origin check. */
interface Found {
  value: string;
  source: SecretSource;
  variable?: string;
  /** The origins it may go to; undefined: not bound (environment, sandbox). */
  origins?: string[];
  /** A plain value stored before secrets were bound, and the key it was found under. */
  legacyKey?: string;
}

/** What stands between a profile and one of its secrets. */
type Block =
  | { kind: 'untrusted'; origin: string }
  | { kind: 'mismatch'; origin: string; found: Found }
  | { kind: 'legacy'; origin: string; found: Found };

/** What the secrets need to know of the profile list (ProfileService). */
export interface ProfileDirectory {
  get(name: string): Profile | undefined;
  storedProfiles(): Profile[];
  isSandbox(name: string | undefined): boolean;
  scopeOf(name: string): ProfileScope;
  /** The user profile a workspace profile of this name hides in this window, if any. */
  shadowedUserProfile(name: string): Profile | undefined;
  /** The active profile's name. */
  activeName(): string | undefined;
}

export class ProfileSecrets implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the profile name whose secrets changed. */
  readonly onDidChange = this.changed.event;
  private readonly session = new Map<string, BoundSecret>();
  private secretStorageError: string | undefined;
  /** Questions on screen, one per profile, secret and origin (concurrent requests share it). */
  private readonly asking = new Map<string, Promise<string | undefined>>();
  /** Questions answered "Cancel" this session: not asked again until the profile is chosen again. */
  private readonly declined = new Set<string>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly sandbox: SandboxControl,
    private readonly knownSecrets: KnownSecrets,
    private readonly env: Record<string, string | undefined>,
    private readonly profiles: ProfileDirectory,
  ) {
    this.subscription = context.secrets.onDidChange((e) => {
      const name = this.profileOfSecretKey(e.key);
      if (name) this.changed.fire(name);
    });
  }

  /** This workspace's identity in trust decisions (its .code-workspace file, else its first folder). */
  private workspaceId(): string {
    return (vscode.workspace.workspaceFile ?? vscode.workspace.workspaceFolders?.[0]?.uri)?.toString() ?? '';
  }

  /** Whether the user trusted this workspace profile to receive secrets for `origin`. */
  isTrustedFor(name: string, origin: string): boolean {
    if (this.profiles.scopeOf(name) !== 'workspace') return true;
    if (!vscode.workspace.isTrusted) return false;
    const trusted = this.context.globalState.get<string[]>(TRUSTED_PROFILES_KEY) ?? [];
    return trusted.includes(trustKey(this.workspaceId(), name, origin));
  }

  /** Whether the workspace profile is trusted for its platform URL (for the status bar, pickers). */
  isTrusted(name: string): boolean {
    const p = this.profiles.get(name);
    const origin = p ? targetOrigin(p, 'platformToken') : undefined;
    return !!origin && this.isTrustedFor(name, origin);
  }

  private async trust(name: string, origin: string): Promise<void> {
    const trusted = this.context.globalState.get<string[]>(TRUSTED_PROFILES_KEY) ?? [];
    const key = trustKey(this.workspaceId(), name, origin);
    if (!trusted.includes(key))
      await this.context.globalState.update(TRUSTED_PROFILES_KEY, [...trusted, key]);
    this.log.info(`Trusted workspace profile "${name}" for ${origin} in this workspace`);
    this.changed.fire(name);
  }

  /** Undefined while SecretStorage works; otherwise the reason it does not. */
  get secretStorageProblem(): string | undefined {
    return this.secretStorageError;
  }

  private storageKey(profile: string, kind: SecretKind, scope = this.profiles.scopeOf(profile)): string {
    return scope === 'workspace' ? workspaceSecretKey(profile, kind) : secretKey(profile, kind);
  }

  private sessionKey(profile: string, kind: SecretKind, scope = this.profiles.scopeOf(profile)): string {
    return this.storageKey(profile.toLowerCase(), kind, scope);
  }

  private profileOfSecretKey(key: string): string | undefined {
    return this.profiles
      .storedProfiles()
      .find((p) => SECRET_KINDS.some((k) => this.storageKey(p.name, k) === key))?.name;
  }

  /**
   * The secret of a profile before any origin check: session store, then SecretStorage (a
   * workspace profile's own key; a plain value of the user's key only when no user profile has
   * that name), then the environment. Never asks.
   */
  private async find(kind: SecretKind, name: string, scope: ProfileScope): Promise<Found | undefined> {
    const session = this.session.get(this.sessionKey(name, kind, scope));
    if (session) return { value: session.value, source: 'session', origins: session.origins };
    const keys = [this.storageKey(name, kind, scope)];
    // A workspace profile may be offered a token stored before secrets were bound, if no user
    // profile claims the name (asked first: see Block 'legacy').
    if (scope === 'workspace' && !this.profiles.shadowedUserProfile(name)) keys.push(secretKey(name, kind));
    for (const key of keys) {
      let stored: string | undefined;
      try {
        stored = await this.context.secrets.get(key);
      } catch (e) {
        this.noteSecretStorageFailure(e);
      }
      if (!stored) continue;
      const decoded = decodeSecret(stored);
      if (decoded.kind === 'bound') {
        // Only the profile's own key holds secrets for it; a bound user secret is the user profile's.
        if (key !== keys[0]) continue;
        return { value: decoded.secret.value, source: 'secretStorage', origins: decoded.secret.origins };
      }
      return { value: decoded.value, source: 'secretStorage', legacyKey: key };
    }
    // Environment variables are the user's: a workspace profile named like a user profile gets none.
    if (scope === 'workspace' && this.profiles.shadowedUserProfile(name)) return undefined;
    const isActive = name.toLowerCase() === this.profiles.activeName()?.toLowerCase();
    const fromEnv = secretFromEnv(kind, name, isActive, this.env);
    return fromEnv ? { value: fromEnv.value, source: 'environment', variable: fromEnv.variable } : undefined;
  }

  /**
   * The secret of `kind` for a request of profile `name` (the active one by default) to its URL
   * (`agentUrl` for the AI API key), or why it may not be sent. A user profile's plain value from
   * before this version is bound to the profile's URL here (its user-level URL: it is the user's).
   */
  private async check(
    kind: SecretKind,
    name: string,
    agentUrl?: string,
  ): Promise<{ ok: Found } | { block: Block } | undefined> {
    const profile = this.profiles.get(name);
    if (!profile) return undefined;
    const scope = this.profiles.scopeOf(profile.name);
    const origin = targetOrigin(profile, kind, agentUrl);
    if (!origin) return undefined;
    if (scope === 'workspace' && !this.isTrustedFor(profile.name, origin))
      return { block: { kind: 'untrusted', origin } };
    const found = await this.find(kind, profile.name, scope);
    if (!found) return undefined;
    if (found.legacyKey) {
      if (legacyDecision(scope) === 'ask' || found.legacyKey !== this.storageKey(profile.name, kind, scope))
        return { block: { kind: 'legacy', origin, found } };
      const origins = bindingOrigins(profile, kind);
      await this.storeBound({ value: found.value, origins }, profile.name, kind, scope);
      this.log.info(`Bound the stored ${kind} of "${profile.name}" to ${origins.join(', ')}`);
      found.origins = origins;
      found.legacyKey = undefined;
    }
    if (found.origins && !found.origins.includes(origin))
      return { block: { kind: 'mismatch', origin, found } };
    this.knownSecrets.add(found.value);
    return { ok: found };
  }

  private sandboxSecret(kind: SecretKind): SecretLookup | undefined {
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

  /**
   * A secret of a profile (the active one by default) that may be sent to the profile's URL now
   * (`agentUrl`: the AI agent it is for), without asking anything: undefined when there is none,
   * or when sending it needs the user's decision (see `secretForUse`).
   */
  async getSecret(
    kind: SecretKind,
    profileName?: string,
    agentUrl?: string,
  ): Promise<SecretLookup | undefined> {
    const name = profileName ?? this.profiles.activeName();
    if (!name) return undefined;
    if (this.profiles.isSandbox(name)) return this.sandboxSecret(kind);
    const r = await this.check(kind, name, agentUrl);
    return r && 'ok' in r ? lookupOf(r.ok) : undefined;
  }

  /** Whether a profile has a secret of `kind` at all (it may still need the user's decision). */
  async hasSecret(kind: SecretKind, profileName?: string): Promise<boolean> {
    const name = profileName ?? this.profiles.activeName();
    if (!name) return false;
    if (this.profiles.isSandbox(name)) return !!this.sandbox.current;
    const profile = this.profiles.get(name);
    return !!profile && !!(await this.find(kind, profile.name, this.profiles.scopeOf(profile.name)));
  }

  /**
   * The secret to send for a request the user started: like `getSecret`, but when a decision is
   * needed it asks (a workspace profile to trust, a token stored for another host, a token from
   * before secrets were bound), once for concurrent requests. Throws a sentence saying what to do
   * when the answer is no.
   */
  async secretForUse(
    kind: SecretKind,
    profileName: string,
    agentUrl?: string,
  ): Promise<SecretLookup | undefined> {
    if (this.profiles.isSandbox(profileName)) return this.sandboxSecret(kind);
    for (let round = 0; round < 3; round++) {
      const r = await this.check(kind, profileName, agentUrl);
      if (!r) return undefined;
      if ('ok' in r) return lookupOf(r.ok);
      const profile = this.profiles.get(profileName)!;
      const key = `${this.profiles.scopeOf(profile.name)}|${profile.name.toLowerCase()}|${kind}|${r.block.kind}|${r.block.origin}`;
      if (this.declined.has(key))
        throw refusal(profile.name, kind, r.block, this.profiles.scopeOf(profile.name));
      let pending = this.asking.get(key);
      if (!pending) {
        pending = this.decide(profile, kind, r.block).finally(() => this.asking.delete(key));
        this.asking.set(key, pending);
      }
      const answer = await pending;
      if (answer === undefined) {
        this.declined.add(key);
        throw refusal(profile.name, kind, r.block, this.profiles.scopeOf(profile.name));
      }
      // Decided: look again (the secret is now bound or the profile trusted).
    }
    return undefined;
  }

  /** Asks the user about one block; resolves 'ok' once it is lifted, undefined on Cancel. */
  private async decide(profile: Profile, kind: SecretKind, block: Block): Promise<string | undefined> {
    const scope = this.profiles.scopeOf(profile.name);
    const ctx: SecretUseContext = {
      profile: profile.name,
      kind,
      origin: block.origin,
      scope,
      userProfileUrl: this.profiles.shadowedUserProfile(profile.name)?.platformUrl,
    };
    if (block.kind === 'untrusted') {
      if (!(await askTrustProfile(ctx))) return undefined;
      await this.trust(profile.name, block.origin);
      return 'ok';
    }
    const answer =
      block.kind === 'mismatch'
        ? await askOriginMismatch(ctx, block.found.origins ?? [])
        : await askLegacySecret(ctx);
    if (!answer) return undefined;
    const value = answer.kind === 'new' ? answer.value : block.found.value;
    const bound: BoundSecret =
      answer.kind === 'send' && block.kind === 'mismatch' && block.found.origins
        ? withOrigin({ value, origins: block.found.origins }, block.origin)
        : { value, origins: [block.origin] };
    this.knownSecrets.add(value);
    if (block.found.source === 'session') this.session.set(this.sessionKey(profile.name, kind, scope), bound);
    else await this.storeBound(bound, profile.name, kind, scope);
    // A token from before binding, moved to the workspace profile's own key, leaves the user's key.
    const key = this.storageKey(profile.name, kind, scope);
    if (block.kind === 'legacy' && block.found.legacyKey && block.found.legacyKey !== key) {
      await this.context.secrets
        .delete(block.found.legacyKey)
        .then(undefined, (e: unknown) => this.noteSecretStorageFailure(e));
    }
    this.log.info(
      `The ${kind} of "${profile.name}" may now be sent to ${block.origin}${answer.kind === 'new' ? ' (a new one was entered)' : ''}`,
    );
    this.changed.fire(profile.name);
    return 'ok';
  }

  /** Stores a bound secret of a profile; kept in memory for this session when SecretStorage fails. */
  private async storeBound(
    secret: BoundSecret,
    name: string,
    kind: SecretKind,
    scope: ProfileScope,
  ): Promise<void> {
    try {
      await this.context.secrets.store(this.storageKey(name, kind, scope), encodeSecret(secret));
    } catch (e) {
      this.noteSecretStorageFailure(e);
      this.session.set(this.sessionKey(name, kind, scope), secret);
    }
  }

  /** Asks again what was answered "Cancel" for a profile (it was chosen again). */
  forgetDeclined(name: string): void {
    const n = `|${name.toLowerCase()}|`;
    for (const k of [...this.declined]) if (k.includes(n)) this.declined.delete(k);
  }

  /** The origins a secret of `kind` typed now for profile `name` is bound to. */
  private originsFor(profileName: string, kind: SecretKind): string[] {
    const profile = this.profiles.get(profileName);
    if (!profile) throw new Error(`There is no profile named "${profileName}".`);
    const origins = bindingOrigins(profile, kind);
    if (origins.length === 0) throw new Error(`Profile "${profileName}" has no valid URL for its ${kind}.`);
    return origins;
  }

  /**
   * Stores a secret in SecretStorage, bound to the origin of the profile's URL it is for. When
   * SecretStorage fails and `sessionFallback` is true the secret is kept in memory for this session
   * instead; otherwise the failure is thrown.
   */
  async setSecret(
    profileName: string,
    kind: SecretKind,
    value: string,
    sessionFallback = false,
  ): Promise<'secretStorage' | 'session'> {
    if (this.profiles.isSandbox(profileName)) throw new Error('The Sandbox profile has its own tokens.');
    const trimmed = value.trim();
    this.knownSecrets.add(trimmed);
    const bound = { value: trimmed, origins: this.originsFor(profileName, kind) };
    this.forgetDeclined(profileName);
    try {
      await this.context.secrets.store(this.storageKey(profileName, kind), encodeSecret(bound));
      this.session.delete(this.sessionKey(profileName, kind));
      this.changed.fire(profileName);
      return 'secretStorage';
    } catch (e) {
      this.noteSecretStorageFailure(e);
      if (!sessionFallback) throw new SecretStorageUnavailableError(this.secretStorageError ?? String(e));
      this.session.set(this.sessionKey(profileName, kind), bound);
      this.changed.fire(profileName);
      return 'session';
    }
  }

  /** Redacts a secret from every log line, error, transcript and output from now on (it is not stored). */
  rememberSecret(value: string): void {
    this.knownSecrets.add(value.trim());
  }

  /** Keeps a secret in memory only (never written anywhere), bound like a stored one. */
  setSessionSecret(profileName: string, kind: SecretKind, value: string): void {
    this.knownSecrets.add(value.trim());
    this.forgetDeclined(profileName);
    this.session.set(this.sessionKey(profileName, kind), {
      value: value.trim(),
      origins: this.originsFor(profileName, kind),
    });
    this.changed.fire(profileName);
  }

  async clearSecrets(profileName: string, scope = this.profiles.scopeOf(profileName)): Promise<void> {
    for (const kind of SECRET_KINDS) {
      this.session.delete(this.sessionKey(profileName, kind, scope));
      try {
        await this.context.secrets.delete(this.storageKey(profileName, kind, scope));
      } catch (e) {
        this.noteSecretStorageFailure(e);
      }
    }
    this.changed.fire(profileName);
  }

  /** Moves a renamed profile's secrets to its new name. */
  async moveSecrets(from: string, to: string, scope: ProfileScope): Promise<void> {
    for (const kind of SECRET_KINDS) {
      const session = this.session.get(this.sessionKey(from, kind, scope));
      if (session) this.session.set(this.sessionKey(to, kind, scope), session);
      try {
        const v = await this.context.secrets.get(this.storageKey(from, kind, scope));
        if (v) await this.context.secrets.store(this.storageKey(to, kind, scope), v);
      } catch (e) {
        this.noteSecretStorageFailure(e);
      }
    }
    await this.clearSecrets(from, scope);
  }

  private noteSecretStorageFailure(e: unknown): void {
    const reason = e instanceof Error ? e.message : String(e);
    if (this.secretStorageError === undefined) {
      this.log.warn(`SecretStorage is unavailable: ${reason}`);
    }
    this.secretStorageError = reason;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    this.session.clear();
  }
}

function lookupOf(f: Found): SecretLookup {
  return { value: f.value, source: f.source, ...(f.variable ? { variable: f.variable } : {}) };
}

/** The error when the user said no: what was not sent, and how to change it. */
function refusal(name: string, kind: SecretKind, block: Block, scope: ProfileScope): ApiError {
  const what = SECRET_LABELS[kind];
  const host = hostOf(block.origin);
  const message =
    block.kind === 'untrusted'
      ? `Profile "${name}" comes from this workspace's settings and is not trusted, so no ${what} is sent to ${host}. Choose the profile again to be asked, or pick one of your own profiles.`
      : block.kind === 'mismatch'
        ? `The ${what} of "${name}" was stored for ${(block.found.origins ?? []).map(hostOf).join(', ')}, not ${host}, so it was not sent. Choose the profile again to be asked, or run "Dashboard Platform: Set Token…" to enter one for ${host}.`
        : `The ${what} stored for "${name}" before tokens were tied to a host was not sent to ${host}${scope === 'workspace' ? " (the profile comes from this workspace's settings)" : ''}. Choose the profile again to be asked, or run "Dashboard Platform: Set Token…".`;
  return new ApiError('auth', message, {
    code: block.kind === 'untrusted' ? 'PROFILE_NOT_TRUSTED' : 'SECRET_ORIGIN',
  });
}

export class SecretStorageUnavailableError extends Error {
  override readonly name = 'SecretStorageUnavailableError';
  constructor(readonly reason: string) {
    super(
      `VS Code cannot store secrets on this machine (${reason}). On Linux this usually means no keyring is running. You can keep the token for this session only.`,
    );
  }
}
