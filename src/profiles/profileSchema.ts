// The zod schema of a profile in settings, for the Add Profile flow and the types. Settings are
// parsed at activation by profileParse.ts, which applies the same rules without zod (a unit test
// holds the two together), so activation loads no zod.
import { z } from 'zod';
import {
  PROFILE_COLORS,
  SANDBOX_PROFILE_NAME,
  normalizeUrl,
  validateAgentUrl,
  validateUrl,
} from './profileRules';

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
