// What the sandbox's shared route helpers answer, through raw requests (so no client check stands
// in front): the 404 of a resource another deployment owns, a region named nowhere, a bulk body
// naming one item twice, the regions list whose deprecated `data` is every region, and the
// deployment a GitHub connect names. Each helper serves several routes; these pin its answers.
import assert from 'node:assert/strict';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { jsonCaller } from '../api/helpers';

describe('sandbox: shared route helpers', function () {
  this.timeout(30_000);
  let sb: SandboxHandle;
  const call = jsonCaller(
    () => sb.urls.platform,
    () => sb.tokens.admin,
  );
  // The build API is published at the tenant's root, not under /api.
  const build = jsonCaller(
    () => new URL(sb.urls.platform).origin,
    () => sb.tokens.admin,
  );

  before(async () => {
    sb = await startSandbox({ rows: 50, aiEventDelayMs: 0, dbtStepMs: 40 });
  });
  after(async () => {
    await sb.close();
  });

  it("a dbt sync job of one deployment is not found through another's path", async () => {
    const started = await call('POST', '/v1/deployments/1/dbt-sync', {});
    assert.equal(started.status, 200);
    const id = String(started.body.syncJobId);
    assert.equal((await call('GET', `/v1/deployments/1/dbt-sync/${id}`)).status, 200);
    for (const suffix of ['', '/logs', '/result', '/generated-files']) {
      const other = await call('GET', `/v1/deployments/2/dbt-sync/${id}${suffix}`);
      assert.equal(other.status, 404, suffix);
      assert.equal(other.body.error, `dbt sync job ${id} not found.`);
    }
  });

  it('an unknown export job is not found; an unknown environment neither', async () => {
    const job = await call('GET', '/v1/deployments/1/dashboard-exports/exp-nothing');
    assert.equal(job.status, 404);
    assert.equal(job.body.error, 'Export job exp-nothing not found or expired.');
    const env = await call('GET', '/v1/deployments/1/environments/999/tokens');
    assert.equal(env.status, 404);
    assert.equal(env.body.error, 'Environment 999 not found in this deployment.');
  });

  it('a region named nowhere is refused with the regions there are, on update and on create', async () => {
    const want = 'region "mars-1" is not one of aws-us-east-1, gcp-europe-west3, azure-westeurope.';
    const update = await call('PUT', '/v1/deployments/1', { region: 'mars-1' });
    assert.deepEqual([update.status, update.body.error], [400, want]);
    const created = await build('POST', '/build/api/v1/deployments', {
      name: 'Moon base',
      region: 'mars-1',
      cloudProvider: 'aws',
      targetPlatform: 'aws',
      isManaged: true,
      creationStep: 'project',
    });
    assert.deepEqual([created.status, created.body.error], [400, want]);
    const names = ((await call('GET', '/v1/deployments')).body.items as { name: string }[]).map(
      (d) => d.name,
    );
    assert.ok(!names.includes('Moon base'), names.join(', '));
  });

  it('a bulk delete naming one item twice deletes it once and reports no failure', async () => {
    const made = await call('POST', '/v1/deployments/1/reports', { name: 'twice', sqlQuery: 'SELECT 1' });
    const ref = { type: 'REPORT', id: made.body.id };
    const gone = await call('POST', '/v1/deployments/1/workspace/bulk-delete', { items: [ref, ref] });
    assert.equal(gone.status, 200);
    assert.deepEqual(gone.body, { deleted: [ref], failed: [] });
    const again = await call('POST', '/v1/deployments/1/workspace/bulk-delete', { items: [ref] });
    assert.deepEqual(again.body.failed, [
      { ...ref, error: { status: 404, message: `REPORT ${String(ref.id)} not found.` } },
    ]);
  });

  it('the regions list pages its items while its deprecated data holds every region', async () => {
    const first = await call('GET', '/v1/regions?first=1');
    assert.equal(first.status, 200);
    assert.equal((first.body.items as unknown[]).length, 1);
    assert.equal((first.body.data as unknown[]).length, 3);
    assert.equal((first.body.pageInfo as { hasNextPage: boolean }).hasNextPage, true);
  });

  it('a GitHub connect names an existing deployment (404 otherwise)', async () => {
    const connect = await build('POST', '/build/api/v1/deployments/99/github/connect', {
      installationId: 41001,
      name: 'cube-models',
    });
    assert.deepEqual([connect.status, connect.body.error], [404, 'Deployment 99 not found.']);
  });
});
