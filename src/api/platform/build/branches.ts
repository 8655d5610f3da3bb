// Branches and dev mode: list (tolerant), create (optionally entering dev mode), delete, a
// branch's staging environment on or off, enter and exit dev mode.
import { z } from 'zod';
import type { Page, PageParams } from '../../paging';
import { maybe, parseInput, type PlatformTransport } from '../transport';
import { BranchName, BranchSchema, deploymentPath, WriteResponseSchema, type Branch } from './common';

export const DevBranchSchema = z.looseObject({
  active: z.boolean(),
  branchName: maybe(z.string()),
  parentBranch: maybe(z.string()),
});
export type DevBranch = z.infer<typeof DevBranchSchema>;

export const CreateBranchInputSchema = z.strictObject({
  name: BranchName,
  from: BranchName.optional(),
  activate: z.boolean().optional(),
});

/** `SetBranchStagingEnvironmentRequest`: the branch by name or id, and `enabled`. */
export const SetStagingInputSchema = z
  .strictObject({
    branchName: BranchName.optional(),
    branchId: z.number().int().positive().optional(),
    enabled: z.boolean(),
  })
  .refine(
    (v) => v.branchName !== undefined || v.branchId !== undefined,
    'name the branch: branchName or branchId',
  );

/** `SetBranchStagingEnvironmentResponse`: the branch as it now is. */
export const SetStagingResponseSchema = z.looseObject({ data: BranchSchema });

export const StartDevModeInputSchema = z.strictObject({ branchName: BranchName });

export function listBranches(
  t: PlatformTransport,
  deploymentId: number,
  p: PageParams = {},
  signal?: AbortSignal,
): Promise<Page<Branch>> {
  return t.list(`${deploymentPath(deploymentId)}/branches`, BranchSchema, { ...p }, { signal });
}

/** Every branch, page after page (a deployment has few; capped so a bad cursor cannot loop). */
export async function allBranches(t: PlatformTransport, deploymentId: number, signal?: AbortSignal) {
  const out: Branch[] = [];
  let after: string | undefined;
  for (let i = 0; i < 50; i++) {
    const page = await listBranches(t, deploymentId, { first: 100, ...(after ? { after } : {}) }, signal);
    out.push(...page.items);
    const next = page.pageInfo?.hasNextPage ? page.pageInfo.endCursor : undefined;
    if (!next || next === after) break;
    after = next;
  }
  return out;
}

export function createBranch(
  t: PlatformTransport,
  deploymentId: number,
  input: z.input<typeof CreateBranchInputSchema>,
  signal?: AbortSignal,
) {
  const body = parseInput(CreateBranchInputSchema, input, 'Branch not created');
  return t.write('POST', `${deploymentPath(deploymentId)}/branches`, body, DevBranchSchema, {
    signal,
    action: `Creating the branch ${body.name}`,
    check: { hint: `Pick a branch again: the list shows whether "${body.name}" exists.` },
  });
}

export function removeBranch(
  t: PlatformTransport,
  deploymentId: number,
  branchName: string,
  signal?: AbortSignal,
) {
  const name = parseInput(BranchName, branchName, 'Branch not deleted');
  return t.write('DELETE', `${deploymentPath(deploymentId)}/branches`, undefined, WriteResponseSchema, {
    query: { branchName: name },
    signal,
    action: `Deleting the branch ${name}`,
    check: { hint: `Pick a branch again: the list shows whether "${name}" still exists.` },
  });
}

export function startDevMode(
  t: PlatformTransport,
  deploymentId: number,
  branchName: string,
  signal?: AbortSignal,
) {
  const body = parseInput(StartDevModeInputSchema, { branchName }, 'Dev mode not entered');
  return t.write('POST', `${deploymentPath(deploymentId)}/dev-mode`, body, DevBranchSchema, {
    signal,
    action: `Entering dev mode on ${body.branchName}`,
    check: { hint: 'Pick the branch again to enter dev mode on it.' },
  });
}

export function stopDevMode(t: PlatformTransport, deploymentId: number, signal?: AbortSignal) {
  return t.write('DELETE', `${deploymentPath(deploymentId)}/dev-mode`, undefined, WriteResponseSchema, {
    signal,
    action: 'Leaving dev mode',
    check: { hint: 'Leave dev mode again; it does nothing when it is already off.' },
  });
}

/**
 * `PUT …/branches/staging-environment`: an enabled branch keeps its staging environment running
 * at `<deploymentUrl>/dev-mode/{branch}/cubejs-api/v1`; only shared branches qualify (the server
 * refuses the deploy branch and personal dev branches).
 */
export async function setBranchStagingEnvironment(
  t: PlatformTransport,
  deploymentId: number,
  input: z.input<typeof SetStagingInputSchema>,
  signal?: AbortSignal,
): Promise<Branch> {
  const body = parseInput(SetStagingInputSchema, input, 'Staging environment not changed');
  const which = body.branchName ?? `#${body.branchId}`;
  const res = await t.write(
    'PUT',
    `${deploymentPath(deploymentId)}/branches/staging-environment`,
    body,
    SetStagingResponseSchema,
    {
      signal,
      action: `${body.enabled ? 'Enabling' : 'Disabling'} the staging environment of ${which}`,
      check: { hint: `Pick a branch again: the list shows whether ${which} has its staging environment on.` },
    },
  );
  return res.data;
}
