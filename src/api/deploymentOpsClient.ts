// The day-to-day operations on one deployment (dbt sync runs, dashboard exports, env variable writes,
// health, environment tokens, Databricks Metric View previews), composed over the platform transport. Reached as `platform.ops`.
import type { PageParams } from './paging';
import { DATABRICKS } from './platform/databricksMetricViews';
import * as dbt from './platform/dbtSync';
import * as exportsApi from './platform/dashboardExports';
import * as envVars from './platform/envVars';
import { environmentPathId, TOKENS, type CreateEnvironmentTokenInput } from './platform/environmentTokens';
import { HEALTH } from './platform/health';
import { call, OperationsClient } from './platform/operation';
import type { PlatformTransport } from './platform/transport';

/** The operations of this client that are one call each (their methods are derived from the table). */
const OPS = { ...HEALTH, ...dbt.DBT_RUNS, ...exportsApi.EXPORTS, ...DATABRICKS };

/** The operations that do more than one call (polling, downloading, shaping the input). */
const FUNCTIONS = {
  getDbtSyncLogs: dbt.getDbtSyncLogs,
  waitForDashboardExport: exportsApi.waitForDashboardExport,
  downloadDashboardExport: exportsApi.downloadDashboardExport,
  setEnvVariables: envVars.setEnvVariables,
};

export class DeploymentOpsClient extends OperationsClient(OPS, FUNCTIONS) {
  constructor(private readonly t: PlatformTransport) {
    super(t);
  }

  // ---- environment tokens: an environment is named by its text id, its tokens path by the integer
  // (async, so a refused id is a rejection like every other refusal)
  async listEnvironmentTokens(
    d: number,
    environmentId: string | number,
    p?: PageParams,
    signal?: AbortSignal,
  ) {
    return call(this.t, TOKENS.listEnvironmentTokens, d, environmentPathId(environmentId), p, signal);
  }
  async createEnvironmentToken(
    d: number,
    environmentId: string | number,
    input: CreateEnvironmentTokenInput,
    signal?: AbortSignal,
  ) {
    return call(this.t, TOKENS.createEnvironmentToken, d, environmentPathId(environmentId), input, signal);
  }
}
