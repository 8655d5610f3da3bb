// Source control of the model: commit the active dev branch, pull a branch from its remote, merge
// into the parent branch, merge straight into the default (deploy) branch. Each is one write,
// never retried; an unclear failure is an unknown outcome with a way to check.
import { z } from 'zod';
import { table } from '../operation';
import { maybe } from '../transport';
import { BranchFields, BranchName, DEPLOYMENT, WriteResponseSchema } from './common';

/** `CommitChangesRequest`; the extension always says what a commit brings. */
export const CommitInputSchema = z.strictObject({
  message: z.string().trim().min(1, 'a commit message is required'),
  exitDevMode: maybe(z.boolean()),
  resolveMergeConflict: maybe(z.boolean()),
});
export const PullInputSchema = z.strictObject({ branchName: BranchName });
/** Without a branch, the merge takes the caller's active (dev-mode) branch. */
export const MergeInputSchema = z.strictObject({
  ...BranchFields,
  message: maybe(z.string().min(1)),
  deleteBranch: maybe(z.boolean()),
  squashCommits: maybe(z.boolean()),
  switchToParentBranch: maybe(z.boolean()),
});
export const MergeToDefaultInputSchema = z.strictObject({
  ...BranchFields,
  message: z.string().trim().min(1, 'a merge message is required'),
  removeBranchAfterMerge: maybe(z.boolean()),
});

export const MergeResponseSchema = z.looseObject({
  merged: z.boolean(),
  branchDeleted: z.boolean().optional(),
});
export const PullResponseSchema = z.looseObject({ buildTriggered: z.boolean() });

const checkBranch = (what: string) =>
  `Look at the branch's history in the model (Pull, or pick the branch again) to see whether the ${what} happened.`;
type Named = { branchName?: string; branchId?: number };
const which = (b: Named) => b.branchName ?? (b.branchId ? `#${b.branchId}` : 'the active branch');

export const GIT = table(
  {},
  {
    commit: {
      method: 'POST',
      path: `${DEPLOYMENT}/commit`,
      body: CommitInputSchema,
      answer: WriteResponseSchema,
      refused: 'Not committed',
      action: 'Committing the model changes',
      check: checkBranch('commit'),
    },
    pull: {
      method: 'POST',
      path: `${DEPLOYMENT}/pull`,
      body: PullInputSchema,
      answer: PullResponseSchema,
      refused: 'Not pulled',
      action: (b: Named) => `Pulling ${which(b)}`,
      check: checkBranch('pull'),
    },
    mergeIntoParent: {
      method: 'POST',
      path: `${DEPLOYMENT}/merge`,
      body: MergeInputSchema,
      answer: MergeResponseSchema,
      refused: 'Not merged',
      action: (b: Named) => `Merging ${which(b)} into its parent`,
      check: checkBranch('merge'),
    },
    mergeToDefault: {
      method: 'POST',
      path: `${DEPLOYMENT}/merge-to-default`,
      body: MergeToDefaultInputSchema,
      answer: MergeResponseSchema,
      refused: 'Not merged',
      action: (b: Named) => `Merging ${which(b)} into the default branch`,
      check: checkBranch('merge'),
    },
  },
);
