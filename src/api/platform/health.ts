// A deployment's health: its latest build status, the Cube versions it can run, the pods scheduled
// for it and the tail of its runtime logs.
import { z } from 'zod';
import type { PageParams } from '../paging';
import { definedQuery, maybe, positiveId, type PlatformTransport } from './transport';

export const BuildStatusSchema = z.looseObject({
  /** e.g. building | success | error; unknown values are shown as they are. */
  status: z.string(),
  branchName: maybe(z.string()),
  mode: maybe(z.string()),
  deploymentStatus: maybe(z.string()),
  errorText: maybe(z.string()),
  buildJobId: maybe(z.number()),
  updatedAt: maybe(z.string()),
});
export type BuildStatus = z.infer<typeof BuildStatusSchema>;

/** Build statuses that mean the last build failed (the deployment's row shows a problem). */
const FAILED = /^(error|failed|failure)$/i;
export const isFailedBuild = (b: Pick<BuildStatus, 'status'>): boolean => FAILED.test(b.status);

export const DeploymentVersionSchema = z.looseObject({
  version: z.string(),
  releaseChannelVersion: maybe(z.string()),
  releaseChannel: maybe(z.string()),
  isCurrent: maybe(z.boolean()),
  isLatestInChannel: maybe(z.boolean()),
});

export const DeploymentPodSchema = z.looseObject({
  name: z.string(),
  status: maybe(z.string()),
  type: maybe(z.string()),
  ready: maybe(z.boolean()),
  restartCount: maybe(z.number()),
  containers: maybe(z.array(z.string())),
});

export const DeploymentLogLineSchema = z.looseObject({
  date: maybe(z.string()),
  pod: maybe(z.string()),
  message: z.string(),
});
export type DeploymentLogLine = z.infer<typeof DeploymentLogLineSchema>;

export interface DeploymentLogsQuery extends PageParams {
  source?: 'production' | 'dev';
  pod?: string;
  container?: string;
}

const base = (deploymentId: number) => `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}`;

export async function getBuildStatus(
  t: PlatformTransport,
  deploymentId: number,
  q: { branchName?: string } = {},
  signal?: AbortSignal,
) {
  return t.get(`${base(deploymentId)}/build-status`, BuildStatusSchema, {
    query: definedQuery(q),
    signal,
    action: 'Reading the build status',
  });
}

export async function listDeploymentVersions(
  t: PlatformTransport,
  deploymentId: number,
  p: PageParams = {},
  signal?: AbortSignal,
) {
  return t.list(`${base(deploymentId)}/versions`, DeploymentVersionSchema, { ...p }, { signal });
}

export async function listDeploymentPods(
  t: PlatformTransport,
  deploymentId: number,
  p: PageParams = {},
  signal?: AbortSignal,
) {
  return t.list(`${base(deploymentId)}/pods`, DeploymentPodSchema, { ...p }, { signal });
}

/** One page of the log tail; pass the previous `pageInfo.endCursor` as `after` to read what came since. */
export async function getDeploymentLogs(
  t: PlatformTransport,
  deploymentId: number,
  q: DeploymentLogsQuery = {},
  signal?: AbortSignal,
) {
  return t.list(
    `${base(deploymentId)}/logs`,
    DeploymentLogLineSchema,
    { ...q },
    {
      signal,
      action: 'Reading the deployment logs',
    },
  );
}
