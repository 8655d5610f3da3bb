// Connection profiles as stored in settings (non-secret parts only): env-var names and secrets
// keys; the fields' rules (URLs, colours) are in profileRules.ts, re-exported here. The zod schema
// is in profileSchema.ts (the Add Profile flow); the setting is parsed at startup without zod
// (profileParse.ts). No vscode import: unit-tested in plain Node.
import { normalizeUrl, type ProfileColor } from './profileRules';
import type { Profile } from './profileSchema';

export {
  PROFILE_COLORS,
  SANDBOX_PROFILE_NAME,
  normalizeUrl,
  validateAgentUrl,
  validateUrl,
  type ProfileColor,
} from './profileRules';
export type { AgentRef, Profile, ProfileInput } from './profileSchema';

/** Only the fields worth writing back to settings (drops defaults like an empty agents list? no: keeps it). */
export function toSettingsValue(p: Profile): Record<string, unknown> {
  const out: Record<string, unknown> = { ...p };
  for (const [k, v] of Object.entries(out)) if (v === undefined) delete out[k];
  return out;
}

/**
 * The Data API URL used when neither the profile's override nor the deployment's `deploymentUrl`
 * says: the profile's override, else derived from the platform URL (`.../api` -> `.../cubejs-api`).
 */
export function dataApiUrlOf(p: Pick<Profile, 'platformUrl' | 'dataApiUrl'>): string {
  if (p.dataApiUrl) return p.dataApiUrl;
  const url = new URL(p.platformUrl);
  url.pathname = url.pathname.replace(/\/api\/?$/, '') + '/cubejs-api';
  return normalizeUrl(url.toString());
}

export function effectiveColor(p: Pick<Profile, 'production' | 'color'>): ProfileColor {
  return p.color ?? (p.production ? 'error' : 'none');
}

// ---- secrets and environment variables ----

export const SECRET_KINDS = ['platformToken', 'dataApiToken', 'aiApiKey'] as const;
export type SecretKind = (typeof SECRET_KINDS)[number];

export const SECRET_LABELS: Record<SecretKind, string> = {
  platformToken: 'platform API token',
  dataApiToken: 'Data API token',
  aiApiKey: 'AI API key',
};

export const ENV_VARS: Record<SecretKind, string> = {
  platformToken: 'DASHBOARD_PLATFORM_TOKEN',
  dataApiToken: 'DASHBOARD_PLATFORM_DATA_API_TOKEN',
  aiApiKey: 'DASHBOARD_PLATFORM_AI_API_KEY',
};

/** "My Prod (EU)" -> "MY_PROD_EU". */
export function envSuffix(profileName: string): string {
  return profileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** Env var names consulted for a secret, most specific first. Generic ones apply only to the active profile. */
export function envVarNames(kind: SecretKind, profileName: string, active: boolean): string[] {
  const names: string[] = [];
  const suffix = envSuffix(profileName);
  if (suffix) names.push(`${ENV_VARS[kind]}_${suffix}`);
  if (active) names.push(ENV_VARS[kind]);
  return names;
}

export function secretFromEnv(
  kind: SecretKind,
  profileName: string,
  active: boolean,
  env: Record<string, string | undefined>,
): { value: string; variable: string } | undefined {
  for (const variable of envVarNames(kind, profileName, active)) {
    const value = env[variable]?.trim();
    if (value) return { value, variable };
  }
  return undefined;
}

/** SecretStorage key of one secret of one profile of the user's settings. */
export function secretKey(profileName: string, kind: SecretKind): string {
  return `dashboardPlatform.profile.${encodeURIComponent(profileName)}.${kind}`;
}

/**
 * SecretStorage key of one secret of a profile defined in a workspace's settings: another key space,
 * so a workspace profile named like one of the user's never reads the user's secret.
 */
export function workspaceSecretKey(profileName: string, kind: SecretKind): string {
  return `dashboardPlatform.workspaceProfile.${encodeURIComponent(profileName)}.${kind}`;
}

/** The `exp` of a JWT in milliseconds since the epoch, or undefined (opaque token). */
export function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

// ---- AI session identity ----

/** "vscode-jane-3f2a9c1b0d4e": lowercase and trimmed, as the AI API requires of an externalId. */
export function defaultExternalId(userName: string, machineId: string): string {
  const user = userName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const machine = machineId
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 12);
  return ['vscode', user || 'user', machine].filter(Boolean).join('-');
}

/** Problem with an identity as typed, naming the rule; undefined when it is fine. */
export function sessionIdProblem(kind: 'externalId' | 'internalId', value: string): string | undefined {
  if (value === '') return undefined;
  if (value !== value.trim()) return `The ${kind} may not start or end with spaces.`;
  if (kind === 'externalId' && value !== value.toLowerCase()) return 'The externalId must be lowercase.';
  return undefined;
}

export interface SessionIdentity {
  externalId?: string;
  internalId?: string;
  email?: string;
}

/**
 * The sessionSettings for the AI API: the profile's internalId, else its externalId, else
 * `fallbackExternalId`. Throws a sentence naming the setting when the profile's value breaks a rule.
 */
export function sessionIdentityOf(
  p: Pick<Profile, 'name' | 'session'> | undefined,
  fallbackExternalId: string,
): SessionIdentity {
  const s = p?.session;
  const email = s?.email?.trim() ? { email: s.email.trim() } : {};
  for (const kind of ['internalId', 'externalId'] as const) {
    const value = s?.[kind];
    if (value === undefined || value === '') continue;
    const problem = sessionIdProblem(kind, value);
    if (problem) {
      throw new Error(
        `${problem} Fix the AI session identity of profile "${p?.name ?? ''}" (setting dashboardPlatform.profiles → session.${kind}, or "Dashboard Platform: Edit Profile…").`,
      );
    }
    return { [kind]: value, ...email };
  }
  return { externalId: fallbackExternalId, ...email };
}
