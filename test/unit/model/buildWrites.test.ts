// Every write of the build API (issue 26: "for every write, the exact request sent and what the
// user is told on success, failure and unknown outcome"), through BuildClient against a loopback
// server that records what arrives: the method, path, query, JSON body and headers exactly; the
// answer returned on success; a refusal (400) that names the server's reason and is not called
// unknown; a 500 that is an unknown outcome naming the operation and how to check, sent once.
import * as assert from 'node:assert/strict';
import { ApiError, BuildClient } from '../../../src/api';
import { rejection, sendJson, startServer, type TestServer } from '../api/helpers';

interface WriteCase {
  name: string;
  run(b: BuildClient): Promise<unknown>;
  method: string;
  /** Path and query as they arrive (under /build/api). */
  url: string;
  body: unknown;
  /** The success answer served, and what the call must return for it. */
  answer: unknown;
  returns: unknown;
  /** The start of the unknown-outcome message (the operation as the user knows it). */
  action: string;
  /** The way to check, as the message ends. */
  hint: RegExp;
}

const D = 4;
const P = `/build/api/v1/deployments/${D}`;
const OK = { success: true };

const NEW_DEPLOYMENT = {
  name: 'Sales',
  cloudProvider: 'cubecloud',
  creationStep: 'project',
  isManaged: true,
  region: 'us-east-1',
  targetPlatform: 'cubecloud',
} as const;

const CASES: WriteCase[] = [
  {
    name: 'save files',
    run: (b) =>
      b.updateFiles(D, {
        branchName: 'dev-ann',
        files: [{ path: 'model/cubes/orders.yml', content: 'cubes: []\n' }],
      }),
    method: 'PUT',
    url: `${P}/data-model/files`,
    body: { branchName: 'dev-ann', files: [{ path: 'model/cubes/orders.yml', content: 'cubes: []\n' }] },
    answer: OK,
    returns: OK,
    action: 'Saving model/cubes/orders.yml',
    hint: /Reopen the file from the server to see whether the change was saved\.$/,
  },
  {
    name: 'delete files',
    run: (b) => b.removeFiles(D, { branchName: 'dev-ann', files: [{ path: 'a.yml' }, { path: 'b.yml' }] }),
    method: 'DELETE',
    url: `${P}/data-model/files`,
    body: { branchName: 'dev-ann', files: [{ path: 'a.yml' }, { path: 'b.yml' }] },
    answer: OK,
    returns: OK,
    action: 'Deleting a.yml, b.yml',
    hint: /Refresh the model folder to see whether the files are gone\.$/,
  },
  {
    name: 'rename files',
    run: (b) => b.renameFiles(D, { branchName: 'dev-ann', files: [{ path: 'a.yml', newPath: 'c.yml' }] }),
    method: 'POST',
    url: `${P}/data-model/files/rename`,
    body: { branchName: 'dev-ann', files: [{ path: 'a.yml', newPath: 'c.yml' }] },
    answer: OK,
    returns: OK,
    action: 'Renaming a.yml',
    hint: /Refresh the model folder to see which names the files have now\.$/,
  },
  {
    name: 'create a branch',
    run: (b) => b.createBranch(D, { name: 'feature-x', from: 'main', activate: true }),
    method: 'POST',
    url: `${P}/branches`,
    body: { name: 'feature-x', from: 'main', activate: true },
    answer: { active: true, branchName: 'feature-x', parentBranch: 'main', extra: 1 },
    returns: { active: true, branchName: 'feature-x', parentBranch: 'main', extra: 1 },
    action: 'Creating the branch feature-x',
    hint: /Pick a branch again: the list shows whether "feature-x" exists\.$/,
  },
  {
    name: 'delete a branch',
    run: (b) => b.removeBranch(D, { branchName: 'feature x' }),
    method: 'DELETE',
    url: `${P}/branches?branchName=feature+x`,
    body: undefined,
    answer: OK,
    returns: OK,
    action: 'Deleting the branch feature x',
    hint: /Pick a branch again: the list shows whether "feature x" still exists\.$/,
  },
  {
    name: 'turn a staging environment on',
    run: (b) => b.setBranchStagingEnvironment(D, { branchName: 'release', enabled: true }),
    method: 'PUT',
    url: `${P}/branches/staging-environment`,
    body: { branchName: 'release', enabled: true },
    answer: { data: { id: 3, name: 'release', isStagingEnvironmentEnabled: true } },
    returns: { id: 3, name: 'release', isStagingEnvironmentEnabled: true },
    action: 'Enabling the staging environment of release',
    hint: /the list shows whether release has its staging environment on\.$/,
  },
  {
    name: 'turn a staging environment off (by id)',
    run: (b) => b.setBranchStagingEnvironment(D, { branchId: 3, enabled: false }),
    method: 'PUT',
    url: `${P}/branches/staging-environment`,
    body: { branchId: 3, enabled: false },
    answer: { data: { id: 3, name: 'release', isStagingEnvironmentEnabled: false } },
    returns: { id: 3, name: 'release', isStagingEnvironmentEnabled: false },
    action: 'Disabling the staging environment of #3',
    hint: /whether #3 has its staging environment on\.$/,
  },
  {
    name: 'enter dev mode',
    run: (b) => b.startDevMode(D, { branchName: 'dev-ann' }),
    method: 'POST',
    url: `${P}/dev-mode`,
    body: { branchName: 'dev-ann' },
    answer: { active: true, branchName: 'dev-ann' },
    returns: { active: true, branchName: 'dev-ann' },
    action: 'Entering dev mode on dev-ann',
    hint: /Pick the branch again to enter dev mode on it\.$/,
  },
  {
    name: 'enter dev mode on the default dev branch',
    run: (b) => b.startDevMode(D, {}),
    method: 'POST',
    url: `${P}/dev-mode`,
    body: {},
    answer: { active: true, branchName: 'dev-ann' },
    returns: { active: true, branchName: 'dev-ann' },
    action: 'Entering dev mode',
    hint: /Pick the branch again to enter dev mode on it\.$/,
  },
  {
    name: 'leave dev mode',
    run: (b) => b.stopDevMode(D),
    method: 'DELETE',
    url: `${P}/dev-mode`,
    body: undefined,
    answer: OK,
    returns: OK,
    action: 'Leaving dev mode',
    hint: /Leave dev mode again; it does nothing when it is already off\.$/,
  },
  {
    name: 'commit',
    run: (b) => b.commit(D, { message: 'Add orders', exitDevMode: true }),
    method: 'POST',
    url: `${P}/commit`,
    body: { message: 'Add orders', exitDevMode: true },
    answer: OK,
    returns: OK,
    action: 'Committing the model changes',
    hint: /to see whether the commit happened\.$/,
  },
  {
    name: 'pull',
    run: (b) => b.pull(D, { branchName: 'main' }),
    method: 'POST',
    url: `${P}/pull`,
    body: { branchName: 'main' },
    answer: { buildTriggered: true },
    returns: { buildTriggered: true },
    action: 'Pulling main',
    hint: /to see whether the pull happened\.$/,
  },
  {
    name: 'merge a branch named by id into its parent',
    run: (b) => b.mergeIntoParent(D, { branchId: 7 }),
    method: 'POST',
    url: `${P}/merge`,
    body: { branchId: 7 },
    answer: { merged: false },
    returns: { merged: false },
    action: 'Merging #7 into its parent',
    hint: /to see whether the merge happened\.$/,
  },
  {
    name: 'merge the active branch into its parent',
    run: (b) => b.mergeIntoParent(D, {}),
    method: 'POST',
    url: `${P}/merge`,
    body: {},
    answer: { merged: true },
    returns: { merged: true },
    action: 'Merging the active branch into its parent',
    hint: /to see whether the merge happened\.$/,
  },
  {
    name: 'merge into the parent',
    run: (b) => b.mergeIntoParent(D, { branchName: 'feature-x', message: 'm', deleteBranch: true }),
    method: 'POST',
    url: `${P}/merge`,
    body: { branchName: 'feature-x', message: 'm', deleteBranch: true },
    answer: { merged: true, branchDeleted: true },
    returns: { merged: true, branchDeleted: true },
    action: 'Merging feature-x into its parent',
    hint: /to see whether the merge happened\.$/,
  },
  {
    name: 'merge to the default branch',
    run: (b) => b.mergeToDefault(D, { branchName: 'feature-x', message: 'Ship it' }),
    method: 'POST',
    url: `${P}/merge-to-default`,
    body: { branchName: 'feature-x', message: 'Ship it' },
    answer: { merged: true },
    returns: { merged: true },
    action: 'Merging feature-x into the default branch',
    hint: /to see whether the merge happened\.$/,
  },
  {
    name: 'create a deployment',
    run: (b) => b.createDeployment(NEW_DEPLOYMENT),
    method: 'POST',
    url: '/build/api/v1/deployments',
    body: NEW_DEPLOYMENT,
    answer: { id: 9, name: 'Sales' },
    returns: { id: 9, name: 'Sales' },
    action: 'Creating the deployment "Sales"',
    hint: /Refresh the Deployments list to see whether "Sales" was created before creating it again\.$/,
  },
  {
    name: 'connect a repository',
    run: (b) => b.connectGithub(D, { installationId: 5, name: 'acme/model' }),
    method: 'POST',
    url: `${P}/github/connect`,
    body: { installationId: 5, name: 'acme/model' },
    answer: { id: D, name: 'Sales' },
    returns: { id: D, name: 'Sales' },
    action: 'Connecting the repository acme/model',
    hint: /the deploy branch and repository show whether it was connected\.$/,
  },
  {
    name: 'start an upload',
    run: (b) => b.startUpload(D, { branchName: 'dev-ann' }),
    method: 'POST',
    url: `${P}/data-model/upload/start?branchName=dev-ann`,
    body: undefined,
    answer: { transaction: { id: 'tx-1' } },
    returns: { transaction: { id: 'tx-1' } },
    action: 'Starting the upload',
    hint: /Nothing changes until the upload is finished; start it again\.$/,
  },
  {
    name: 'finish an upload',
    run: (b) =>
      b.finishUpload(
        D,
        { transaction: { id: 'tx-1' }, files: { 'a.yml': { hash: 'h1' } }, commitMessage: 'Upload' },
        { branchName: 'dev-ann' },
      ),
    method: 'POST',
    url: `${P}/data-model/upload/finish?branchName=dev-ann`,
    body: { transaction: { id: 'tx-1' }, files: { 'a.yml': { hash: 'h1' } }, commitMessage: 'Upload' },
    answer: { lastHash: 'abc' },
    returns: { lastHash: 'abc' },
    action: 'Finishing the upload',
    hint: /it lists what still differs\.$/,
  },
];

describe('build API writes: the exact request, and what the user is told', () => {
  let s: TestServer;
  let build: BuildClient;
  let reply: (status: number, body: unknown) => void;

  before(async () => {
    let answer: [number, unknown] = [200, OK];
    reply = (status, body) => (answer = [status, body]);
    s = await startServer((_req, res) => sendJson(res, answer[0], answer[1]));
    build = new BuildClient({
      platformUrl: `${s.url}/api`,
      token: () => Promise.resolve('tok-build'),
      retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 2 },
    });
  });
  after(async () => {
    await build.close();
    await s.close();
  });

  for (const c of CASES) {
    it(`${c.name}: sends exactly this request and returns the answer`, async () => {
      reply(200, c.answer);
      const from = s.requests.length;
      const result = await c.run(build);
      assert.deepEqual(result, c.returns);
      const sent = s.requests.slice(from);
      assert.equal(sent.length, 1, 'one request');
      const r = sent[0]!;
      assert.equal(r.method, c.method);
      assert.equal(r.url, c.url);
      if (c.body === undefined) {
        assert.equal(r.body, '', 'no body');
        assert.equal(r.headers['content-type'], undefined);
      } else {
        assert.deepEqual(JSON.parse(r.body), c.body);
        assert.equal(r.headers['content-type'], 'application/json');
      }
      assert.equal(r.headers.authorization, 'Bearer tok-build');
      assert.equal(r.headers.accept, 'application/json');
      assert.match(String(r.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    });

    it(`${c.name}: a refusal says why and is not an unknown outcome`, async () => {
      reply(400, { error: 'Branch is protected' });
      const from = s.requests.length;
      const e = await rejection(() => c.run(build));
      assert.ok(e instanceof ApiError);
      assert.equal(e.kind, 'validation');
      assert.match(e.message, /The server said: Branch is protected\./);
      assert.ok(e.message.startsWith(`${c.action}`), e.message);
      assert.equal(s.requests.length - from, 1);
    });

    it(`${c.name}: a 500 is an unknown outcome that says how to check, sent once`, async () => {
      reply(500, { error: 'internal' });
      const from = s.requests.length;
      const e = await rejection(() => c.run(build));
      assert.ok(e instanceof ApiError);
      assert.equal(e.kind, 'unknownOutcome');
      assert.ok(
        e.message.startsWith(`${c.action}: the outcome is unknown, it may have taken effect`),
        e.message,
      );
      assert.match(e.message, c.hint);
      assert.doesNotMatch(e.message, /try again/i);
      assert.equal(s.requests.length - from, 1, 'never re-sent');
    });
  }

  it('uploads a file as multipart form data: transaction and file name fields, then the bytes', async () => {
    reply(200, {});
    const from = s.requests.length;
    await build.uploadFile(
      D,
      'tx-1',
      { path: 'model/a"b.yml', content: new TextEncoder().encode('x: 1\n') },
      {
        branchName: 'dev-ann',
      },
    );
    const r = s.requests[from]!;
    assert.equal(r.method, 'POST');
    assert.equal(r.url, `${P}/data-model/upload/file?branchName=dev-ann`);
    const type = String(r.headers['content-type']);
    const boundary = /^multipart\/form-data; boundary=(----dp[0-9a-f]{24})$/.exec(type)?.[1];
    assert.ok(boundary, type);
    assert.equal(
      r.body,
      `--${boundary}\r\nContent-Disposition: form-data; name="transaction"\r\n\r\ntx-1\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="fileName"\r\n\r\nmodel/a"b.yml\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="model/a%22b.yml"\r\nContent-Type: application/octet-stream\r\n\r\nx: 1\n\r\n--${boundary}--\r\n`,
    );
    reply(503, {});
    const e = await rejection(() =>
      build.uploadFile(D, 'tx-1', { path: 'a.yml', content: new Uint8Array([1]) }),
    );
    assert.equal((e as ApiError).kind, 'unknownOutcome');
    assert.match((e as ApiError).message, /^Uploading a\.yml: the outcome is unknown/);
  });

  it('refuses bad input before sending anything, naming the field', async () => {
    const from = s.requests.length;
    const refused: [() => Promise<unknown>, RegExp][] = [
      [() => build.commit(D, { message: '   ' }), /Not committed: message: a commit message is required/],
      [
        () => build.removeBranch(D, { branchName: ' main' }),
        /Branch not deleted: .*no leading or trailing space/,
      ],
      [() => build.createBranch(D, { name: '' }), /Branch not created: name:/],
      [
        () => build.mergeToDefault(D, { branchName: 'x', message: '' }),
        /Not merged: message: a merge message is required/,
      ],
      [
        () => build.setBranchStagingEnvironment(D, { enabled: true }),
        /name the branch: branchName or branchId/,
      ],
      [
        () => build.updateFiles(D, { branchName: 'b', files: [] }),
        /Files not saved: files: needs at least one item/,
      ],
      [
        () => build.updateFiles(0, { branchName: 'b', files: [{ path: 'a', content: '' }] }),
        /deploymentId must be a whole number of at least 1/,
      ],
      [
        () => build.uploadFile(D, '', { path: 'a', content: new Uint8Array() }),
        /File not uploaded: transaction/,
      ],
    ];
    for (const [p, message] of refused) {
      const e = await rejection(async () => p());
      assert.ok(e instanceof ApiError && e.kind === 'validation', String(e));
      assert.match(e.message, message);
    }
    assert.equal(s.requests.length, from, 'nothing was sent');
  });
});
