// What belongs to the signed-in user, whatever their role: their OAuth connections
// (`/v1/user-oauth-tokens`: which integrations they hold a token for, one read, and starting the
// sign-in to one) and their own settings (`PATCH /v1/users/me/settings`, merged: only the fields
// sent change). Revoking a token is in admin/settings.ts beside the Account settings list.
import { z } from 'zod';
import { call, OperationsClient, table, variant } from './operation';
import { id, maybe, type PlatformTransport } from './transport';

export const UserOAuthTokenSchema = z.looseObject({
  id,
  integrationId: z.number(),
  status: maybe(z.string()),
  accessTokenExpiresAt: maybe(z.string()),
  refreshTokenExpiresAt: maybe(z.string()),
  lastError: z.unknown().optional(),
  updatedAt: maybe(z.string()),
});
export type UserOAuthToken = z.infer<typeof UserOAuthTokenSchema>;

const nullable = <T extends z.ZodType>(t: T) => t.nullable().optional();

/** The published SheetsUserSettingsInput (strict). */
export const SheetsSettingsInputSchema = z.strictObject({
  autoRunQueryOnChange: nullable(z.boolean()),
  openExplorationFromSheet: nullable(z.boolean()),
  revealSheetOnOpen: nullable(z.boolean()),
  showAppliedFilters: nullable(z.boolean()),
  suppressDuplicateValues: nullable(z.boolean()),
});
export const SHEETS_SETTING_KEYS = Object.keys(SheetsSettingsInputSchema.shape) as (keyof z.infer<
  typeof SheetsSettingsInputSchema
>)[];

/**
 * The published UserSettingsInput (strict). `lastSeenChangelogId` is published as deprecated and
 * ignored: accepted by the schema, never sent by this extension.
 */
export const UserSettingsInputSchema = z.strictObject({
  alternatingRowColors: nullable(z.boolean()),
  defaultDeploymentId: nullable(z.number().int()),
  lastSeenChangelogId: nullable(z.number().int()),
  locale: nullable(z.string()),
  sheets: nullable(SheetsSettingsInputSchema),
  theme: nullable(z.string()),
  timezone: nullable(z.string()),
});
export type UserSettingsInput = z.infer<typeof UserSettingsInputSchema>;

/** The answer: the user with their settings (read tolerantly: unknown settings are kept). */
export const MeSchema = z.looseObject({
  id: z.number().optional(),
  email: z.string().optional(),
  firstName: maybe(z.string()),
  settings: maybe(z.looseObject({})),
});
export type Me = z.infer<typeof MeSchema>;

/** The answer of initiate is published without a shape: read tolerantly, the address found in it. */
const InitiateSchema = z.looseObject({});

const tokens = '/v1/user-oauth-tokens';
const GONE = 'You hold no token for that integration (or it no longer exists): refresh My Connections.';

export const ME = table(
  { names: { integrationId: 'Integration id' } },
  {
    getUserOAuthToken: {
      method: 'GET',
      path: `${tokens}/{integrationId}`,
      answer: UserOAuthTokenSchema,
      action: 'Reading your connection',
      notFound: GONE,
    },
    initiateUserOAuth: {
      method: 'POST',
      path: `${tokens}/{integrationId}/initiate`,
      answer: InitiateSchema,
      action: 'Starting the sign-in',
      forbidden:
        'Starting the sign-in needs permission to be issued tokens for this integration: use the token of a user who has it, or ask an admin for it.',
      check: 'Start the connection again: an unused sign-in expires on its own.',
      notFound: 'The OAuth integration no longer exists: refresh My Connections.',
    },
    updateMySettings: {
      method: 'PATCH',
      path: '/v1/users/me/settings',
      body: UserSettingsInputSchema,
      answer: MeSchema,
      action: 'Saving your settings',
      check: 'Open My Settings again to see whether the change was saved.',
      refused: 'Settings not saved',
    },
  },
);

/** Your tokens, one per integration (one array: a bad item is set aside, never fatal). */
export const ME_LISTS = table(
  {},
  {
    listUserOAuthTokens: {
      method: 'GET',
      path: tokens,
      answer: z.array(z.unknown()),
      each: UserOAuthTokenSchema,
      action: 'Listing your OAuth connections',
    },
  },
);

/**
 * The address to open to sign in, from the initiate answer (published without a shape): the first
 * http(s) URL among the fields a sign-in start is known to carry; undefined when there is none.
 */
export function signInUrl(answer: Record<string, unknown>): string | undefined {
  for (const k of [
    'url',
    'authorizationUrl',
    'authUrl',
    'authorizeUrl',
    'redirectUrl',
    'redirectUri',
    'location',
  ]) {
    const v = answer[k];
    if (typeof v !== 'string') continue;
    try {
      const u = new URL(v);
      if (u.protocol === 'https:' || u.protocol === 'http:') return u.toString();
    } catch {
      // not a URL: look further
    }
  }
  return undefined;
}

/** An empty change: the service merges nothing and answers the user with their settings. */
export function readMySettings(t: PlatformTransport, signal?: AbortSignal): Promise<Me> {
  return call(t, variant(ME.updateMySettings, { action: 'Reading your settings' }), {}, signal);
}

/** The signed-in user's own operations (reached as `platform.me`). */
export class MeApi extends OperationsClient({ ...ME, ...ME_LISTS }, { readMySettings }) {}

/** A time zone the runtime's IANA database does not know (a typo would otherwise be saved as the user's zone). */
export function timeZoneProblem(v: string): string | undefined {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: v });
    return undefined;
  } catch {
    return `"${v}" is not a time zone: use an IANA name such as Europe/Berlin or America/New_York.`;
  }
}

/** A locale that is not a well-formed language tag (BCP 47). */
export function localeProblem(v: string): string | undefined {
  try {
    Intl.getCanonicalLocales(v);
    return undefined;
  } catch {
    return `"${v}" is not a language tag: use one such as en-US, de-DE or pt-BR.`;
  }
}
