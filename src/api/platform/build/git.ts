// Source control of the model: commit the active dev branch, pull a branch from its remote, merge
// into the parent branch, merge straight into the default (deploy) branch. Each is one write,
// never retried; an unclear failure is an unknown outcome with a way to check.
import { z } from 'zod';
import { parseInput, type PlatformTransport } from '../transport';
import { BranchName, deploymentPath, WriteResponseSchema } from './common';

export const CommitInputSchema = z.strictObject({
  message: z.string().trim().min(1, 'a commit message is required'),
  exitDevMode: z.boolean().optional(),
  resolveMergeConflict: z.boolean().optional(),
});
export const PullInputSchema = z.strictObject({ branchName: BranchName });
export const MergeInputSchema = z.strictObject({
  branchName: BranchName,
  message: z.string().min(1).optional(),
  deleteBranch: z.boolean().optional(),
  squashCommits: z.boolean().optional(),
  switchToParentBranch: z.boolean().optional(),
});
export const MergeToDefaultInputSchema = z.strictObject({
  branchName: BranchName,
  message: z.string().trim().min(1, 'a merge message is required'),
  removeBranchAfterMerge: z.boolean().optional(),
});

export const MergeResponseSchema = z.looseObject({
  merged: z.boolean(),
  branchDeleted: z.boolean().optional(),
});
export const PullResponseSchema = z.looseObject({ buildTriggered: z.boolean() });

const checkBranch = (what: string) => ({
  hint: `Look at the branch's history in the model (Pull, or pick the branch again) to see whether the ${what} happened.`,
});

export function commit(
  t: PlatformTransport,
  deploymentId: number,
  input: z.input<typeof CommitInputSchema>,
  signal?: AbortSignal,
) {
  const body = parseInput(CommitInputSchema, input, 'Not committed');
  return t.write('POST', `${deploymentPath(deploymentId)}/commit`, body, WriteResponseSchema, {
    signal,
    action: 'Committing the model changes',
    check: checkBranch('commit'),
  });
}

export function pull(t: PlatformTransport, deploymentId: number, branchName: string, signal?: AbortSignal) {
  const body = parseInput(PullInputSchema, { branchName }, 'Not pulled');
  return t.write('POST', `${deploymentPath(deploymentId)}/pull`, body, PullResponseSchema, {
    signal,
    action: `Pulling ${body.branchName}`,
    check: checkBranch('pull'),
  });
}

export function mergeIntoParent(
  t: PlatformTransport,
  deploymentId: number,
  input: z.input<typeof MergeInputSchema>,
  signal?: AbortSignal,
) {
  const body = parseInput(MergeInputSchema, input, 'Not merged');
  return t.write('POST', `${deploymentPath(deploymentId)}/merge`, body, MergeResponseSchema, {
    signal,
    action: `Merging ${body.branchName} into its parent`,
    check: checkBranch('merge'),
  });
}

export function mergeToDefault(
  t: PlatformTransport,
  deploymentId: number,
  input: z.input<typeof MergeToDefaultInputSchema>,
  signal?: AbortSignal,
) {
  const body = parseInput(MergeToDefaultInputSchema, input, 'Not merged');
  return t.write('POST', `${deploymentPath(deploymentId)}/merge-to-default`, body, MergeResponseSchema, {
    signal,
    action: `Merging ${body.branchName} into the default branch`,
    check: checkBranch('merge'),
  });
}
