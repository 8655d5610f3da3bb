// What the build API families share: the published paths under `/build/api/v1/deployments/{id}`
// (beside the platform API's `/api`, so the build rows carry their published path whole and the
// BuildClient's transport is based at the tenant's root), the small write answer (and what it
// confirms), and the tolerant reading of a branch.
import { z } from 'zod';
import { id, maybe } from '../transport';

/** The published prefix of every build operation. */
export const DEPLOYMENT = '/build/api/v1/deployments/{deploymentId}';

/**
 * `DataModelWriteResponse`: `success` kept as sent. A 200 says the request was taken, not that the
 * write was applied: only `success: true` confirms it (see `writeOutcome`).
 */
export const WriteResponseSchema = z.looseObject({ success: z.boolean().optional() });
export type WriteResponse = z.infer<typeof WriteResponseSchema>;

/**
 * What a write answer says happened: `applied` only on `success: true`; `refused` on
 * `success: false` (the server says it did not write); `unknown` when `success` is missing (the
 * published answer requires it, so nothing can be concluded).
 */
export function writeOutcome(r: WriteResponse): 'applied' | 'refused' | 'unknown' {
  return r.success === true ? 'applied' : r.success === false ? 'refused' : 'unknown';
}

export const BranchSchema = z.looseObject({
  id: id.optional(),
  name: z.string(),
  parentBranch: maybe(z.string()),
  lastHash: maybe(z.string()),
  isStagingEnvironmentEnabled: maybe(z.boolean()),
});
export type Branch = z.infer<typeof BranchSchema>;

/** A branch name as a query value or body field: non-empty, no surrounding space. */
export const BranchName = z
  .string()
  .min(1)
  .refine((s) => s.trim() === s, 'a branch name has no leading or trailing space');

/** A branch named in a body by name or id (`branchName`, `branchId`), both optional. */
export const BranchFields = {
  branchName: BranchName.optional(),
  branchId: z.number().int().positive().optional(),
};

/** The tenant's root from a profile's platform URL (`https://t.example.com/api` -> `https://t.example.com`). */
export function tenantUrlOf(platformUrl: string): string {
  const url = new URL(platformUrl);
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/api$/, '');
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

/**
 * The build API's base URL from a profile's platform URL: the same tenant host, `/build/api`
 * instead of `/api` (`https://t.example.com/api` -> `https://t.example.com/build/api`).
 */
export const buildApiUrlOf = (platformUrl: string): string => `${tenantUrlOf(platformUrl)}/build/api`;

/**
 * The Data API of a branch in dev mode: `<deploymentUrl>/dev-mode/{branch}/cubejs-api` (the
 * DataClient adds `/v1/...`). The deployment URL's own path (`/cubejs-api`) is not part of it.
 */
export function devModeDataApiUrl(deploymentUrl: string, branch: string): string {
  const raw = deploymentUrl.trim();
  const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  const base = url.pathname.replace(/\/+$/, '').replace(/\/cubejs-api(\/v1)?$/, '');
  url.pathname = `${base}/dev-mode/${encodeURIComponent(branch)}/cubejs-api`;
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}
