// The build API's contract cases beyond the sandbox-wide suite (which drives every build route
// through the validating proxy, see buildCalls.ts): the validator judges multipart uploads against
// the published form, and the source-control flow's answers validate end to end.
import * as assert from 'node:assert/strict';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { startValidatingProxy, type RecordingServer } from '../../contract/contractServers';
import { requireReference, type Reference } from '../../contract/openapiDocs';
import { validateRequest } from '../../contract/openapiValidate';

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
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${proxy.url}/build/api/v1/deployments/1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${sb.tokens.admin}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
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
});
