// The contract infrastructure judged on its own: it must find the right operation, catch what is
// wrong, accept what is right, and generate what the documents allow (and, on purpose, what they
// do not list).
import * as assert from 'node:assert/strict';
import { startMockServer, startValidatingProxy } from '../../contract/contractServers';
import { requireReference, type Reference } from '../../contract/openapiDocs';
import {
  EXTRA_PROPERTY,
  UNKNOWN_ENUM_VALUE,
  generateRequestBody,
  generateResponse,
  responseCases,
} from '../../contract/openapiGenerate';
import { validateRequest, validateResponse } from '../../contract/openapiValidate';

const contains = (v: unknown, pred: (x: unknown, key?: string) => boolean, key?: string): boolean =>
  pred(v, key) ||
  (Array.isArray(v)
    ? v.some((x) => contains(x, pred))
    : !!v && typeof v === 'object' && Object.entries(v).some(([k, x]) => contains(x, pred, k)));

describe('contract infrastructure (published documents)', function () {
  let ref: Reference;
  before(function () {
    ref = requireReference(this);
  });

  it('loads the four documents and matches URLs to published operations', () => {
    assert.ok(ref.operations('platform').length > 100);
    assert.equal(
      ref.match('platform', 'GET', '/api/v1/deployments/3/reports/77')?.op.key,
      'GET /api/v1/deployments/{deploymentId}/reports/{reportId}',
    );
    assert.deepEqual(ref.match('platform', 'GET', '/api/v1/deployments/3/reports/77')?.params, {
      deploymentId: '3',
      reportId: '77',
    });
    // A literal segment wins over a parameter.
    assert.equal(
      ref.match('platform', 'PUT', '/api/v1/deployments/3/reports/by-public-id/abc')?.op.key,
      'PUT /api/v1/deployments/{deploymentId}/reports/by-public-id/{publicId}',
    );
    assert.equal(ref.match('platform', 'GET', '/v1/app-config')?.op.key, 'GET /api/v1/app-config');
    assert.equal(ref.match('platform', 'GET', '/api/scim/v2/Users')?.op.family, 'scim');
    assert.equal(ref.match('data', 'POST', 'http-base/x/cubejs-api/v1/cubesql')?.op.key, 'POST /v1/cubesql');
    assert.equal(
      ref.match('ai', 'POST', '/ai/api/v1/public/acme/agents/7/chat/stream-chat-state')?.op.key,
      'POST /chat/stream-chat-state',
    );
    assert.equal(ref.match('data', 'GET', '/cubejs-api/v1/load')?.op.alias !== undefined, true);
    assert.equal(ref.match('platform', 'GET', '/api/v1/users'), undefined, 'GET /v1/users is not published');
    assert.equal(ref.pathPublished('platform', '/api/v1/users'), true);
    assert.equal(ref.match('platform', 'GET', '/api/v1/nothing-here'), undefined);
  });

  it('validateRequest catches undeclared parameters, bad bodies and missing required parts', () => {
    const remove = ref.match('platform', 'DELETE', '/api/v1/deployments/1/notifications/2/recipients')!;
    const good = validateRequest(remove.op, {
      params: remove.params,
      body: { recipients: [{ type: 'USER', id: 5 }] },
    });
    assert.deepEqual(good.errors, []);
    const bad = validateRequest(remove.op, {
      params: remove.params,
      body: { recipients: [{ type: 'USER', userId: 5 }] },
    });
    assert.equal(bad.ok, false);
    assert.match(bad.errors.join('\n'), /recipients\/0/);
    const list = ref.match('platform', 'GET', '/api/v1/deployments/1/reports')!;
    assert.deepEqual(
      validateRequest(list.op, { params: list.params, query: new URLSearchParams('first=5') }).errors,
      [],
    );
    assert.match(
      validateRequest(list.op, { params: list.params, query: { bogus: '1' } }).errors.join(),
      /bogus: not declared/,
    );
    assert.match(
      validateRequest(list.op, { params: list.params, query: { first: 'many' } }).errors.join(),
      /first/,
    );
    const sql = ref.match('data', 'POST', '/cubejs-api/v1/cubesql')!;
    assert.match(validateRequest(sql.op, {}).errors.join(), /required but missing/);
    const load = ref.match('data', 'GET', '/cubejs-api/v1/load')!;
    assert.deepEqual(
      validateRequest(load.op, {
        query: { query: JSON.stringify({ measures: ['orders.count'] }), queryType: 'multi' },
      }).errors,
      [],
    );
    assert.match(validateRequest(load.op, { query: { query: '{"measures":"x"}' } }).errors.join(), /query/);
  });

  it('validateResponse catches missing required fields, wrong types and undeclared content', () => {
    const cfg = ref.operation('platform', 'GET /api/v1/app-config');
    const ok = generateResponse(cfg, 200, 'allOptional');
    assert.deepEqual(validateResponse(cfg, 200, 'application/json', ok.text).errors, []);
    const broken = { ...(ok.value as object), restrictDataDownload: 'yes' };
    assert.match(
      validateResponse(cfg, 200, 'application/json', broken).errors.join(),
      /restrictDataDownload/,
    );
    const envs = ref.operation('platform', 'GET /api/v1/deployments/{deploymentId}/environments');
    const withInt = { items: [{ id: 1, name: 'prod' }], pageInfo: null };
    assert.equal(validateResponse(envs, 200, 'application/json', withInt).ok, false);
    assert.match(validateResponse(cfg, 201, 'application/json', '{}').errors.join(), /not published/);
    const note = validateResponse(cfg, 404, 'application/json', '{"error":"x"}');
    assert.equal(note.ok, true);
    assert.match(note.notes.join(), /not described/);
    const abort = ref.operation('ai', 'POST /chat/abort');
    assert.match(
      validateResponse(abort, 204, 'application/json', '{"x":1}').errors.join(),
      /declares no content/,
    );
    assert.equal(validateResponse(abort, 204, undefined, '').ok, true);
    const sql = ref.operation('data', 'POST /v1/cubesql');
    assert.ok(sql.ndjson);
    const lines = '{"schema":[{"name":"a","column_type":"Int64"}]}\n{"data":[["1"]]}\n';
    assert.deepEqual(validateResponse(sql, 200, 'application/json', lines).errors, []);
    assert.match(
      validateResponse(sql, 200, 'application/json', `${lines}{"data":"no"}\n`).errors.join(),
      /line 3/,
    );
  });

  it('generates every variant deterministically, valid where it should be', function () {
    this.timeout(120000);
    const keys: [string, string][] = [
      ['platform', 'GET /api/v1/deployments'],
      ['platform', 'GET /api/v1/deployments/{deploymentId}/environments'],
      ['platform', 'GET /api/v1/deployments/{deploymentId}/reports'],
      ['platform', 'GET /api/v1/deployments/{deploymentId}/notifications'],
      ['platform', 'GET /api/v1/deployments/{deploymentId}/notifications/{id}/recipients'],
      ['platform', 'POST /api/v1/deployments/{deploymentId}/workbooks/{workbookId}/publish'],
      ['scim', 'GET /scim/v2/Users'],
      ['data', 'GET /v1/meta'],
      ['data', 'POST /v1/cubesql'],
      ['ai', 'POST /chat/stream-chat-state'],
    ];
    let cases = 0;
    for (const [family, key] of keys) {
      const op = ref.operation(family as never, key);
      const all = responseCases(op);
      assert.ok(all.length >= 8, `${key}: ${all.length} cases`);
      for (const c of all) {
        const g = generateResponse(op, c.status, c.variant, c.seed);
        const v = validateResponse(op, c.status, g.contentType, g.text);
        cases++;
        if (c.variant === 'unknownEnums') {
          if (contains(g.value, (x) => x === UNKNOWN_ENUM_VALUE))
            assert.equal(v.ok, false, `${key} ${c.name}`);
          continue;
        }
        assert.deepEqual(v.errors, [], `${key} ${c.name}`);
        assert.equal(g.validUnderDocument, true, `${key} ${c.name}`);
      }
      const again = generateResponse(op, all[0]!.status, 'random', 2).text;
      assert.equal(generateResponse(op, all[0]!.status, 'random', 2).text, again, `${key}: deterministic`);
    }
    const recipients = ref.operation(
      'platform',
      'GET /api/v1/deployments/{deploymentId}/notifications/{id}/recipients',
    );
    assert.ok(
      contains(generateResponse(recipients, 200, 'nulls').value, (x) => x === null),
      'nulls variant has nulls',
    );
    assert.ok(
      contains(generateResponse(recipients, 200, 'extraProperties').value, (_x, k) => k === EXTRA_PROPERTY),
    );
    assert.ok(
      contains(generateResponse(recipients, 200, 'unknownEnums').value, (x) => x === UNKNOWN_ENUM_VALUE),
    );
    const all = JSON.stringify(generateResponse(recipients, 200, 'allOptional').value);
    const req = JSON.stringify(generateResponse(recipients, 200, 'requiredOnly').value);
    assert.ok(all.includes('channelId') && !req.includes('channelId'), 'requiredOnly drops optional fields');
    const body = generateRequestBody(
      ref.operation('platform', 'POST /api/v1/deployments/{deploymentId}/notifications/{id}/recipients'),
      'allOptional',
    );
    assert.equal(body?.validUnderDocument, true);
    console.log(`      generated and validated ${cases} responses (${keys.length} operations)`);
  });

  it('the mock answers published operations and the proxy records violations', async () => {
    const mock = await startMockServer(ref, { variant: 'nulls' });
    const proxy = await startValidatingProxy(ref, mock.url);
    try {
      const ok = await fetch(`${proxy.url}/api/v1/deployments/1/environments?first=10`);
      assert.equal(ok.status, 200);
      const body = (await ok.json()) as { items?: unknown };
      assert.ok('items' in body);
      assert.equal(proxy.violations.length, 0, JSON.stringify(proxy.violations));
      assert.equal(proxy.exchanges[0]?.operation, 'GET /api/v1/deployments/{deploymentId}/environments');
      assert.equal(mock.exchanges.length, 1);

      const unknown = await fetch(`${proxy.url}/api/v1/users`);
      assert.equal(unknown.status, 404);
      await unknown.text();
      assert.equal(proxy.violations[0]?.kind, 'unknownRoute');
      assert.match(proxy.violations[0]!.errors[0]!, /GET is not published/);

      const badReq = await fetch(`${proxy.url}/api/v1/deployments/1/notifications/2/recipients`, {
        method: 'DELETE',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ recipients: [{ type: 'USER', userId: 1 }] }),
      });
      await badReq.text();
      assert.ok(proxy.violations.some((v) => v.kind === 'request' && v.operation?.endsWith('/recipients')));

      mock.setVariant('allOptional', 3);
      const sql = await fetch(`${proxy.url}/cubejs-api/v1/cubesql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'SELECT 1' }),
      });
      assert.equal((await sql.text()).trim().split('\n').length, 3, 'NDJSON: three lines');
      assert.equal(proxy.violations.filter((v) => v.kind === 'response').length, 0);
    } finally {
      await proxy.close();
      await mock.close();
    }
  });
});
