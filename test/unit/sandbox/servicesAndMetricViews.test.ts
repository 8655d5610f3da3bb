// The nine operations added last (Databricks Metric Views, the meta sync and Usage Analytics tokens,
// GET /v1/spec) through the platform client against the real sandbox: settings saved with
// optimistic versioning, a preview that queues, runs, completes and answers its result (or is
// cancelled), the tokens usable where they say, and a spec made from the rows the sandbox checks.
import * as assert from 'node:assert/strict';
import { ApiError, DataClient, PlatformClient } from '../../../src/api';
import type { MetricViewPreviewStatus } from '../../../src/api/platform/databricksMetricViews';
import { declaredOperations } from '../../../src/api/platform/rows';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { rejection } from '../api/helpers';

const fast = { retries: 1, baseDelayMs: 1, maxDelayMs: 2 };
const SETTINGS = {
  enabled: true,
  targetCatalog: 'main',
  targetSchema: 'cube_views',
  selectionMode: 'all' as const,
};

describe('sandbox: Databricks Metric Views, service tokens and the API description', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let admin: PlatformClient;
  let member: PlatformClient;

  before(async () => {
    sb = await startSandbox({ rows: 200, dbtStepMs: 20 });
    [admin, member] = [sb.tokens.admin, sb.tokens.member].map(
      (token) => new PlatformClient({ baseUrl: sb.urls.platform, token: async () => token, retry: fast }),
    ) as [PlatformClient, PlatformClient];
  });
  after(async () => {
    await Promise.all([admin.close(), member.close()]);
    await sb.close();
  });

  /** Polls the preview's status until it has ended (each answer is one the documents allow). */
  async function ended(previewId: string): Promise<MetricViewPreviewStatus[]> {
    const seen: MetricViewPreviewStatus[] = [];
    for (;;) {
      const s = await admin.ops.getMetricViewPreview(1, previewId);
      seen.push(s);
      if (!['QUEUED', 'RUNNING'].includes(s.status)) return seen;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it('saves publication settings with optimistic versioning: 0 creates, a stale version is refused', async () => {
    const e404 = await rejection(() => admin.ops.getMetricViewIntegration(1, 'default'));
    assert.ok(e404 instanceof ApiError && e404.kind === 'notFound', String(e404));
    assert.match(e404.message, /No Databricks Metric View settings for data source "default"/);
    const created = await admin.ops.saveMetricViewIntegration(1, 'default', {
      ...SETTINGS,
      expectedConfigurationVersion: 0,
    });
    assert.equal(created.configurationVersion, 1);
    assert.equal(created.configuration.targetSchema, 'cube_views');
    const changed = await admin.ops.saveMetricViewIntegration(1, 'default', {
      ...SETTINGS,
      targetSchema: 'metrics',
      expectedConfigurationVersion: 1,
    });
    assert.equal(changed.configurationVersion, 2);
    assert.equal(changed.publicId, created.publicId);
    assert.deepEqual(await admin.ops.getMetricViewIntegration(1, 'default'), changed);
    const stale = await rejection(() =>
      admin.ops.saveMetricViewIntegration(1, 'default', { ...SETTINGS, expectedConfigurationVersion: 1 }),
    );
    assert.ok(stale instanceof ApiError && stale.kind === 'conflict', String(stale));
    assert.match(stale.message, /changed since they were read: open them again/);
    const other = await rejection(() =>
      admin.ops.saveMetricViewIntegration(1, 'snowflake', { ...SETTINGS, expectedConfigurationVersion: 0 }),
    );
    assert.ok(other instanceof ApiError && other.kind === 'notFound', String(other));
    assert.match(other.message, /"snowflake" is not a Databricks data source/);
  });

  it('a preview is queued, runs and completes; its result holds a Metric View per selected cube', async () => {
    const started = await admin.ops.startMetricViewPreview(1, {
      dataSourceName: 'default',
      selectionMode: 'selected',
      viewNames: ['orders'],
      targetNames: { orders: 'orders_metrics' },
    });
    assert.equal(started.status, 'QUEUED');
    assert.equal(started.reused, false);
    const seen = await ended(started.previewId);
    const last = seen[seen.length - 1]!;
    assert.equal(last.status, 'COMPLETED');
    assert.equal(last.progress.percentComplete, 100);
    assert.equal(last.resultAvailable, true);
    const result = await admin.ops.getMetricViewPreviewResult(1, started.previewId);
    assert.equal(result.outcome, 'success');
    assert.deepEqual(
      result.views.map((v) => [v.cubeViewName, v.metricViewName, v.outcome]),
      [['orders', 'orders_metrics', 'success']],
    );
    const view = result.views[0]!;
    assert.ok(view.counts.measures > 0 && view.counts.dimensions > 0, JSON.stringify(view.counts));
    assert.match(view.metricViewYaml ?? '', /^version: 0\.1\nsource: \w+\n/);
  });

  it('an exact retry while the preview runs reuses it; a cancel stops it and leaves no result', async () => {
    const input = { dataSourceName: 'slow', selectionMode: 'all' as const };
    const first = await admin.ops.startMetricViewPreview(1, input);
    const again = await admin.ops.startMetricViewPreview(1, input);
    assert.equal(again.previewId, first.previewId);
    assert.equal(again.reused, true);
    await admin.ops.cancelMetricViewPreview(1, first.previewId);
    const s = await admin.ops.getMetricViewPreview(1, first.previewId);
    assert.equal(s.status, 'CANCELLED');
    assert.deepEqual(s.progress, {
      stage: 'CANCELLED',
      percentComplete: s.progress?.percentComplete,
      message: 'Cancelled',
    });
    assert.equal(s.resultAvailable, false);
    assert.equal(s.error, null);
    const twice = await rejection(() => admin.ops.cancelMetricViewPreview(1, first.previewId));
    assert.ok(twice instanceof ApiError && twice.kind === 'conflict', String(twice));
    assert.match(twice.message, /already finished: there is nothing to cancel/);
    const none = await rejection(() => admin.ops.getMetricViewPreviewResult(1, first.previewId));
    assert.ok(none instanceof ApiError && none.kind === 'conflict', String(none));
    const fresh = await admin.ops.startMetricViewPreview(1, input);
    assert.notEqual(fresh.previewId, first.previewId, 'a later submission starts a fresh execution');
  });

  it('a selection matching no view fails; unsupported patterns and unknown previews are refused', async () => {
    const started = await admin.ops.startMetricViewPreview(1, {
      dataSourceName: 'default',
      selectionMode: 'pattern',
      viewNameRegex: '^nothing_like_this.*$',
    });
    const seen = await ended(started.previewId);
    assert.equal(seen[seen.length - 1]!.status, 'FAILED');
    const bad = await rejection(() =>
      admin.ops.startMetricViewPreview(1, {
        dataSourceName: 'default',
        selectionMode: 'pattern',
        viewNameRegex: '(orders|users)',
      }),
    );
    assert.ok(bad instanceof ApiError && bad.kind === 'validation', String(bad));
    assert.match(bad.message, /outside the supported subset/);
    const gone = await rejection(() => admin.ops.getMetricViewPreview(1, 'mvp_unknown'));
    assert.ok(gone instanceof ApiError && gone.kind === 'notFound', String(gone));
    assert.match(gone.message, /preview mvp_unknown no longer exists .*start a new one/);
  });

  it('a meta sync token carries the security context; an unknown environment is a 404', async () => {
    const t = await admin.createMetaSyncToken(1, 101, { security_context: { role: 'bi-sync' } });
    const claims = JSON.parse(Buffer.from(t.token.split('.')[1]!, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    assert.equal(claims.role, 'bi-sync');
    assert.equal(claims.metaSync, true);
    const e = await rejection(() => admin.createMetaSyncToken(1, 999, { security_context: {} }));
    assert.ok(e instanceof ApiError && e.kind === 'notFound', String(e));
  });

  it('the Usage Analytics token is for admins and queries the Data API it names', async () => {
    const t = await admin.createUsageAnalyticsToken();
    assert.match(t.apiUrl, /\/cubejs-api\/v1$/);
    const data = new DataClient({
      baseUrl: t.apiUrl.replace(/\/v1$/, ''),
      token: async () => t.token,
      retry: fast,
      cacheKey: 'usage',
    });
    try {
      const meta = await data.meta();
      assert.ok(meta.cubes.length > 0);
    } finally {
      await data.close();
    }
    const e = await rejection(() => member.createUsageAnalyticsToken());
    assert.ok(e instanceof ApiError && e.kind === 'forbidden', String(e));
    assert.match(e.message, /^Issuing a Usage Analytics token needs the admin role/);
  });

  it('GET /v1/spec is an OpenAPI 3.1 document of exactly the platform rows the sandbox checks', async () => {
    const spec = await admin.getApiSpec();
    assert.equal(spec.openapi, '3.1.0');
    const paths = spec.paths as Record<string, Record<string, { operationId: string }>>;
    const served = Object.entries(paths).flatMap(([p, ops]) =>
      Object.entries(ops).map(([m, o]) => `${m.toUpperCase()} ${p} ${o.operationId}`),
    );
    const rows = declaredOperations()
      .filter(({ op }) => !/^\/(scim|build)\//.test(op.path))
      .map(({ name, op }) => `${op.method} /api${op.path} ${name}`);
    assert.deepEqual(served.sort(), rows.sort());
    const start = paths['/api/v1/deployments/{deploymentId}/databricks-metric-view-previews']!
      .post as unknown as {
      requestBody: { required: boolean; content: Record<string, { schema: { required: string[] } }> };
    };
    assert.equal(start.requestBody.required, true);
    assert.deepEqual(start.requestBody.content['application/json']!.schema.required.sort(), [
      'dataSourceName',
      'selectionMode',
    ]);
  });
});
