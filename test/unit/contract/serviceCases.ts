// Databricks Metric Views, the meta sync and Usage Analytics tokens and GET /v1/spec for the contract
// suites: client cases (against generated responses) and sandbox calls (through the validating
// proxy). Kept apart from the shared lists, which spread them in.
import * as assert from 'node:assert/strict';
import { arr, served, type Json, type PlatformCase } from './caseChecks';
import type { deployOpsCalls } from './deployOpsCases';

const D = 7;
const base = '/api/v1/deployments/{deploymentId}';
const previews = `${base}/databricks-metric-view-previews`;
const SETTINGS = {
  expectedConfigurationVersion: 0,
  enabled: true,
  targetCatalog: 'main',
  targetSchema: 'cube_views',
  selectionMode: 'selected' as const,
  viewNames: ['orders'],
  deletionPolicy: 'retain' as const,
};

/** The answer's `keys` are as served. */
const same =
  (...keys: string[]) =>
  (result: unknown, sent: Parameters<PlatformCase['check']>[1]) => {
    for (const k of keys) assert.deepEqual((result as Json)[k], served(sent)[k], `${k} as sent`);
  };

export const SERVICE_OPERATIONS: PlatformCase[] = [
  {
    name: 'getMetricViewIntegration',
    operation: `GET ${base}/databricks-metric-view-integrations/{dataSourceName}`,
    run: (c) => c.platform.ops.getMetricViewIntegration(D, 'default'),
    check: same('publicId', 'configurationVersion', 'configuration'),
  },
  {
    name: 'saveMetricViewIntegration',
    operation: `PUT ${base}/databricks-metric-view-integrations/{dataSourceName}`,
    run: (c) => c.platform.ops.saveMetricViewIntegration(D, 'default', SETTINGS),
    check: same('publicId', 'configurationVersion'),
  },
  {
    name: 'startMetricViewPreview',
    operation: `POST ${previews}`,
    run: (c) =>
      c.platform.ops.startMetricViewPreview(D, {
        dataSourceName: 'default',
        selectionMode: 'pattern',
        viewNameRegex: '^orders.*',
      }),
    check: same('previewId', 'status', 'reused'),
  },
  {
    name: 'getMetricViewPreview',
    operation: `GET ${previews}/{previewId}`,
    run: (c) => c.platform.ops.getMetricViewPreview(D, 'mvp_1'),
    check: same('status', 'progress', 'resultAvailable'),
  },
  {
    name: 'cancelMetricViewPreview',
    operation: `DELETE ${previews}/{previewId}`,
    run: (c) => c.platform.ops.cancelMetricViewPreview(D, 'mvp_1'),
    check: (result) => assert.equal(result, undefined),
  },
  {
    name: 'getMetricViewPreviewResult',
    operation: `GET ${previews}/{previewId}/result`,
    run: (c) => c.platform.ops.getMetricViewPreviewResult(D, 'mvp_1'),
    check: (result, sent) => {
      same('outcome')(result, sent);
      const views = arr(served(sent).views);
      assert.deepEqual(
        (result as { views: Json[] }).views.map((v) => v.metricViewYaml),
        views.map((v) => v.metricViewYaml),
        'every served view is shown with its YAML',
      );
    },
  },
  {
    name: 'createMetaSyncToken',
    operation: `POST ${base}/environments/{environmentId}/tokens-for-meta-sync`,
    run: (c) => c.platform.createMetaSyncToken(D, 12, { security_context: { role: 'bi' }, expires_in: 600 }),
    check: (result, sent) => assert.equal((result as Json).token, (served(sent).data as Json).token),
  },
  {
    name: 'createUsageAnalyticsToken',
    operation: 'POST /api/v1/usage-analytics/token',
    run: (c) => c.platform.createUsageAnalyticsToken(),
    check: same('token', 'apiUrl', 'deploymentId'),
  },
  {
    name: 'getApiSpec',
    operation: 'GET /api/v1/spec',
    run: (c) => c.platform.getApiSpec(),
    check: (result, sent) => assert.deepEqual(result, served(sent)),
  },
];

/** A sandbox call, as the deployment operations' calls are written. */
type Call = ReturnType<typeof deployOpsCalls>[number];

/** Sandbox calls: `{previewId}` is the last preview an answer named. */
export function serviceCalls(): Call[] {
  const d = '/api/v1/deployments/1';
  const settings = `${d}/databricks-metric-view-integrations`;
  const p = `${d}/databricks-metric-view-previews`;
  return [
    { method: 'GET', path: `${settings}/default`, status: 404 },
    { method: 'PUT', path: `${settings}/default`, body: SETTINGS, status: 200 },
    { method: 'GET', path: `${settings}/default`, status: 200 },
    { method: 'PUT', path: `${settings}/default`, body: SETTINGS, status: 409 },
    { method: 'PUT', path: `${settings}/warehouse`, body: SETTINGS, status: 404 },
    { method: 'PUT', path: `${settings}/default`, body: { ...SETTINGS, viewNames: undefined }, status: 400 },
    { method: 'POST', path: p, body: { dataSourceName: 'default', selectionMode: 'all' }, status: 202 },
    { method: 'POST', path: p, body: { dataSourceName: 'default' }, status: 400 },
    {
      method: 'POST',
      path: p,
      body: { dataSourceName: 'default', selectionMode: 'pattern', viewNameRegex: 'a|b' },
      status: 400,
    },
    {
      method: 'POST',
      path: `${d}/environments/101/tokens-for-meta-sync`,
      body: { security_context: { role: 'bi' } },
      status: 200,
    },
    {
      method: 'POST',
      path: `${d}/environments/999/tokens-for-meta-sync`,
      body: { security_context: {} },
      status: 404,
    },
    { method: 'GET', path: '/api/v1/spec', status: 200 },
    { method: 'POST', path: '/api/v1/usage-analytics/token', status: 200 },
    { method: 'POST', path: '/api/v1/usage-analytics/token', auth: 'member', status: 403 },
    // The preview started above has completed by now (a step is 1 ms in this sandbox).
    { method: 'GET', path: `${p}/{previewId}`, status: 200 },
    { method: 'GET', path: `${p}/{previewId}/result`, status: 200 },
    { method: 'DELETE', path: `${p}/{previewId}`, status: 409 },
    // On the slow data source the preview still runs: no result yet, and it can be cancelled.
    { method: 'POST', path: p, body: { dataSourceName: 'slow', selectionMode: 'all' }, status: 202 },
    { method: 'GET', path: `${p}/{previewId}/result`, status: 409 },
    { method: 'DELETE', path: `${p}/{previewId}`, status: 200 },
    { method: 'GET', path: `${p}/mvp_nope`, status: 404 },
  ];
}
