// The build API cases of the sandbox contract suite (sandbox.contract.test.ts), in order: they
// walk one branch through files, dev mode, validate, commit, pull and merge, so each response is
// a real one (not an error) where the case expects 200.
import { createHash } from 'node:crypto';

const D = '/build/api/v1/deployments/1';
const BRANCH = 'contract/feature';
const q = encodeURIComponent;
const DEV = `/dev-mode/${q(BRANCH)}/cubejs-api`;

const MEASURE_FILE = `cubes:
  - name: contract_orders
    sql_table: orders
    measures:
      - name: count
        type: count
    dimensions:
      - name: status
        sql: status
        type: string
`;

const UPLOADED =
  'cubes:\n  - name: uploaded\n    sql_table: products\n    measures:\n      - name: count\n        type: count\n';
const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
const BOUNDARY = 'contract-boundary';
/** One file of the upload transaction as the CLI sends it; `{transactionId}` is filled in by the suite. */
const MULTIPART = [
  ['transaction', '{"id":"{transactionId}"}'],
  ['fileName', 'model/cubes/uploaded.yml'],
  ['file', UPLOADED],
]
  .map(
    ([name, value]) =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"` +
      `${name === 'file' ? '; filename="uploaded.yml"\r\nContent-Type: application/x-yaml' : ''}\r\n\r\n${value}\r\n`,
  )
  .join('')
  .concat(`--${BOUNDARY}--\r\n`);

export interface BuildCall {
  method: string;
  path: string;
  body?: unknown;
  raw?: string;
  contentType?: string;
  auth?: 'data';
  status: number;
}

export function buildCalls(): BuildCall[] {
  return [
    { method: 'GET', path: `${D}/branches`, status: 200 },
    { method: 'GET', path: `${D}/branches?first=1`, status: 200 },
    {
      method: 'POST',
      path: `${D}/branches`,
      body: { name: BRANCH, from: 'main', activate: false },
      status: 200,
    },
    { method: 'POST', path: `${D}/branches`, body: { name: BRANCH }, status: 409 },
    { method: 'POST', path: `${D}/branches`, body: { name: 'x', from: 'nope' }, status: 404 },
    { method: 'POST', path: `${D}/branches`, body: { name: 'tmp/delete-me', activate: null }, status: 200 },
    {
      method: 'DELETE',
      path: `${D}/branches?branchName=${q('tmp/delete-me')}&removeOnUpstream=false`,
      status: 200,
    },
    { method: 'DELETE', path: `${D}/branches?branchName=main`, status: 400 },
    { method: 'DELETE', path: `${D}/branches?branchName=nope`, status: 404 },
    {
      method: 'PUT',
      path: `${D}/branches/staging-environment`,
      body: { branchName: BRANCH, enabled: true },
      status: 200,
    },
    {
      method: 'PUT',
      path: `${D}/branches/staging-environment`,
      body: { branchName: 'main', enabled: true },
      status: 400,
    },
    { method: 'POST', path: `${D}/dev-mode`, body: { branchName: BRANCH }, status: 200 },
    { method: 'POST', path: `${D}/dev-mode`, body: { branchName: 'nope' }, status: 404 },
    { method: 'GET', path: `${D}/data-model/files`, status: 200 },
    {
      method: 'GET',
      path: `${D}/data-model/files?withContent=true&branchName=${q(BRANCH)}&first=1`,
      status: 200,
    },
    { method: 'GET', path: `${D}/data-model/files?branchName=nope`, status: 404 },
    { method: 'GET', path: `${D}/data-model/file-hashes?branchName=${q(BRANCH)}`, status: 200 },
    {
      method: 'PUT',
      path: `${D}/data-model/files`,
      body: { branchName: BRANCH, files: [{ path: 'model/cubes/contract.yml', content: MEASURE_FILE }] },
      status: 200,
    },
    {
      method: 'PUT',
      path: `${D}/data-model/files`,
      body: { files: [{ path: '../escape.yml', content: 'x' }] },
      status: 400,
    },
    {
      method: 'POST',
      path: `${D}/data-model/files/rename`,
      body: {
        branchName: BRANCH,
        files: [{ path: 'model/cubes/contract.yml', newPath: 'model/cubes/contract2.yml' }],
      },
      status: 200,
    },
    {
      method: 'POST',
      path: `${D}/data-model/files/rename`,
      body: { branchName: BRANCH, files: [{ path: 'model/cubes/missing.yml', newPath: 'model/x.yml' }] },
      status: 404,
    },
    { method: 'GET', path: `${D}/data-model/validate?devMode=true`, status: 200 },
    { method: 'GET', path: `${D}/data-model/validate`, status: 200 },
    // The branch's own Data API answers from its working files.
    { method: 'GET', path: `${DEV}/v1/meta`, auth: 'data', status: 200 },
    {
      method: 'POST',
      path: `${DEV}/v1/load`,
      auth: 'data',
      // queryType "multi" for the published envelope (without it the engine answers a single result).
      body: {
        queryType: 'multi',
        query: { measures: ['contract_orders.count'], dimensions: ['contract_orders.status'] },
      },
      status: 200,
    },
    {
      method: 'POST',
      path: `${DEV}/v1/cubesql`,
      auth: 'data',
      body: { query: 'SELECT status, MEASURE(count) FROM orders GROUP BY 1' },
      status: 200,
    },
    { method: 'GET', path: '/dev-mode/not-a-branch/cubejs-api/v1/meta', auth: 'data', status: 404 },
    {
      method: 'PUT',
      path: `${D}/data-model/files`,
      body: {
        branchName: BRANCH,
        files: [{ path: 'model/cubes/broken.yml', content: 'cubes:\n  - name: b\n    sql_table: nope\n' }],
      },
      status: 200,
    },
    { method: 'GET', path: `${D}/data-model/validate?branchName=${q(BRANCH)}`, status: 200 },
    { method: 'GET', path: `${D}/data-model/validate?branchName=main&devMode=true`, status: 400 },
    {
      method: 'DELETE',
      path: `${D}/data-model/files`,
      body: { branchName: BRANCH, files: [{ path: 'model/cubes/broken.yml' }] },
      status: 200,
    },
    {
      method: 'DELETE',
      path: `${D}/data-model/files`,
      body: { branchName: BRANCH, files: [{ path: 'model/cubes/broken.yml' }] },
      status: 404,
    },
    {
      method: 'PUT',
      path: '/build/api/v1/deployments/2/data-model/files',
      body: { files: [{ path: 'a.yml', content: '' }] },
      status: 403,
    },
    // Commit, pull, merge into the parent.
    {
      method: 'POST',
      path: `${D}/commit`,
      body: { message: 'Add the contract cube', exitDevMode: false },
      status: 200,
    },
    { method: 'POST', path: `${D}/commit`, body: {}, status: 400 },
    { method: 'POST', path: `${D}/pull`, body: { branchName: BRANCH }, status: 200 },
    { method: 'POST', path: `${D}/pull`, body: {}, status: 400 },
    {
      method: 'POST',
      path: `${D}/merge`,
      body: {
        branchName: BRANCH,
        message: 'Merge the contract cube',
        deleteBranch: false,
        switchToParentBranch: false,
      },
      status: 200,
    },
    { method: 'POST', path: `${D}/merge`, body: { branchName: 'main' }, status: 400 },
    // The upload transaction onto the branch, then merge to the default branch.
    { method: 'POST', path: `${D}/data-model/upload/start?branchName=${q(BRANCH)}`, status: 200 },
    {
      method: 'POST',
      path: `${D}/data-model/upload/file?branchName=${q(BRANCH)}`,
      raw: MULTIPART,
      contentType: `multipart/form-data; boundary=${BOUNDARY}`,
      status: 200,
    },
    {
      method: 'POST',
      path: `${D}/data-model/upload/file`,
      body: { transaction: 'x', fileName: 'a.yml' },
      status: 400,
    },
    {
      method: 'POST',
      path: `${D}/data-model/upload/finish?branchName=${q(BRANCH)}`,
      body: {
        transaction: { id: '{transactionId}' },
        files: { 'model/cubes/uploaded.yml': { hash: sha1(UPLOADED) } },
        autoRemoveFiles: false,
        commitMessage: 'Upload the uploaded cube',
      },
      status: 200,
    },
    {
      method: 'POST',
      path: `${D}/data-model/upload/finish`,
      body: { transaction: { id: 'no-such-transaction' }, files: {} },
      status: 404,
    },
    {
      method: 'POST',
      path: `${D}/merge-to-default`,
      body: { branchName: BRANCH, message: 'Ship the contract cubes', removeBranchAfterMerge: true },
      status: 200,
    },
    { method: 'POST', path: `${D}/merge-to-default`, body: { branchName: 'staging' }, status: 400 },
    { method: 'DELETE', path: `${D}/dev-mode`, status: 200 },
    { method: 'GET', path: `${D}/data-model/validate?devMode=true`, status: 400 },
    { method: 'GET', path: '/build/api/v1/deployments/99/branches', status: 404 },
  ];
}
