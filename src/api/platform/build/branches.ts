// Branches and dev mode: list (tolerant), create (optionally entering dev mode), delete, a
// branch's staging environment on or off, enter and exit dev mode. `allBranches` reads every page.
import { z } from 'zod';
import type { Page, PageParams } from '../../paging';
import { table } from '../operation';
import { maybe, PageQuery } from '../transport';
import {
  BranchFields,
  BranchName,
  BranchSchema,
  DEPLOYMENT,
  WriteResponseSchema,
  type Branch,
} from './common';

export const DevBranchSchema = z.looseObject({
  active: z.boolean(),
  branchName: maybe(z.string()),
  parentBranch: maybe(z.string()),
});
export type DevBranch = z.infer<typeof DevBranchSchema>;

/** `CreateBranchRequest`: `from` and `activate` may be null, as published. */
export const CreateBranchInputSchema = z.strictObject({
  name: BranchName,
  from: maybe(BranchName),
  activate: maybe(z.boolean()),
});
type CreateBranch = z.output<typeof CreateBranchInputSchema>;

/** `SetBranchStagingEnvironmentRequest`: the branch by name or id (either may be null), and `enabled`. */
export const SetStagingInputSchema = z
  .strictObject({
    branchName: maybe(BranchFields.branchName.unwrap()),
    branchId: maybe(BranchFields.branchId.unwrap()),
    enabled: z.boolean(),
  })
  .refine((v) => v.branchName != null || v.branchId != null, 'name the branch: branchName or branchId');
type SetStaging = z.output<typeof SetStagingInputSchema>;
const stagingOf = (b: SetStaging) => b.branchName ?? `#${b.branchId}`;

/** `StartDevModeRequest`: without a branch, the caller's own dev branch. */
export const StartDevModeInputSchema = z.strictObject({ branchName: maybe(BranchName) });

/** `DELETE …/branches` names the branch in the query (branch names hold slashes). */
const RemoveBranchQuery = z.object({ branchName: BranchName, removeOnUpstream: z.boolean().optional() });
type RemoveBranch = z.output<typeof RemoveBranchQuery>;

const pickAgain = (what: string) => `Pick a branch again: the list shows whether ${what}.`;

export const BRANCHES = table(
  {},
  {
    listBranches: {
      method: 'GET',
      path: `${DEPLOYMENT}/branches`,
      query: PageQuery,
      item: BranchSchema,
    },
    createBranch: {
      method: 'POST',
      path: `${DEPLOYMENT}/branches`,
      body: CreateBranchInputSchema,
      answer: DevBranchSchema,
      refused: 'Branch not created',
      action: (b: CreateBranch) => `Creating the branch ${b.name}`,
      check: (b: CreateBranch) => pickAgain(`"${b.name}" exists`),
    },
    removeBranch: {
      method: 'DELETE',
      path: `${DEPLOYMENT}/branches`,
      query: RemoveBranchQuery,
      answer: WriteResponseSchema,
      refused: 'Branch not deleted',
      action: (q: RemoveBranch) => `Deleting the branch ${q.branchName}`,
      check: (q: RemoveBranch) => pickAgain(`"${q.branchName}" still exists`),
    },
    /**
     * An enabled branch keeps its staging environment running at
     * `<deploymentUrl>/dev-mode/{branch}/cubejs-api/v1`; only shared branches qualify (the server
     * refuses the deploy branch and personal dev branches). Answers the branch as it now is.
     */
    setBranchStagingEnvironment: {
      method: 'PUT',
      path: `${DEPLOYMENT}/branches/staging-environment`,
      body: SetStagingInputSchema,
      answer: z.looseObject({ data: BranchSchema }).transform((r): Branch => r.data),
      refused: 'Staging environment not changed',
      action: (b: SetStaging) =>
        `${b.enabled ? 'Enabling' : 'Disabling'} the staging environment of ${stagingOf(b)}`,
      check: (b: SetStaging) => pickAgain(`${stagingOf(b)} has its staging environment on`),
    },
    startDevMode: {
      method: 'POST',
      path: `${DEPLOYMENT}/dev-mode`,
      body: StartDevModeInputSchema,
      answer: DevBranchSchema,
      refused: 'Dev mode not entered',
      action: (b: z.output<typeof StartDevModeInputSchema>) =>
        b.branchName ? `Entering dev mode on ${b.branchName}` : 'Entering dev mode',
      check: 'Pick the branch again to enter dev mode on it.',
    },
    stopDevMode: {
      method: 'DELETE',
      path: `${DEPLOYMENT}/dev-mode`,
      kind: 'write',
      answer: WriteResponseSchema,
      action: 'Leaving dev mode',
      check: 'Leave dev mode again; it does nothing when it is already off.',
    },
  },
);

/** Every branch, page after page (a deployment has few; capped so a bad cursor cannot loop). */
export async function allBranches(
  list: (deploymentId: number, p?: PageParams, signal?: AbortSignal) => Promise<Page<Branch>>,
  deploymentId: number,
  signal?: AbortSignal,
): Promise<Branch[]> {
  const out: Branch[] = [];
  let after: string | undefined;
  for (let i = 0; i < 50; i++) {
    const page = await list(deploymentId, { first: 100, ...(after ? { after } : {}) }, signal);
    out.push(...page.items);
    const next = page.pageInfo?.hasNextPage ? page.pageInfo.endCursor : undefined;
    if (!next || next === after) break;
    after = next;
  }
  return out;
}
