// GitHub, as the platform sees it for the signed-in user: whether GitHub is linked (with the
// link and install URLs), the GitHub App installations (accounts and organisations), their
// repositories, and a repository's branches. All reads; the picks of Create Deployment come from here.
import { z } from 'zod';
import { table } from './operation';
import { PageQuery } from './transport';

export const GitHubStatusSchema = z.looseObject({
  connected: z.boolean(),
  /** Where the user links their GitHub account (or installs the App). */
  linkUrl: z.string().optional(),
  settingsUrl: z.string().optional(),
});

/** An installation: its ids are text in the answer; the paths and bodies take the number. */
export const GitHubInstallationSchema = z.looseObject({
  installationId: z.union([z.string(), z.number()]),
  login: z.string(),
  id: z.union([z.string(), z.number()]).optional(),
  avatarUrl: z.string().optional(),
});
export type GitHubInstallation = z.infer<typeof GitHubInstallationSchema>;

export const GitHubRepoSchema = z.looseObject({
  name: z.string(),
  id: z.number().optional(),
  htmlUrl: z.string().optional(),
});

export const GitHubBranchSchema = z.looseObject({
  name: z.string(),
  isDefault: z.boolean().optional(),
});

const relink = 'Run "Create Deployment" again: it shows whether GitHub is linked and where to link it.';

/** GitHub (reached on `PlatformClient`). */
export const GITHUB = table(
  { names: { installationId: 'GitHub installation id' } },
  {
    getGithubStatus: {
      method: 'GET',
      path: '/v1/github/status',
      answer: GitHubStatusSchema,
      action: 'Checking whether GitHub is linked',
    },
    listGithubInstallations: {
      method: 'GET',
      path: '/v1/github/installations',
      query: PageQuery,
      item: GitHubInstallationSchema,
      action: 'Listing GitHub accounts',
    },
    listGithubRepositories: {
      method: 'GET',
      path: '/v1/github/installations/{installationId}/repositories',
      query: PageQuery,
      item: GitHubRepoSchema,
      action: 'Listing GitHub repositories',
      notFound: `The GitHub App installation {installationId} is gone or not yours. ${relink}`,
    },
    listGithubBranches: {
      method: 'GET',
      path: '/v1/github/repositories/{owner}/{repo}/branches',
      query: PageQuery.extend({ installationId: z.number().int().positive() }),
      item: GitHubBranchSchema,
      action: 'Listing the branches of a GitHub repository',
      notFound: 'There is no repository {owner}/{repo} this installation can see.',
    },
  },
);

/** The number an installation's id stands for (the answer sends it as text), or undefined. */
export function installationNumber(i: Pick<GitHubInstallation, 'installationId'>): number | undefined {
  const n = Number(i.installationId);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}
