// Deployments as wholes (settings, update, delete, setup step), creating one and connecting it to
// GitHub, and the GitHub reads, for the contract suites: client cases (against generated responses)
// and sandbox calls (through the validating proxy). The shared lists spread them in.
import * as assert from 'node:assert/strict';
import type { AdminCall } from './adminCalls';
import {
  deploymentBody,
  listItems,
  listOf,
  same,
  sentBody,
  type BuildCase,
  type PlatformCase,
} from './caseChecks';

const D = 7;
const base = '/api/v1/deployments/{deploymentId}';
/** Every served item is read, none set aside. */
const list = listOf(listItems);

export const DEPLOYMENT_OPERATIONS: PlatformCase[] = [
  {
    name: 'getDeploymentSettings',
    operation: `GET ${base}/settings`,
    run: (c) => c.platform.getDeploymentSettings(D),
    check: same('id', 'name', 'deployBranchName', 'releaseChannel', 'customDomain'),
  },
  {
    name: 'updateDeployment',
    operation: `PUT ${base}`,
    run: (c) => c.platform.updateDeployment(D, { name: 'Analytics (renamed)' }),
    check: (result, sent) => {
      same('id', 'name')(result, sent);
      // Only the field changed is sent.
      assert.deepEqual(sentBody(sent), { name: 'Analytics (renamed)' });
    },
  },
  {
    name: 'deleteDeployment',
    operation: `DELETE ${base}`,
    run: (c) => c.platform.deleteDeployment(D),
    check: same('success'),
  },
  {
    name: 'advanceCreationStep',
    operation: `POST ${base}/creation-step/advance`,
    run: (c) => c.platform.advanceCreationStep(D, { creationStep: 'ready' }),
    check: same('id', 'name', 'creationStep'),
  },
  {
    name: 'resetCreationStep',
    operation: `POST ${base}/creation-step/reset`,
    run: (c) => c.platform.resetCreationStep(D),
    check: same('id', 'creationStep'),
  },
  {
    name: 'getGithubStatus',
    operation: 'GET /api/v1/github/status',
    run: (c) => c.platform.getGithubStatus(),
    check: same('connected', 'linkUrl', 'settingsUrl'),
  },
  {
    name: 'listGithubInstallations',
    operation: 'GET /api/v1/github/installations',
    run: (c) => c.platform.listGithubInstallations({ first: 50 }),
    check: list,
  },
  {
    name: 'listGithubRepositories',
    operation: 'GET /api/v1/github/installations/{installationId}/repositories',
    run: (c) => c.platform.listGithubRepositories(41001, { first: 100 }),
    check: list,
  },
  {
    name: 'listGithubBranches',
    operation: 'GET /api/v1/github/repositories/{owner}/{repo}/branches',
    run: (c) => c.platform.listGithubBranches('acme-analytics', 'cube-models', { installationId: 41001 }),
    check: list,
  },
];

export const DEPLOYMENT_BUILD_OPERATIONS: BuildCase[] = [
  {
    name: 'createDeployment',
    operation: 'POST /build/api/v1/deployments',
    run: (b) => b.createDeployment(deploymentBody('Revenue')),
    check: same('id', 'name', 'deploymentUrl', 'creationStep'),
  },
  {
    name: 'connectGithub',
    operation: 'POST /build/api/v1/deployments/{deploymentId}/github/connect',
    run: (b) => b.connectGithub(D, { installationId: 41001, name: 'cube-models', deployBranchName: 'main' }),
    check: same('id', 'creationStep'),
  },
];

export function deploymentCalls(): AdminCall[] {
  const b = '/api/v1/deployments/1';
  const gh = '/api/v1/github';
  return [
    { method: 'GET', path: `${b}/settings`, status: 200 },
    { method: 'GET', path: '/api/v1/deployments/999/settings', status: 404 },
    { method: 'PUT', path: b, body: { name: 'Analytics' }, status: 200 },
    {
      method: 'PUT',
      path: b,
      body: { customDomain: 'analytics.example.com', templateVariables: { A: '1' } },
      status: 200,
    },
    { method: 'PUT', path: b, body: { name: '' }, status: 400 },
    { method: 'PUT', path: b, body: { releaseChannelVersion: 'v9.9.9' }, status: 400 },
    { method: 'PUT', path: b, body: { unknownSetting: true }, status: 400 },
    { method: 'POST', path: `${b}/creation-step/advance`, body: { creationStep: 'ready' }, status: 200 },
    { method: 'POST', path: `${b}/creation-step/advance`, body: { creationStep: 'done' }, status: 400 },
    { method: 'GET', path: `${gh}/status`, status: 200 },
    { method: 'GET', path: `${gh}/status`, auth: 'member', status: 200 },
    { method: 'GET', path: `${gh}/installations`, status: 200 },
    { method: 'GET', path: `${gh}/installations/41001/repositories?first=2`, status: 200 },
    { method: 'GET', path: `${gh}/installations/999/repositories`, status: 404 },
    {
      method: 'GET',
      path: `${gh}/repositories/acme-analytics/cube-models/branches?installationId=41001`,
      status: 200,
    },
    {
      method: 'GET',
      path: `${gh}/repositories/acme-analytics/nope/branches?installationId=41001`,
      status: 404,
    },
    {
      method: 'POST',
      path: '/build/api/v1/deployments',
      body: deploymentBody('Contract'),
      status: 200,
      capture: 'created',
    },
    {
      method: 'POST',
      path: '/build/api/v1/deployments',
      body: { ...deploymentBody('Contract'), region: 'mars-1' },
      status: 400,
    },
    { method: 'POST', path: '/build/api/v1/deployments', body: { name: 'No region' }, status: 400 },
    {
      method: 'POST',
      path: '/build/api/v1/deployments/{created}/github/connect',
      body: { installationId: 41001, name: 'cube-models', deployBranchName: 'develop' },
      status: 200,
    },
    {
      method: 'POST',
      path: '/build/api/v1/deployments/{created}/github/connect',
      body: { installationId: 41001, name: 'no-such-repo' },
      status: 400,
    },
    { method: 'POST', path: '/api/v1/deployments/{created}/creation-step/reset', status: 200 },
    { method: 'DELETE', path: '/api/v1/deployments/{created}', auth: 'member', status: 403 },
    { method: 'DELETE', path: '/api/v1/deployments/{created}', status: 200 },
    { method: 'GET', path: '/api/v1/deployments/{created}/settings', status: 404 },
  ];
}
