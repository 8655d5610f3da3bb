// The zod schema of a profile in settings, kept apart from profileModel.ts so that activation
// loads zod only when there are profiles to parse.
import { z } from 'zod';
import {
  PROFILE_COLORS,
  SANDBOX_PROFILE_NAME,
  normalizeUrl,
  validateAgentUrl,
  validateUrl,
} from './profileModel';

const urlField = (what: string, check: (v: string) => string | undefined = (v) => validateUrl(v, what)) =>
  z
    .string()
    .superRefine((v, ctx) => {
      const problem = check(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform(normalizeUrl);

export const AgentSchema = z.looseObject({
  label: z.string().trim().min(1, 'needs a label'),
  url: urlField('AI agent URL', validateAgentUrl),
});
export type AgentRef = z.infer<typeof AgentSchema>;

export const ProfileSchema = z.looseObject({
  name: z
    .string()
    .trim()
    .min(1, 'needs a name')
    .max(64)
    .refine((n) => n.toLowerCase() !== SANDBOX_PROFILE_NAME.toLowerCase(), {
      message: `"${SANDBOX_PROFILE_NAME}" is the built-in profile; choose another name`,
    }),
  platformUrl: urlField('platform URL'),
  dataApiUrl: urlField('Data API URL').optional(),
  agents: z.array(AgentSchema).default([]),
  defaultDeploymentId: z.number().int().positive().optional(),
  production: z.boolean().optional(),
  /** Environment label shown next to the name, e.g. "prod" or "staging". */
  environment: z.string().trim().max(32).optional(),
  /** Status bar colour; production profiles default to 'error'. */
  color: z.enum(PROFILE_COLORS).optional(),
  /**
   * The AI session identity (sessionSettings): an `externalId` (an external user, lowercase) or an
   * `internalId` (the username of an existing user of the tenant). Without either, a default
   * external id derived from this machine and OS user is sent.
   */
  session: z
    .looseObject({
      externalId: z.string().optional(),
      internalId: z.string().optional(),
      email: z.string().optional(),
    })
    .optional(),
});
export type Profile = z.infer<typeof ProfileSchema>;
/** What settings hold (before defaults/normalisation). */
export type ProfileInput = z.input<typeof ProfileSchema>;

const SECRET_FIELD = /token|api_?key|secret|password|authorization/i;

export interface ParsedProfiles {
  profiles: Profile[];
  /** One sentence per rejected entry, naming the entry and the field. */
  problems: string[];
}

/** Parses the `dashboardPlatform.profiles` setting: bad entries are skipped and reported, not fatal. */
export function parseProfiles(raw: unknown): ParsedProfiles {
  const profiles: Profile[] = [];
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { profiles, problems };
  if (!Array.isArray(raw)) {
    return { profiles, problems: ['dashboardPlatform.profiles must be an array of profiles.'] };
  }
  const seen = new Set<string>();
  raw.forEach((entry, i) => {
    const result = ProfileSchema.safeParse(entry);
    const label =
      entry && typeof entry === 'object' && typeof (entry as { name?: unknown }).name === 'string'
        ? `"${(entry as { name: string }).name}"`
        : `#${i + 1}`;
    if (!result.success) {
      const issue = result.error.issues[0];
      const path = issue?.path.join('.') || '(entry)';
      problems.push(`Profile ${label} is ignored: ${path}: ${issue?.message ?? 'invalid'}`);
      return;
    }
    // Secrets never come from settings: a token pasted into a profile is dropped and reported.
    const leaked = Object.keys(result.data).filter((k) => SECRET_FIELD.test(k));
    for (const k of leaked) delete (result.data as Record<string, unknown>)[k];
    if (leaked.length) {
      problems.push(
        `Profile ${label}: ${leaked.join(', ')} ignored. Secrets are never read from settings; remove them from settings.json and use "Dashboard Platform: Set Token…" or an environment variable.`,
      );
    }
    const key = result.data.name.toLowerCase();
    if (seen.has(key)) {
      problems.push(`Profile ${label} is ignored: another profile has the same name.`);
      return;
    }
    seen.add(key);
    profiles.push(result.data);
  });
  return { profiles, problems };
}
