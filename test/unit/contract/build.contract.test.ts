// The build API's contract cases beyond the sandbox-wide suite (which drives every build route
// through the validating proxy, see buildCalls.ts): the validator judges multipart uploads against
// the published form, and the source-control flow's answers validate end to end.
import * as assert from 'node:assert/strict';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { startValidatingProxy, type RecordingServer } from '../../contract/contractServers';
import { requireReference, type Reference } from '../../contract/openapiDocs';
import { validateRequest, validateResponse } from '../../contract/openapiValidate';
import { BuildService } from '../../../src/sandbox/build';
import { BuildClient } from '../../../src/api/buildClient';
import { createDataEngine } from '../../../src/sandbox/data';
import { seedPlatform } from '../../../src/sandbox/platform/seed';
import { jsonCaller } from '../api/helpers';

const UPLOAD_FILE = 'POST /build/api/v1/deployments/{deploymentId}/data-model/upload/file';

describe('contract: the build API', function () {
  this.timeout(60_000);
  let ref: Reference;
  let sb: SandboxHandle;
  let proxy: RecordingServer;
  before(async function () {
    ref = requireReference(this);
    sb = await startSandbox({ rows: 300 });
    proxy = await startValidatingProxy(ref, `http://127.0.0.1:${sb.port}`);
  });
  after(async () => {
    await proxy?.close();
    await sb?.close();
  });

  it('judges a multipart upload by the published form: its fields are required', () => {
    const op = ref.operation('platform', UPLOAD_FILE);
    const type = 'multipart/form-data; boundary=x';
    const params = { deploymentId: '1' };
    assert.deepEqual(
      validateRequest(op, {
        params,
        contentType: type,
        body: { transaction: '{"id":"t"}', fileName: 'a.yml', file: 'x' },
      }).errors,
      [],
    );
    const missing = validateRequest(op, {
      params,
      contentType: type,
      body: { fileName: 'a.yml', file: 'x' },
    });
    assert.match(missing.errors.join('\n'), /must have required property 'transaction'/);
  });

  it('walks branch, edit, commit and merge to default with every exchange valid, and the default meta shows the change', async () => {
    const call = jsonCaller(
      () => `${proxy.url}/build/api/v1/deployments/1`,
      () => sb.tokens.admin,
    );
    assert.equal((await call('POST', '/branches', { name: 'flow', activate: true })).status, 200);
    const files = (await call('GET', '/data-model/files?withContent=true')).body;
    assert.ok(Array.isArray(files.items) && files.items.length > 0);
    const add =
      'cubes:\n  - name: flow\n    sql_table: orders\n    measures:\n      - name: n\n        type: count\n';
    assert.equal(
      (await call('PUT', '/data-model/files', { files: [{ path: 'model/cubes/flow.yml', content: add }] }))
        .status,
      200,
    );
    assert.equal((await call('GET', '/data-model/validate?devMode=true')).body.valid, true);
    assert.equal((await call('POST', '/commit', { message: 'flow' })).status, 200);
    const merged = await call('POST', '/merge-to-default', { branchName: 'flow', message: 'Ship flow' });
    assert.deepEqual(merged.body, { merged: true, branchDeleted: false });
    const meta = await fetch(`${proxy.url}/cubejs-api/v1/meta`, {
      headers: { authorization: sb.tokens.dataApi },
    });
    const names = ((await meta.json()) as { cubes: { name: string }[] }).cubes.map((c) => c.name);
    assert.ok(names.includes('flow'), names.join(', '));
    assert.equal(proxy.exchanges.length, 7);
    assert.deepEqual(
      proxy.violations.map((v) => `${v.kind} ${v.method} ${v.url}: ${v.errors.join('; ')}`),
      [],
    );
  });

  it("turns a shared branch's staging environment on and off through the client, every exchange valid", async () => {
    const client = new BuildClient({ platformUrl: `${proxy.url}/api`, token: async () => sb.tokens.admin });
    try {
      const from = proxy.exchanges.length;
      await client.createBranch(1, { name: 'shared-stage', from: 'main' });
      const on = await client.setBranchStagingEnvironment(1, { branchName: 'shared-stage', enabled: true });
      assert.equal(on.name, 'shared-stage');
      assert.equal(on.isStagingEnvironmentEnabled, true);
      const listed = (await client.allBranches(1)).find((b) => b.name === 'shared-stage');
      assert.equal(listed?.isStagingEnvironmentEnabled, true);
      // Served with nobody in dev mode on it: its dev-mode Data API answers.
      const dev = `${sb.urls.deployments[0]!.deploymentUrl}/dev-mode/shared-stage/cubejs-api/v1/meta`;
      assert.equal((await fetch(dev, { headers: { authorization: sb.tokens.dataApi } })).status, 200);
      const off = await client.setBranchStagingEnvironment(1, { branchId: on.id!, enabled: false });
      assert.equal(off.isStagingEnvironmentEnabled, false);
      // The deploy branch is production, never a staging environment: the server's reason is shown.
      await assert.rejects(
        client.setBranchStagingEnvironment(1, { branchName: 'main', enabled: true }),
        (e: unknown) => e instanceof Error && /production/.test(e.message),
      );
      // Nothing is sent for a call that names no branch.
      const sent = proxy.exchanges.length;
      await assert.rejects(
        client.setBranchStagingEnvironment(1, { enabled: true }),
        /branchName or branchId/,
      );
      assert.equal(proxy.exchanges.length, sent);
      const mine = proxy.exchanges.slice(from);
      assert.ok(mine.some((x) => x.operation?.includes('staging-environment')));
      assert.deepEqual(
        proxy.violations.map((v) => `${v.kind} ${v.method} ${v.url}: ${v.errors.join('; ')}`),
        [],
      );
    } finally {
      await client.close();
    }
  });

  it('shapes a branch build status as the published BuildStatusResponse (for the build-status route)', async () => {
    const op = ref.operation('platform', 'GET /api/v1/deployments/{deploymentId}/build-status');
    const engine = await createDataEngine({ rows: 100 });
    try {
      const svc = new BuildService({
        deployments: seedPlatform().deployments,
        engineFor: async () => engine,
      });
      for (const branch of ['main', 'staging']) {
        const status = await svc.buildStatus(1, branch);
        assert.ok(status);
        assert.deepEqual(validateResponse(op, 200, 'application/json', status).errors, []);
      }
    } finally {
      engine.db.close();
    }
  });
});
