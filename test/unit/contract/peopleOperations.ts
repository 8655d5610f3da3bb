// The people operations (custom roles read and written, SCIM user writes and group replace, the
// user's own OAuth connection and settings), as the client
// contract suites run them: each sends its published operation with a body the extension builds,
// and reads every answer variant of the published documents.
import * as assert from 'node:assert/strict';
import type { Exchange } from '../../contract/contractServers';
import type { OperationCase } from './clientOperations';

type Json = Record<string, unknown>;
const served = (sent: Exchange[]): unknown => {
  const text = sent[sent.length - 1]?.responseText ?? '';
  return text ? (JSON.parse(text) as unknown) : {};
};
const sentBody = (sent: Exchange[]) => sent[sent.length - 1]?.requestBody as Json;
/** The fields the extension shows, kept as served. */
const same =
  (...keys: string[]) =>
  (result: unknown, sent: Exchange[]) => {
    for (const k of keys) assert.deepEqual((result as Json)[k], (served(sent) as Json)[k], `${k} as served`);
  };
const nothing = (result: unknown) => assert.equal(result, undefined);
const policies = [
  { resourceType: 'Global' as const, actions: ['AIBIExplore' as const], resources: ['All'] },
  {
    resourceType: 'Deployment' as const,
    actions: ['DeploymentRead' as const, 'DownloadData' as const],
    resources: ['1'],
  },
];

export const PEOPLE_OPERATIONS: OperationCase[] = [
  {
    name: 'admin.getRole',
    operation: 'GET /api/v1/roles/{roleId}',
    run: (c) => c.platform.admin.getRole(501),
    check: same('id', 'name', 'policies'),
  },
  {
    name: 'admin.createRole',
    operation: 'POST /api/v1/roles',
    run: (c) =>
      c.platform.admin.createRole({ name: 'team-analytics', description: 'Analysts of team A', policies }),
    check: (result, sent) => {
      same('id', 'name')(result, sent);
      assert.deepEqual(sentBody(sent).policies, policies, 'policies sent as built');
    },
  },
  {
    name: 'admin.updateRole (only the fields changed)',
    operation: 'PUT /api/v1/roles/{roleId}',
    run: (c) => c.platform.admin.updateRole(501, { description: null }),
    check: (result, sent) => {
      same('id', 'name')(result, sent);
      assert.deepEqual(sentBody(sent), { description: null }, 'only the description, cleared');
    },
  },
  {
    name: 'admin.deleteRole',
    operation: 'DELETE /api/v1/roles/{roleId}',
    run: (c) => c.platform.admin.deleteRole(501),
    check: nothing,
  },
  {
    name: 'admin.getScimUser',
    operation: 'GET /scim/v2/Users/{id}',
    run: (c) => c.platform.admin.getScimUser('2819c223-7f76-453a-919d-413861904646'),
    check: same('id', 'userName', 'active'),
  },
  {
    name: 'admin.createScimUser',
    operation: 'POST /scim/v2/Users',
    run: (c) =>
      c.platform.admin.createScimUser({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'jane@example.com',
        name: { givenName: 'Jane', familyName: 'Doe' },
        emails: [{ value: 'jane@example.com', primary: true }],
        active: true,
      }),
    check: same('id', 'userName'),
  },
  {
    name: 'admin.replaceScimUser',
    operation: 'PUT /scim/v2/Users/{id}',
    run: (c) =>
      c.platform.admin.replaceScimUser('2819c223-7f76-453a-919d-413861904646', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'jane@example.com',
        name: { givenName: 'Jane', familyName: 'Roe' },
        emails: [{ value: 'jane@example.com', primary: true }],
        active: false,
        externalId: '00u123okta',
      }),
    check: same('id', 'userName', 'active'),
  },
  {
    name: 'admin.replaceScimGroup',
    operation: 'PUT /scim/v2/Groups/{id}',
    run: (c) =>
      c.platform.admin.replaceScimGroup('g-analysts', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName: 'Analysts',
        members: [{ value: '2819c223-7f76-453a-919d-413861904646' }],
      }),
    check: same('id', 'displayName'),
  },
  {
    name: 'me.getUserOAuthToken',
    operation: 'GET /api/v1/user-oauth-tokens/{integrationId}',
    run: (c) => c.platform.me.getUserOAuthToken(601),
    check: same('integrationId', 'status'),
  },
  {
    name: 'me.initiateUserOAuth',
    operation: 'POST /api/v1/user-oauth-tokens/{integrationId}/initiate',
    run: (c) => c.platform.me.initiateUserOAuth(601),
    check: (result) => assert.equal(typeof result, 'object'),
  },
  {
    name: 'me.updateMySettings (only the fields changed)',
    operation: 'PATCH /api/v1/users/me/settings',
    run: (c) =>
      c.platform.me.updateMySettings({ timezone: 'Europe/Berlin', sheets: { showAppliedFilters: true } }),
    check: (result, sent) => {
      same('id', 'email')(result, sent);
      assert.deepEqual(sentBody(sent), { timezone: 'Europe/Berlin', sheets: { showAppliedFilters: true } });
    },
  },
];
