// The day-to-day operations on one deployment (dbt sync runs, dashboard exports, env variable writes,
// health, environment tokens), composed over the platform transport. Reached as `platform.ops`.
import type { PageParams } from './paging';
import * as dbt from './platform/dbtSync';
import * as exportsApi from './platform/dashboardExports';
import * as envVars from './platform/envVars';
import * as tokens from './platform/environmentTokens';
import { HEALTH } from './platform/health';
import { OperationsClient } from './platform/operation';
import type { PlatformTransport } from './platform/transport';

/** The operations of this client that are one call each (their methods are derived from the table). */
const OPS = { ...HEALTH, ...dbt.DBT_RUNS };

export class DeploymentOpsClient extends OperationsClient(OPS) {
  constructor(private readonly t: PlatformTransport) {
    super(t);
  }

  // ---- dbt sync runs (the other calls are derived from the table)
  getDbtSyncLogs(deploymentId: number, syncJobId: string, signal?: AbortSignal) {
    return dbt.getDbtSyncLogs(this.t, deploymentId, syncJobId, signal);
  }

  // ---- dashboard exports
  startDashboardExport(deploymentId: number, input: exportsApi.StartExportInput, signal?: AbortSignal) {
    return exportsApi.startDashboardExport(this.t, deploymentId, input, signal);
  }
  getDashboardExportStatus(deploymentId: number, jobId: string, signal?: AbortSignal) {
    return exportsApi.getDashboardExportStatus(this.t, deploymentId, jobId, signal);
  }
  waitForDashboardExport(deploymentId: number, jobId: string, opts?: exportsApi.WaitForExportOptions) {
    return exportsApi.waitForDashboardExport(this.t, deploymentId, jobId, opts);
  }
  downloadDashboardExport(deploymentId: number, jobId: string, opts?: exportsApi.DownloadExportOptions) {
    return exportsApi.downloadDashboardExport(this.t, deploymentId, jobId, opts);
  }

  // ---- env variables (writes; the list is PlatformClient.listEnvVars)
  setEnvVariables(deploymentId: number, vars: envVars.EnvVariableInput[], signal?: AbortSignal) {
    return envVars.setEnvVariables(this.t, deploymentId, vars, signal);
  }

  // ---- environment tokens
  listEnvironmentTokens(
    deploymentId: number,
    environmentId: string | number,
    p?: PageParams,
    signal?: AbortSignal,
  ) {
    return tokens.listEnvironmentTokens(this.t, deploymentId, environmentId, p, signal);
  }
  createEnvironmentToken(
    deploymentId: number,
    environmentId: string | number,
    input: tokens.CreateEnvironmentTokenInput,
    signal?: AbortSignal,
  ) {
    return tokens.createEnvironmentToken(this.t, deploymentId, environmentId, input, signal);
  }
}
