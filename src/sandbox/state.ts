// What the sandbox records so tests, the CLI and the demo can observe the effects of requests
// (GET /__sandbox/state). Families append to it; nothing here is part of the emulated API.
// It is saved with the rest of the sandbox's data (stateFile.ts), so ids handed out from
// `counters` stay unique across restarts.
import type { AdminState } from './platform/admin/adminState';
import type { EmbedCommentState } from './platform/embedCommentState';

export interface SandboxState {
  /** AI chat aborts received, in order. */
  aiAborts: { chatId: string; at: string }[];
  /** AI turns started, with the data-model branch they ran on (absent: the main branch). */
  aiTurns: { chatId: string; activeBranchName?: string; at: string }[];
  /** Requests seen, by "family METHOD path", for benchmarks and paging tests ("exactly one request a page"). */
  requestCounts: Record<string, number>;
  /** Dashboards published, in order. */
  publishes: {
    deploymentId: number;
    workbookId: number;
    versionNumber: number;
    title: unknown;
    at: string;
  }[];
  /** Ids of notifications created through the API. */
  createdNotifications: number[];
  /** dbt sync jobs by id. */
  dbtJobs: Record<string, DbtJobState>;
  /** Dashboard exports by job id. */
  exports: Record<string, ExportJobState>;
  /** Env variable names set through PUT /env-vars, in order (values are never recorded). */
  envVarWrites: { deploymentId: number; names: string[] }[];
  /** Environment tokens created, by "deploymentId/environmentId" (the sandbox lists them back). */
  environmentTokens: Record<string, Record<string, unknown>[]>;
  deletedEmbedTenants: string[];
  /** Data API requests by deployment and host (which deployment's host answered a query). */
  dataQueries: {
    deploymentId: number;
    host: string;
    method: string;
    path: string;
    at: string;
    /** The branch of a dev-mode Data API request (`/dev-mode/{branch}/cubejs-api`). */
    devBranch?: string;
  }[];
  /**
   * Deployment settings written through PUT /v1/deployments/{id} or set up by creating or connecting
   * a deployment, by deployment id (over the defaults deploymentRoutes.ts derives; see there).
   */
  deploymentSettings?: Record<string, Record<string, unknown>>;
  /** Repositories created through GitHub connect (`isNewRepo`), by installation login. */
  githubRepos?: Record<string, string[]>;
  /** Administration data (set when the platform routes are registered). */
  admin?: AdminState;
  /** Embed dashboard comments and redeemed embed sessions (set when the platform routes are registered). */
  embedComments?: EmbedCommentState;
  /** Databricks Metric View settings by "deploymentId/dataSourceName", and previews by id. */
  databricks?: {
    integrations: Record<string, Record<string, unknown>>;
    previews: Record<string, MetricViewPreviewState>;
  };
  /** The last id handed out, by kind (see issueId). */
  counters: Record<string, number>;
}

export function createSandboxState(): SandboxState {
  return {
    aiAborts: [],
    aiTurns: [],
    requestCounts: {},
    publishes: [],
    createdNotifications: [],
    dbtJobs: {},
    exports: {},
    envVarWrites: [],
    environmentTokens: {},
    deletedEmbedTenants: [],
    dataQueries: [],
    counters: {},
  };
}

/**
 * The next id of a kind: `first` the first time, then one more each time. Kept in the state (not
 * in a route's closure) so a restarted sandbox never hands out an id it handed out before.
 */
export function issueId(state: SandboxState, kind: string, first: number): number {
  const last = state.counters[kind];
  const id = last === undefined ? first : last + 1;
  state.counters[kind] = id;
  return id;
}

export interface DbtJobState {
  deploymentId: number;
  branchName: string;
  startedAt: number;
  trigger?: string;
  /** `files`: generated files are served instead of committed to the branch. */
  output?: string;
  cancelledAt?: number;
  /** Fails in dbt compile (also any run on a branch named "fail"). */
  fails?: boolean;
}

export interface MetricViewPreviewState {
  deploymentId: number;
  dataSourceName: string;
  /** What was converted, by content: an exact retry while this one runs reuses it. */
  key: string;
  buildJobId: number;
  startedAt: number;
  cancelledAt?: number;
  /** The views converted (shown once the preview completes); none matched: it fails. */
  views: Record<string, unknown>[];
}

export interface ExportJobState {
  deploymentId: number;
  dashboardId: number;
  title: string;
  format: 'png' | 'pdf';
  startedAt: number;
  downloaded?: number;
}
