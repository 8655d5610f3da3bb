// A deployment's health: its latest build status, the Cube versions it can run, the pods scheduled
// for it and the tail of its runtime logs.
import { z } from 'zod';
import { table } from './operation';
import { maybe, PageQuery } from './transport';

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

export type DeploymentLogsQuery = z.input<typeof HEALTH.getLogs.query>;

const dep = '/v1/deployments/{deploymentId}';

/** A deployment's health, reached as `platform.ops`. */
export const HEALTH = table(
  {},
  {
    getBuildStatus: {
      method: 'GET',
      path: `${dep}/build-status`,
      query: z.object({ branchName: z.string().optional() }),
      answer: BuildStatusSchema,
      action: 'Reading the build status',
    },
    listVersions: {
      method: 'GET',
      path: `${dep}/versions`,
      query: PageQuery,
      item: DeploymentVersionSchema,
    },
    listPods: {
      method: 'GET',
      path: `${dep}/pods`,
      query: PageQuery,
      item: DeploymentPodSchema,
    },
    /** One page of the log tail; pass the previous `pageInfo.endCursor` as `after` to read what came since. */
    getLogs: {
      method: 'GET',
      path: `${dep}/logs`,
      query: PageQuery.extend({
        source: z.enum(['production', 'dev']).optional(),
        pod: z.string().optional(),
        container: z.enum(['INIT', 'MAIN', 'cubejs-server', 'vector', 'api-proxy']).optional(),
      }),
      item: DeploymentLogLineSchema,
      action: 'Reading the deployment logs',
    },
  },
);
