// Secrets bound to the origin they were stored for, and profiles marked by where they are defined.
// A stored secret is `{"origin": "https://host:port", "value": "…"}` (plus `also` for more origins
// the user approved); a profile whose URL's origin is not among them never sends it. Profiles from
// a workspace's settings are kept apart from the user's (their secrets live under other keys) and
// need a one-time "trust" per workspace, profile and origin. No vscode import: unit-tested in Node.
import { dataApiUrlOf, type Profile, type SecretKind } from './profileModel';
import { parseProfiles } from './profileParse';

/** Where a profile is defined: the user's settings or this workspace's (or folder's) settings. */
export type ProfileScope = 'user' | 'workspace';

/** `https://host:port` of a URL (the port only when not the scheme's default); undefined if invalid. */
export function originOf(url: string): string | undefined {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? undefined : o;
  } catch {
    return undefined;
  }
}

/** "acme.example.com" or "127.0.0.1:8443" (what a person reads in a dialog) of an origin. */
export function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}

/** A secret and the origins it may be sent to (the first is the one it was stored for). */
export interface BoundSecret {
  value: string;
  origins: string[];
}

/** What SecretStorage holds under a secret's key. */
export type StoredSecret = { kind: 'bound'; secret: BoundSecret } | { kind: 'legacy'; value: string };

export function encodeSecret(secret: BoundSecret): string {
  const [origin, ...also] = secret.origins;
  return JSON.stringify({ origin, value: secret.value, ...(also.length ? { also } : {}) });
}

/**
 * Reads a stored value: the bound form, or a plain token stored before secrets were bound (legacy),
 * which is bound on first use (see `legacyDecision`). A token never looks like the bound form.
 */
export function decodeSecret(raw: string): StoredSecret {
  if (raw.startsWith('{')) {
    try {
      const v = JSON.parse(raw) as { origin?: unknown; value?: unknown; also?: unknown };
      if (typeof v.origin === 'string' && typeof v.value === 'string') {
        const also = Array.isArray(v.also) ? v.also.filter((o): o is string => typeof o === 'string') : [];
        return { kind: 'bound', secret: { value: v.value, origins: [v.origin, ...also] } };
      }
    } catch {
      // Not our JSON: a token that happens to start with "{" is a legacy value.
    }
  }
  return { kind: 'legacy', value: raw };
}

/**
 * The origin a secret of `kind` is sent to by this profile: the platform URL for the platform
 * token, the Data API URL (override, else derived from the platform URL) for the Data API token,
 * the agent's URL (the given one, else the first) for the AI API key.
 */
export function targetOrigin(
  profile: Pick<Profile, 'platformUrl' | 'dataApiUrl' | 'agents'>,
  kind: SecretKind,
  agentUrl?: string,
): string | undefined {
  if (kind === 'platformToken') return originOf(profile.platformUrl);
  if (kind === 'dataApiToken') {
    try {
      return originOf(dataApiUrlOf(profile));
    } catch {
      return undefined;
    }
  }
  return originOf(agentUrl ?? profile.agents[0]?.url ?? profile.platformUrl);
}

/** The origins a secret of `kind` is bound to when stored now for this profile. */
export function bindingOrigins(
  profile: Pick<Profile, 'platformUrl' | 'dataApiUrl' | 'agents'>,
  kind: SecretKind,
): string[] {
  if (kind === 'aiApiKey' && profile.agents.length > 0) {
    return [...new Set(profile.agents.map((a) => originOf(a.url)).filter((o): o is string => !!o))];
  }
  const o = targetOrigin(profile, kind);
  return o ? [o] : [];
}

/** A secret with one more origin the user approved ("Send it"). */
export function withOrigin(secret: BoundSecret, origin: string): BoundSecret {
  return secret.origins.includes(origin) ? secret : { ...secret, origins: [...secret.origins, origin] };
}

/**
 * The decision for a plain (legacy) value found under a profile's key: a profile from the user's
 * settings binds it to its user-level URL (the user put both there); any other case asks first.
 */
export function legacyDecision(scope: ProfileScope): 'bind' | 'ask' {
  return scope === 'user' ? 'bind' : 'ask';
}

// ---- profiles from user and workspace settings ----

/** The parts of `WorkspaceConfiguration.inspect('profiles')` read here. */
export interface ProfilesInspect {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

export interface ScopedProfiles {
  profiles: Profile[];
  /** Lower-cased names of the profiles defined in the workspace's settings. */
  workspaceNames: Set<string>;
  /** User profiles hidden by a workspace profile of the same name, by lower-cased name. */
  shadowed: Map<string, Profile>;
  problems: string[];
}

/**
 * The profile list: the user's profiles plus, when workspace profiles are allowed (a trusted
 * workspace), the ones of the workspace's (or folder's) settings, marked as such. A workspace
 * profile named like a user profile takes its place in this window (VS Code's precedence) but is
 * another profile: it never gets the user profile's secrets.
 */
export function scopedProfiles(info: ProfilesInspect | undefined, allowWorkspace: boolean): ScopedProfiles {
  const user = parseProfiles(info?.globalValue);
  const wsRaw = info?.workspaceFolderValue ?? info?.workspaceValue;
  const ws = allowWorkspace && wsRaw !== undefined ? parseProfiles(wsRaw) : { profiles: [], problems: [] };
  const workspaceNames = new Set(ws.profiles.map((p) => p.name.toLowerCase()));
  const shadowed = new Map(
    user.profiles
      .filter((p) => workspaceNames.has(p.name.toLowerCase()))
      .map((p) => [p.name.toLowerCase(), p]),
  );
  return {
    profiles: [...user.profiles.filter((p) => !shadowed.has(p.name.toLowerCase())), ...ws.profiles],
    workspaceNames,
    shadowed,
    problems: [...user.problems, ...ws.problems.map((p) => `In this workspace's settings: ${p}`)],
  };
}

/** One "Trust this workspace profile" decision: this workspace, this profile, this origin. */
export function trustKey(workspace: string, profileName: string, origin: string): string {
  return `${workspace}|${profileName.toLowerCase()}|${origin}`;
}
