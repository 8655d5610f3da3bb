// The deployment operations (dbt sync runs, exports, env variable writes, health, environment
// tokens) for the contract suites: client cases (against generated responses) and sandbox calls
// (through the validating proxy). Kept apart from the shared lists, which spread them in.
import * as assert from 'node:assert/strict';
import type { Page } from '../../../src/api';
import { arr, listItems, listOf, served, type Json, type PlatformCase } from './caseChecks';

const D = 7;
const base = '/api/v1/deployments/{deploymentId}';
/** A page whose served items are all read, `key` kept as sent. */
const checkList = (key: string) => listOf(listItems, key);

export const DEPLOY_OPS_OPERATIONS: PlatformCase[] = [
  {
    name: 'listDbtSyncs',
    operation: `GET ${base}/dbt-sync`,
    run: (c) => c.platform.ops.listDbtSyncs(D, { first: 20, status: 'FAILED' }),
    check: (result, sent) => {
      checkList('status')(result, sent);
      const items = arr(served(sent).items) as Json[];
      (result as Page<Json>).items.forEach((r, i) => assert.equal(r.syncJobId, String(items[i]!.syncJobId)));
    },
  },
  {
    name: 'cancelDbtSync',
    operation: `DELETE ${base}/dbt-sync/{syncJobId}`,
    run: (c) => c.platform.ops.cancelDbtSync(D, 'job-1'),
    check: (result, sent) => assert.equal((result as Json).message, served(sent).message),
  },
  {
    name: 'getDbtSyncLogs',
    operation: `GET ${base}/dbt-sync/{syncJobId}/logs`,
    run: (c) => c.platform.ops.getDbtSyncLogs(D, 'job-1'),
    check: (result, sent) => {
      const items = arr(served(sent).items) as Json[];
      const got = result as Json[];
      assert.deepEqual(
        got.map((l) => l.message),
        items.map((l) => l.message),
        'every line kept, in order',
      );
    },
  },
  {
    name: 'getDbtSyncResult',
    operation: `GET ${base}/dbt-sync/{syncJobId}/result`,
    run: (c) => c.platform.ops.getDbtSyncResult(D, 'job-1'),
    check: (result, sent) => {
      const body = served(sent);
      assert.deepEqual(
        (result as { generatedFiles: Json[] }).generatedFiles.map((f) => f.path),
        arr(body.generatedFiles).map((f) => (f as Json).path),
      );
    },
  },
  {
    name: 'listDbtSyncGeneratedFiles',
    operation: `GET ${base}/dbt-sync/{syncJobId}/generated-files`,
    run: (c) => c.platform.ops.listDbtSyncGeneratedFiles(D, 'job-1', { first: 10 }),
    check: checkList('content'),
  },
  {
    name: 'startDashboardExport',
    operation: `POST ${base}/dashboard-exports`,
    run: (c) => c.platform.ops.startDashboardExport(D, { dashboardId: 3, format: 'pdf' }),
    check: (result, sent) => assert.equal((result as Json).jobId, String(served(sent).jobId)),
  },
  {
    name: 'getDashboardExportStatus',
    operation: `GET ${base}/dashboard-exports/{jobId}`,
    run: (c) => c.platform.ops.getDashboardExportStatus(D, 'exp-1'),
    check: (result, sent) => {
      assert.equal((result as Json).status, served(sent).status, 'status kept, unknown values too');
      assert.equal((result as Json).error, served(sent).error);
    },
  },
  {
    name: 'downloadDashboardExport',
    operation: `GET ${base}/dashboard-exports/{jobId}/download`,
    run: (c) => c.platform.ops.downloadDashboardExport(D, 'exp-1', { filename: 'Revenue' }),
    check: (result, sent) => {
      const r = result as { bytes: Uint8Array };
      assert.equal(Buffer.from(r.bytes).toString('utf8'), sent[sent.length - 1]?.responseText ?? '');
      assert.match(sent[sent.length - 1]!.url, /filename=Revenue/);
    },
  },
  {
    name: 'setEnvVariables',
    operation: `PUT ${base}/env-vars`,
    run: (c) => c.platform.ops.setEnvVariables(D, [{ name: 'FEATURE_X', value: 'on' }]),
    check: (result, sent) => {
      const body = served(sent);
      const items = arr(body.items ?? body.data) as Json[];
      assert.deepEqual(
        (result as Json[]).map((v) => v.name),
        items.map((v) => v.name),
      );
    },
  },
  {
    name: 'getBuildStatus',
    operation: `GET ${base}/build-status`,
    run: (c) => c.platform.ops.getBuildStatus(D, { branchName: 'main' }),
    check: (result, sent) => {
      for (const k of ['status', 'errorText']) assert.deepEqual((result as Json)[k], served(sent)[k], k);
    },
  },
  {
    name: 'listDeploymentVersions',
    operation: `GET ${base}/versions`,
    run: (c) => c.platform.ops.listVersions(D, { first: 50 }),
    check: checkList('version'),
  },
  {
    name: 'listDeploymentPods',
    operation: `GET ${base}/pods`,
    run: (c) => c.platform.ops.listPods(D, { first: 50 }),
    check: checkList('name'),
  },
  {
    name: 'getDeploymentLogs',
    operation: `GET ${base}/logs`,
    run: (c) => c.platform.ops.getLogs(D, { source: 'production', first: 100 }),
    check: checkList('message'),
  },
  {
    name: 'listEnvironmentTokens',
    operation: `GET ${base}/environments/{environmentId}/tokens`,
    run: (c) => c.platform.ops.listEnvironmentTokens(D, '12', { first: 20 }),
    check: checkList('created_at'),
  },
  {
    name: 'createEnvironmentToken',
    operation: `POST ${base}/environments/{environmentId}/tokens`,
    run: (c) =>
      c.platform.ops.createEnvironmentToken(D, '12', {
        security_context: { role: 'analyst' },
        expires_in: 600,
      }),
    check: (result, sent) => {
      const data = served(sent).data as Json;
      assert.equal((result as Json).token, data.token, 'the token as sent, shown once');
    },
  },
];

interface Call {
  method: string;
  path: string;
  body?: unknown;
  auth?: string;
  status: number;
}

/** Sandbox calls: `{syncJobId}` / `{jobId}` are what the previous answers captured. */
export function deployOpsCalls(): Call[] {
  const d = '/api/v1/deployments';
  return [
    { method: 'GET', path: `${d}/1/dbt-sync?first=2`, status: 200 },
    { method: 'GET', path: `${d}/1/dbt-sync?status=FAILED&trigger=manual`, status: 200 },
    { method: 'GET', path: `${d}/1/dbt-sync?first=0`, status: 400 },
    { method: 'POST', path: `${d}/1/dbt-sync`, body: { branchName: 'slow', output: 'files' }, status: 200 },
    { method: 'GET', path: `${d}/1/dbt-sync/{syncJobId}/logs`, status: 200 },
    { method: 'GET', path: `${d}/1/dbt-sync/{syncJobId}/result`, status: 404 },
    { method: 'DELETE', path: `${d}/1/dbt-sync/{syncJobId}`, status: 200 },
    { method: 'DELETE', path: `${d}/1/dbt-sync/{syncJobId}`, status: 409 },
    { method: 'POST', path: `${d}/1/dbt-sync`, body: { branchName: 'main', output: 'files' }, status: 200 },
    { method: 'GET', path: `${d}/1/dbt-sync/{syncJobId}/logs`, status: 200 },
    // Captures the newest completed run (whatever the clock did to the one just started).
    { method: 'GET', path: `${d}/1/dbt-sync?status=COMPLETED&first=1`, status: 200 },
    { method: 'GET', path: `${d}/1/dbt-sync/{syncJobId}/result`, status: 200 },
    { method: 'GET', path: `${d}/1/dbt-sync/{syncJobId}/generated-files?first=2`, status: 200 },
    { method: 'GET', path: `${d}/1/dbt-sync/nope/logs`, status: 404 },
    {
      method: 'POST',
      path: `${d}/1/dashboard-exports`,
      body: { dashboardId: 1001, format: 'png' },
      status: 200,
    },
    { method: 'GET', path: `${d}/1/dashboard-exports/{jobId}`, status: 200 },
    { method: 'GET', path: `${d}/1/env-vars?first=1`, status: 200 },
    { method: 'GET', path: `${d}/1/dashboard-exports/{jobId}/download?filename=Sales`, status: 200 },
    {
      method: 'POST',
      path: `${d}/1/dashboard-exports`,
      body: { dashboardId: 1002, format: 'pdf' },
      status: 200,
    },
    {
      method: 'POST',
      path: `${d}/1/dashboard-exports`,
      body: { dashboardId: 1003, format: 'pdf' },
      status: 404,
    },
    {
      method: 'POST',
      path: `${d}/1/dashboard-exports`,
      body: { format: 'gif', dashboardId: 1001 },
      status: 400,
    },
    { method: 'GET', path: `${d}/1/dashboard-exports/nope`, status: 404 },
    {
      method: 'PUT',
      path: `${d}/1/env-vars`,
      body: {
        env_variables: [
          { name: 'FEATURE_NEW', value: 'on' },
          { name: 'CUBEJS_DB_PASS', value: 's3cret' },
        ],
      },
      status: 200,
    },
    {
      method: 'PUT',
      path: `${d}/1/env-vars`,
      body: { env_variables: [{ name: 'X', value: '[ENCRYPTED]' }] },
      status: 400,
    },
    {
      method: 'PUT',
      path: `${d}/1/env-vars`,
      body: { env_variables: [{ name: '1BAD', value: 'x' }] },
      status: 400,
    },
    { method: 'GET', path: `${d}/1/build-status`, status: 200 },
    { method: 'GET', path: `${d}/3/build-status?branchName=staging`, status: 200 },
    { method: 'GET', path: `${d}/3/build-status?branchName=nope`, status: 404 },
    { method: 'GET', path: `${d}/1/versions`, status: 200 },
    { method: 'GET', path: `${d}/3/pods?first=2`, status: 200 },
    { method: 'GET', path: `${d}/1/logs?first=5`, status: 200 },
    { method: 'GET', path: `${d}/3/logs?source=dev&first=3`, status: 200 },
    { method: 'GET', path: `${d}/1/logs?source=staging`, status: 400 },
    { method: 'GET', path: `${d}/1/environments/101/tokens`, status: 200 },
    {
      method: 'POST',
      path: `${d}/1/environments/101/tokens`,
      body: { security_context: { role: 'analyst' }, expires_in: 600 },
      status: 200,
    },
    { method: 'POST', path: `${d}/1/environments/101/tokens`, body: { expires_in: 600 }, status: 400 },
    { method: 'GET', path: `${d}/1/environments/999/tokens`, status: 404 },
  ];
}
