// The model feature's client calls against the sandbox, through the validating proxy: the whole
// loop at the API level (branch, edit, a compile error located at its line, the fix, the dev-mode
// Data API answering the new measure, commit, merge to default, default meta), and an upload of
// only the changed files. Every exchange validates against the published documents.
import * as assert from 'node:assert/strict';
import { BuildClient, DataClient, devModeDataApiUrl, planUpload, PlatformClient } from '../../../src/api';
import { locateError } from '../../../src/model/modelPaths';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { startValidatingProxy, type RecordingServer } from '../../contract/contractServers';
import { requireReference } from '../../contract/openapiDocs';

const fast = { retries: 0, baseDelayMs: 5, maxDelayMs: 20 };
const ORDERS = 'model/cubes/orders.yml';

/** Inserts a measure as the first item of the orders cube's measures. */
function withMeasure(yaml: string, type: string): string {
  const out = yaml.replace(
    /(\n([ \t]*)measures:\n)/,
    (_m, head: string, ind: string) =>
      `${head}${ind}  - name: big_amount\n${ind}    sql: amount\n${ind}    type: ${type}\n`,
  );
  assert.notEqual(out, yaml, 'the measures list was found');
  return out;
}

describe('model: the build client against the sandbox (validating proxy)', function () {
  this.timeout(120_000);
  let sb: SandboxHandle;
  let proxy: RecordingServer;
  let build: BuildClient;
  let platform: PlatformClient;
  const closers: (() => Promise<void>)[] = [];

  before(async function () {
    const ref = requireReference(this);
    sb = await startSandbox({ rows: 500 });
    proxy = await startValidatingProxy(ref, new URL(sb.urls.platform).origin);
    const via = (url: string) => `${proxy.url}${new URL(url).pathname}`;
    build = new BuildClient({
      platformUrl: via(sb.urls.platform),
      token: async () => sb.tokens.admin,
      retry: fast,
    });
    platform = new PlatformClient({
      baseUrl: via(sb.urls.platform),
      token: async () => sb.tokens.admin,
      retry: fast,
    });
    closers.push(
      () => build.close(),
      () => platform.close(),
    );
  });

  after(async () => {
    for (const c of closers) await c();
    await proxy?.close();
    await sb?.close();
  });

  it('walks the loop: branch, error at its line, fix, dev-mode query, commit, merge to default', async () => {
    const branches = await build.allBranches(1);
    assert.ok(branches.some((b) => b.name === 'main' && !b.parentBranch));
    const created = await build.createBranch(1, { name: 'ann-orders', from: 'main', activate: true });
    assert.equal(created.active, true);

    const files = await build.listFiles(1, { branchName: 'ann-orders', withContent: true });
    const orders = files.find((f) => f.path === ORDERS);
    assert.ok(orders?.content, 'the orders cube file is listed with its content');
    const hashes = await build.fileHashes(1, { branchName: 'ann-orders' });
    assert.equal(hashes.get(ORDERS), orders.hash);

    await build.updateFiles(1, {
      branchName: 'ann-orders',
      files: [{ path: ORDERS, content: withMeasure(orders.content, 'summ') }],
    });
    const bad = await build.validate(1, { branchName: 'ann-orders' });
    assert.equal(bad.valid, false);
    const loc = locateError(bad.errors[0]!.message, bad.errors[0]!.fileName);
    assert.equal(loc.file, ORDERS);
    const badLines = withMeasure(orders.content, 'summ').split('\n');
    assert.match(badLines[loc.line]!, /summ|big_amount/, `line ${loc.line + 1} is the new measure's`);

    await build.updateFiles(1, {
      branchName: 'ann-orders',
      files: [{ path: ORDERS, content: withMeasure(orders.content, 'sum') }],
    });
    const good = await build.validate(1, { branchName: 'ann-orders' });
    assert.deepEqual(good.errors, []);
    assert.equal(good.valid, true);

    const deployment = await platform.getDeployment(1);
    const dev = new DataClient({
      baseUrl: devModeDataApiUrl(deployment.deploymentUrl!, 'ann-orders'),
      token: async () => sb.tokens.dataApi,
      retry: fast,
    });
    closers.push(() => dev.close());
    const devMeta = await dev.meta({ refresh: true });
    assert.ok(
      devMeta.cubes.find((c) => c.name === 'orders')?.measures.some((m) => m.name === 'orders.big_amount'),
    );
    const rows = await dev.load({ measures: ['orders.big_amount'] });
    assert.equal(rows.results[0]?.data.length, 1);

    assert.equal((await build.commit(1, { message: 'Add orders.big_amount' })).success, true);
    const merged = await build.mergeToDefault(1, { branchName: 'ann-orders', message: 'Ship big_amount' });
    assert.equal(merged.merged, true);
    const mainValid = await build.validate(1);
    assert.equal(mainValid.valid, true);
    const mainFiles = await build.listFiles(1, { branchName: 'main', withContent: true });
    assert.match(mainFiles.find((f) => f.path === ORDERS)?.content ?? '', /big_amount/);

    assert.deepEqual(proxy.violations, [], 'every exchange validates against the published documents');
  });

  it('uploads only the changed files in one transaction and finds the result compiled', async () => {
    await build.createBranch(1, { name: 'upload-target', from: 'main' });
    const files = await build.listFiles(1, { branchName: 'upload-target', withContent: true });
    const enc = new TextEncoder();
    const local = files.map((f) => ({
      path: f.path,
      content: enc.encode(f.path === ORDERS ? `${f.content ?? ''}\n# touched\n` : (f.content ?? '')),
    }));
    local.push({ path: 'model/cubes/notes.yml', content: enc.encode('cubes: []\n') });
    const plan = planUpload(local, await build.fileHashes(1, { branchName: 'upload-target' }));
    assert.deepEqual(plan.changed.map((f) => f.path).sort(), ['model/cubes/notes.yml', ORDERS].sort());
    assert.equal(plan.unchanged, files.length - 1);
    const from = proxy.exchanges.length;
    const { transaction } = await build.startUpload(1, { branchName: 'upload-target' });
    for (const f of plan.changed)
      await build.uploadFile(1, transaction.id, f, { branchName: 'upload-target' });
    await build.finishUpload(
      1,
      { transaction, files: plan.manifest, autoRemoveFiles: true },
      { branchName: 'upload-target' },
    );
    const uploads = proxy.exchanges.slice(from).filter((e) => e.url.includes('/upload/file'));
    assert.equal(uploads.length, 2, 'only the changed files were sent');
    const after = await build.fileHashes(1, { branchName: 'upload-target' });
    const again = planUpload(local, after);
    assert.equal(again.changed.length, 0, 'the branch now holds the folder');
    assert.equal((await build.validate(1, { branchName: 'upload-target' })).valid, true);
    assert.deepEqual(proxy.violations, []);
  });
});
