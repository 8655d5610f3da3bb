// The nine rows added last (Databricks Metric Views, the meta sync and Usage Analytics tokens, GET
// /v1/spec) through PlatformClient against a loopback server that records what arrives: the exact
// request (method, path, body); the answer read with unknown fields kept; and what the user is told
// on a 403, a 404 and, for a write, an outcome that is unknown (sent once, with how to check).
import * as assert from 'node:assert/strict';
import { ApiError, type PlatformClient } from '../../../src/api';
import { answeringPlatform, rejection } from './helpers';

const P = '/api/v1/deployments/4';
const PREVIEW = `${P}/databricks-metric-view-previews/mvp_1`;
const SETTINGS_ANSWER = {
  publicId: 'dmv_1',
  deploymentId: 4,
  dataSourceName: 'default',
  configurationVersion: 3,
  configuration: {
    version: 1,
    enabled: true,
    targetCatalog: 'main',
    targetSchema: 'views',
    selectionMode: 'all',
    deletionPolicy: 'archive-later',
  },
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-02T00:00:00Z',
  future: { kept: true },
};
const STATUS = {
  previewId: 'mvp_1',
  deploymentId: 4,
  dataSourceName: 'default',
  status: 'PAUSED',
  progress: { stage: 'PAUSED', percentComplete: 40, message: 'Converting views' },
  resultAvailable: false,
  startedAt: '2026-11-02T00:00:00.000Z',
  updatedAt: '2026-11-02T00:00:01.000Z',
};
const SAVE = {
  expectedConfigurationVersion: 0,
  enabled: true,
  targetCatalog: 'main',
  targetSchema: 'views',
  selectionMode: 'pattern',
  viewNameRegex: '^sales_.*',
};
const TOKEN = { token: 'jwt-1', security_context: { role: 'bi' }, created_at: 'a', expires_at: 'b' };

interface Case {
  name: string;
  run(c: PlatformClient): Promise<unknown>;
  method: string;
  url: string;
  body?: unknown;
  answer: unknown;
  /** What the caller gets (the answer unless the row unwraps it). */
  result?: unknown;
  forbidden: RegExp;
  notFound: RegExp;
  /** A write: how its unknown outcome starts and says to check. */
  unknown?: RegExp;
}

const CASES: Case[] = [
  {
    name: 'getMetricViewIntegration',
    run: (c) => c.ops.getMetricViewIntegration(4, 'default'),
    method: 'GET',
    url: `${P}/databricks-metric-view-integrations/default`,
    answer: SETTINGS_ANSWER,
    forbidden:
      /^Reading the Databricks Metric View settings needs access to this deployment's data model \(SchemaRead or SchemaUpdate\)\. Ask an admin to grant it\.$/,
    notFound:
      /^No Databricks Metric View settings for data source "default": it is not a Databricks data source/,
  },
  {
    name: 'saveMetricViewIntegration',
    run: (c) => c.ops.saveMetricViewIntegration(4, 'sales dw', { ...SAVE, selectionMode: 'pattern' }),
    method: 'PUT',
    url: `${P}/databricks-metric-view-integrations/sales%20dw`,
    body: SAVE,
    answer: SETTINGS_ANSWER,
    forbidden: /^Saving the Databricks Metric View settings needs access to this deployment's data model/,
    notFound: /^Data source "sales dw" is not a Databricks data source of this deployment: pick one/,
    unknown:
      /^Saving the Databricks Metric View settings: the outcome is unknown.*Open the Databricks Metric View settings again to see whether the change was saved\./s,
  },
  {
    name: 'startMetricViewPreview',
    run: (c) => c.ops.startMetricViewPreview(4, { dataSourceName: 'default', selectionMode: 'all' }),
    method: 'POST',
    url: `${P}/databricks-metric-view-previews`,
    body: { dataSourceName: 'default', selectionMode: 'all' },
    answer: {
      previewId: 'mvp_1',
      deploymentId: 4,
      dataSourceName: 'default',
      buildJobId: 9,
      reused: false,
      status: 'QUEUED',
      statusUrl: '/s',
      resultUrl: '/r',
      extra: 1,
    },
    forbidden: /^Starting a Databricks Metric View preview needs access to this deployment's data model/,
    notFound: /^The data source is not a Databricks data source of this deployment/,
    unknown:
      /^Starting a Databricks Metric View preview: the outcome is unknown.*Start the preview again: an exact retry while the same preview runs reuses it\./s,
  },
  {
    name: 'getMetricViewPreview',
    run: (c) => c.ops.getMetricViewPreview(4, 'mvp_1'),
    method: 'GET',
    url: PREVIEW,
    answer: STATUS,
    forbidden: /^Reading the Databricks Metric View preview needs access/,
    notFound:
      /^The Databricks Metric View preview mvp_1 no longer exists \(previews are kept for at most seven days\): start a new one\./,
  },
  {
    name: 'cancelMetricViewPreview',
    run: (c) => c.ops.cancelMetricViewPreview(4, 'mvp_1'),
    method: 'DELETE',
    url: PREVIEW,
    answer: {},
    result: undefined,
    forbidden: /^Cancelling the Databricks Metric View preview needs access/,
    notFound: /^The Databricks Metric View preview mvp_1 no longer exists/,
    unknown:
      /^Cancelling the Databricks Metric View preview: the outcome is unknown.*Read the preview’s status to see whether it was cancelled\./s,
  },
  {
    name: 'getMetricViewPreviewResult',
    run: (c) => c.ops.getMetricViewPreviewResult(4, 'mvp_1'),
    method: 'GET',
    url: `${PREVIEW}/result`,
    answer: {
      previewId: 'mvp_1',
      deploymentId: 4,
      dataSourceName: 'default',
      buildJobId: 9,
      completedAt: '2026-11-02T00:00:05.000Z',
      durationMs: 5000,
      version: 3,
      outcome: 'mixed',
      sourceSha256: 'abc',
      runtime: { runnerVersion: '1' },
      views: [
        {
          cubeViewName: 'orders',
          metricViewName: 'orders',
          outcome: 'success',
          eligibleForPublication: true,
          issues: [{ code: 'X', severity: 'NOTICE', stage: 'NEW_STAGE', message: 'kept' }],
          datasetSources: [],
          counts: { dimensions: 2, measures: 1, joins: 0, warnings: 0, errors: 0 },
          metricViewYaml: 'version: 0.1\n',
        },
      ],
    },
    forbidden: /^Reading the Databricks Metric View preview result needs access/,
    notFound: /^The Databricks Metric View preview mvp_1 no longer exists/,
  },
  {
    name: 'createMetaSyncToken',
    run: (c) => c.createMetaSyncToken(4, 102, { security_context: { role: 'bi' }, expires_in: 60 }),
    method: 'POST',
    url: `${P}/environments/102/tokens-for-meta-sync`,
    body: { security_context: { role: 'bi' }, expires_in: 60 },
    answer: { data: TOKEN },
    result: TOKEN,
    forbidden: /^Creating a meta sync token failed: You are not allowed to do this \(403\)\./,
    notFound: /^The environment no longer exists in this deployment: refresh the deployment’s environments\./,
    unknown:
      /^Creating a meta sync token: the outcome is unknown.*Meta sync tokens are not listed: create another one if this one did not arrive\./s,
  },
  {
    name: 'createUsageAnalyticsToken',
    run: (c) => c.createUsageAnalyticsToken(),
    method: 'POST',
    url: '/api/v1/usage-analytics/token',
    answer: { token: 'jwt-2', apiUrl: 'https://ua.example/cubejs-api/v1', deploymentId: 99, expiresAt: null },
    forbidden: /^Issuing a Usage Analytics token needs the admin role\. Use a token of an admin user\.$/,
    notFound: /^Usage Analytics is not enabled for this account: ask Cube support to enable it\./,
    unknown:
      /^Issuing a Usage Analytics token: the outcome is unknown.*Issue the token again: issuing one is idempotent\./s,
  },
  {
    name: 'getApiSpec',
    run: (c) => c.getApiSpec(),
    method: 'GET',
    url: '/api/v1/spec',
    answer: { openapi: '3.1.0', info: { title: 'Cube Platform API', version: '1' }, paths: {}, 'x-more': 1 },
    forbidden: /^Reading the Platform API description failed: You are not allowed to do this \(403\)\./,
    notFound: /^Reading the Platform API description failed: Not found \(404\)/,
  },
];

describe('the last nine rows: the exact request, and what the user is told', () => {
  const on = answeringPlatform({ retries: 2, baseDelayMs: 1, maxDelayMs: 2 });

  for (const c of CASES) {
    it(`${c.name}: sends exactly this request and returns the answer, unknown fields and values kept`, async () => {
      on.reply(200, c.answer);
      const from = on.s.requests.length;
      const result = await c.run(on.client);
      assert.deepEqual(result, 'result' in c ? c.result : c.answer);
      const r = on.onlyRequestSince(from);
      assert.equal(`${r.method} ${r.url}`, `${c.method} ${c.url}`);
      if (c.body === undefined) assert.equal(r.body, '');
      else {
        assert.deepEqual(JSON.parse(r.body), c.body);
        assert.equal(r.headers['content-type'], 'application/json');
      }
      assert.equal(r.headers.authorization, 'Bearer tok-p');
    });

    it(`${c.name}: a 403 and a 404 say what was refused or is gone`, async () => {
      for (const [status, want, kind] of [
        [403, c.forbidden, 'forbidden'],
        [404, c.notFound, 'notFound'],
      ] as const) {
        on.reply(status, { error: 'no' });
        const e = await rejection(() => c.run(on.client));
        assert.ok(e instanceof ApiError, String(e));
        assert.equal(e.kind, kind);
        assert.match(e.message, want);
      }
    });

    if (c.unknown)
      it(`${c.name}: a 500 is an unknown outcome that says how to check, sent once`, async () => {
        on.reply(500, { error: 'internal' });
        const from = on.s.requests.length;
        const e = await rejection(() => c.run(on.client));
        assert.ok(e instanceof ApiError, String(e));
        assert.equal(e.kind, 'unknownOutcome');
        assert.match(e.message, c.unknown!);
        assert.equal(on.s.requests.length - from, 1, 'never re-sent');
      });
    else
      it(`${c.name}: a read that fails with a 503 is tried again`, async () => {
        on.reply(503, { error: 'busy' });
        const from = on.s.requests.length;
        await rejection(() => c.run(on.client));
        assert.equal(on.s.requests.length - from, 3, 'the read and its two retries');
      });
  }

  it('refuses bodies the documents do not allow before sending anything', async () => {
    const from = on.s.requests.length;
    const refused: [() => Promise<unknown>, RegExp][] = [
      [
        () =>
          on.client.ops.saveMetricViewIntegration(4, 'default', {
            expectedConfigurationVersion: -1,
            enabled: true,
            targetCatalog: 'main',
            targetSchema: 'views',
            selectionMode: 'all',
          }),
        /^Settings not saved: expectedConfigurationVersion/,
      ],
      [
        () =>
          on.client.ops.startMetricViewPreview(4, {
            dataSourceName: 'default',
            selectionMode: 'some',
          } as never),
        /^Preview not started: selectionMode/,
      ],
      [
        () =>
          on.client.ops.startMetricViewPreview(4, {
            dataSourceName: 'default',
            selectionMode: 'all',
            x: 1,
          } as never),
        /^Preview not started: .*x/,
      ],
      [
        () => on.client.createMetaSyncToken(4, 102, {} as never),
        /^Meta sync token not created: security_context/,
      ],
      [() => on.client.ops.getMetricViewPreview(4, ''), /Preview id is required/],
    ];
    for (const [run, message] of refused) {
      const e = await rejection(run);
      assert.ok(e instanceof ApiError, String(e));
      assert.equal(e.kind, 'validation');
      assert.match(e.message, message);
    }
    assert.equal(on.s.requests.length, from, 'nothing was sent');
  });
});
