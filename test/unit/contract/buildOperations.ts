// The build API client's operations as the contract suites run them (see clientOperations.ts):
// the published operation each must send, a call as the model feature makes it, and what the
// feature needs from the answer actually served.
import * as assert from 'node:assert/strict';
import type { Branch, ModelFile, Page, Validation } from '../../../src/api';
import type { Exchange } from '../../contract/contractServers';
import { served, type BuildCase, type Json } from './caseChecks';
import { DEPLOYMENT_BUILD_OPERATIONS } from './deploymentCases';

const D = 7;
const base = '/build/api/v1/deployments/{deploymentId}';
const BRANCH = 'dev/ann-orders';

/** A write's answer: `success` as served (absent reads as true). */
const checkSuccess = (result: unknown, sent: Exchange[]) => {
  const s = served(sent).success;
  assert.equal((result as { success: boolean }).success, typeof s === 'boolean' ? s : true);
};

const checkDevBranch = (result: unknown, sent: Exchange[]) => {
  const body = served(sent);
  assert.equal((result as Json).active, body.active);
  assert.equal((result as Json).branchName, body.branchName);
};

const checkMerge = (result: unknown, sent: Exchange[]) => {
  assert.equal((result as Json).merged, served(sent).merged);
};

export const BUILD_OPERATIONS: BuildCase[] = [
  {
    name: 'listFiles',
    operation: `GET ${base}/data-model/files`,
    run: (b) => b.listFiles(D, { branchName: BRANCH, withContent: true }),
    check: (result) => {
      const files = result as ModelFile[];
      // The tree is flattened to files, each with its path.
      assert.deepEqual(
        files.filter((f) => typeof f.path !== 'string' || f.path === ''),
        [],
        'every file has a path',
      );
      assert.equal(new Set(files.map((f) => f.path)).size, files.length, 'no file listed twice');
    },
  },
  {
    name: 'fileHashes',
    operation: `GET ${base}/data-model/file-hashes`,
    run: (b) => b.fileHashes(D, { branchName: BRANCH }),
    check: (result, sent) => {
      const body = served(sent);
      const withHash = Object.entries(body).filter(([, v]) => typeof (v as Json | null)?.hash === 'string');
      const map = result as Map<string, string>;
      assert.equal(map.size, new Set(withHash.map(([k]) => k.replace(/^\/+/, ''))).size);
    },
  },
  {
    name: 'updateFiles',
    operation: `PUT ${base}/data-model/files`,
    run: (b) =>
      b.updateFiles(D, {
        branchName: BRANCH,
        files: [{ path: 'model/cubes/orders.yml', content: 'cubes: []\n' }],
      }),
    check: checkSuccess,
  },
  {
    name: 'removeFiles',
    operation: `DELETE ${base}/data-model/files`,
    run: (b) => b.removeFiles(D, { branchName: BRANCH, files: [{ path: 'model/cubes/old.yml' }] }),
    check: checkSuccess,
  },
  {
    name: 'renameFiles',
    operation: `POST ${base}/data-model/files/rename`,
    run: (b) =>
      b.renameFiles(D, { branchName: BRANCH, files: [{ path: 'model/a.yml', newPath: 'model/b.yml' }] }),
    check: checkSuccess,
  },
  {
    name: 'validate',
    operation: `GET ${base}/data-model/validate`,
    run: (b) => b.validate(D, { branchName: BRANCH }),
    check: (result, sent) => {
      const v = result as Validation;
      const body = served(sent);
      assert.equal(v.valid, body.valid);
      const readable = (body.errors as Json[]).filter((e) => typeof e.message === 'string').length;
      assert.equal(v.errors.length, v.valid ? readable : Math.max(readable, 1));
    },
  },
  {
    name: 'listBranches',
    operation: `GET ${base}/branches`,
    run: (b) => b.listBranches(D, { first: 50 }),
    check: (result, sent) => {
      const page = result as Page<Branch>;
      const body = served(sent);
      const items = (body.items ?? body.data) as Json[];
      assert.deepEqual(page.invalid ?? [], []);
      assert.deepEqual(
        page.items.map((i) => i.name),
        items.map((i) => i.name),
      );
    },
  },
  {
    name: 'createBranch',
    operation: `POST ${base}/branches`,
    run: (b) => b.createBranch(D, { name: BRANCH, from: 'main', activate: true }),
    check: checkDevBranch,
  },
  {
    name: 'removeBranch',
    operation: `DELETE ${base}/branches`,
    run: (b) => b.removeBranch(D, { branchName: BRANCH }),
    check: checkSuccess,
  },
  {
    name: 'setBranchStagingEnvironment',
    operation: `PUT ${base}/branches/staging-environment`,
    run: (b) => b.setBranchStagingEnvironment(D, { branchName: 'staging', enabled: false }),
    check: (result, sent) => {
      const data = served(sent).data as Json;
      const branch = result as Branch;
      assert.equal(branch.name, data.name);
      assert.equal(branch.isStagingEnvironmentEnabled ?? null, data.isStagingEnvironmentEnabled ?? null);
    },
  },
  {
    name: 'startDevMode',
    operation: `POST ${base}/dev-mode`,
    run: (b) => b.startDevMode(D, { branchName: BRANCH }),
    check: checkDevBranch,
  },
  {
    name: 'stopDevMode',
    operation: `DELETE ${base}/dev-mode`,
    run: (b) => b.stopDevMode(D),
    check: checkSuccess,
  },
  {
    name: 'commit',
    operation: `POST ${base}/commit`,
    run: (b) => b.commit(D, { message: 'Add orders.total_amount' }),
    check: checkSuccess,
  },
  {
    name: 'pull',
    operation: `POST ${base}/pull`,
    run: (b) => b.pull(D, { branchName: BRANCH }),
    check: (result, sent) => assert.equal((result as Json).buildTriggered, served(sent).buildTriggered),
  },
  {
    name: 'mergeIntoParent',
    operation: `POST ${base}/merge`,
    run: (b) => b.mergeIntoParent(D, { branchName: BRANCH, message: 'Merge orders work' }),
    check: checkMerge,
  },
  {
    name: 'mergeToDefault',
    operation: `POST ${base}/merge-to-default`,
    run: (b) => b.mergeToDefault(D, { branchName: BRANCH, message: 'Ship orders work' }),
    check: checkMerge,
  },
  {
    name: 'startUpload',
    operation: `POST ${base}/data-model/upload/start`,
    run: (b) => b.startUpload(D, { branchName: BRANCH }),
    check: (result, sent) => {
      const tx = served(sent).transaction as Json;
      assert.equal((result as { transaction: { id: string } }).transaction.id, tx.id);
    },
  },
  {
    name: 'uploadFile',
    operation: `POST ${base}/data-model/upload/file`,
    run: (b) =>
      b.uploadFile(
        D,
        'tx-1',
        { path: 'model/cubes/orders.yml', content: new TextEncoder().encode('cubes: []\n') },
        { branchName: BRANCH },
      ),
    check: (_result, sent) => {
      const fields = sent[sent.length - 1]?.requestBody as Json;
      assert.equal(fields.transaction, 'tx-1');
      assert.equal(fields.fileName, 'model/cubes/orders.yml');
      assert.equal(fields.file, 'cubes: []\n');
    },
  },
  {
    name: 'finishUpload',
    operation: `POST ${base}/data-model/upload/finish`,
    run: (b) =>
      b.finishUpload(
        D,
        { transaction: { id: 'tx-1' }, files: { 'model/cubes/orders.yml': { hash: 'abc' } } },
        { branchName: BRANCH },
      ),
    check: (result, sent) => {
      const lastHash = served(sent).lastHash;
      assert.equal((result as Json).lastHash, lastHash);
    },
  },
  ...DEPLOYMENT_BUILD_OPERATIONS,
];
