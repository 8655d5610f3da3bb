// What the deployment operations' lists fetch (dbt sync runs, versions, pods, environment tokens):
// one request a page, like every list of the explorer. No `vscode` and no zod here.
import type { Page, PageParams } from '../../api/paging';

type Item = Record<string, unknown>;

export type DeployOpsKind = 'dbtSyncs' | 'versions' | 'pods' | 'envTokens';

/** The part of DeploymentOpsClient (`platform.ops`) the tree's lists use. */
export interface DeployOpsListing {
  listDbtSyncs(deploymentId: number, q?: PageParams, signal?: AbortSignal): Promise<Page<Item>>;
  listVersions(deploymentId: number, p?: PageParams, signal?: AbortSignal): Promise<Page<Item>>;
  listPods(deploymentId: number, p?: PageParams, signal?: AbortSignal): Promise<Page<Item>>;
  listEnvironmentTokens(
    deploymentId: number,
    environmentId: string,
    p?: PageParams,
    signal?: AbortSignal,
  ): Promise<Page<Item>>;
  getBuildStatus(deploymentId: number, q?: { branchName?: string }, signal?: AbortSignal): Promise<Item>;
}

/** The part of a list's spec these lists read (structural: the tree's ListSpec fits). */
export interface DeployOpsListSpec {
  kind: string;
  deploymentId?: number;
  environmentId?: string;
}

export function deployOpsFetch(
  ops: DeployOpsListing | undefined,
  spec: DeployOpsListSpec,
  p: PageParams,
  signal: AbortSignal | undefined,
): Promise<Page<Item>> {
  if (!ops) throw new Error('This client has no deployment operations.');
  const d = spec.deploymentId;
  if (d === undefined) throw new Error(`The ${spec.kind} list has no deployment.`);
  switch (spec.kind) {
    case 'dbtSyncs':
      return ops.listDbtSyncs(d, p, signal);
    case 'versions':
      return ops.listVersions(d, p, signal);
    case 'pods':
      return ops.listPods(d, p, signal);
    case 'envTokens':
      if (spec.environmentId === undefined) throw new Error('The tokens list has no environment.');
      return ops.listEnvironmentTokens(d, spec.environmentId, p, signal);
    default:
      throw new Error(`No list of kind ${spec.kind}.`);
  }
}
