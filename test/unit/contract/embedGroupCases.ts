// An embed tenant's groups, their members and provisioning embed users (issue 27's embed tenant
// groups and users), for the contract suites: client cases (against generated responses) and
// sandbox calls (through the validating proxy, each write read back). Kept apart from the shared
// lists, which spread them in.
import * as assert from 'node:assert/strict';
import type { Exchange } from '../../contract/contractServers';
import { arr, listOf, same, sentBody, served, type Json, type PlatformCase } from './caseChecks';
import type { AdminCall } from './adminCalls';

const buckets =
  (...keys: string[]) =>
  (result: unknown, sent: Exchange[]) => {
    for (const k of keys)
      assert.deepEqual(
        arr((result as Json)[k]).map((u) => u.id ?? u.externalId),
        arr(served(sent)[k]).map((u) => u.id ?? u.externalId),
        `${k} as sent`,
      );
  };

export const EMBED_GROUP_OPERATIONS: PlatformCase[] = [
  {
    name: 'admin.createEmbedGroup',
    operation: 'POST /api/v1/embed-tenants/{embedTenantName}/groups',
    run: (c) => c.platform.admin.createEmbedGroup('acme', { name: 'analysts', description: 'Explore only' }),
    check: (result, sent) => {
      assert.deepEqual(sentBody(sent), { name: 'analysts', description: 'Explore only' });
      same('id', 'name')(result, sent);
    },
  },
  {
    name: 'admin.getEmbedGroup',
    operation: 'GET /api/v1/embed-tenants/{embedTenantName}/groups/{id}',
    run: (c) => c.platform.admin.getEmbedGroup('acme', 11),
    check: same('id', 'name', 'userCount'),
  },
  {
    name: 'admin.updateEmbedGroup',
    operation: 'PATCH /api/v1/embed-tenants/{embedTenantName}/groups/{id}',
    run: (c) => c.platform.admin.updateEmbedGroup('acme', 11, { description: '' }),
    check: (result, sent) => {
      assert.deepEqual(sentBody(sent), { description: '' });
      same('id', 'description')(result, sent);
    },
  },
  {
    name: 'admin.deleteEmbedGroup',
    operation: 'DELETE /api/v1/embed-tenants/{embedTenantName}/groups/{id}',
    run: (c) => c.platform.admin.deleteEmbedGroup('acme', 12),
    check: (result) => assert.equal(result, undefined),
  },
  {
    name: 'admin.listEmbedGroupMembers',
    operation: 'GET /api/v1/embed-tenants/{embedTenantName}/groups/{id}/users',
    run: (c) => c.platform.admin.listEmbedGroupMembers('acme', 11, { first: 20 }),
    check: listOf((b) => arr((b as Json).items), 'id'),
  },
  {
    name: 'admin.addEmbedGroupMembers',
    operation: 'POST /api/v1/embed-tenants/{embedTenantName}/groups/{id}/users',
    run: (c) =>
      c.platform.admin.addEmbedGroupMembers('acme', 11, {
        members: [{ embedUserId: 103 }, { externalId: 'crm-4411' }],
      }),
    check: (result, sent) => {
      assert.deepEqual(sentBody(sent), { members: [{ embedUserId: 103 }, { externalId: 'crm-4411' }] });
      buckets('addedMembers', 'unchangedMembers')(result, sent);
    },
  },
  {
    name: 'admin.removeEmbedGroupMembers',
    operation: 'DELETE /api/v1/embed-tenants/{embedTenantName}/groups/{id}/users',
    run: (c) => c.platform.admin.removeEmbedGroupMembers('acme', 11, { members: [{ embedUserId: 101 }] }),
    check: (result, sent) => {
      assert.equal(result, undefined);
      assert.deepEqual(sentBody(sent), { members: [{ embedUserId: 101 }] });
    },
  },
  {
    name: 'admin.provisionEmbedUser',
    operation: 'POST /api/v1/embed-tenants/{embedTenantName}/user',
    run: (c) =>
      c.platform.admin.provisionEmbedUser('acme', {
        externalId: 'crm-4411',
        email: 'dana@acme.example',
        tenantGroups: ['viewers'],
        userProfile: { displayName: 'Dana Reyes' },
      }),
    check: same('id', 'email', 'externalId'),
  },
  {
    name: 'admin.provisionEmbedUsers',
    operation: 'POST /api/v1/embed-tenants/{embedTenantName}/users',
    run: (c) =>
      c.platform.admin.provisionEmbedUsers('acme', {
        users: [
          { externalId: 'crm-1', email: 'a@acme.example' },
          { externalId: 'crm-2', tenantGroups: ['nope'] },
        ],
      }),
    check: (result, sent) => {
      buckets('succeeded')(result, sent);
      const failed = arr((result as Json).failed);
      assert.deepEqual(
        failed.map((f) => [f.externalId, (f.error as Json | undefined)?.status]),
        arr(served(sent).failed).map((f) => [f.externalId, (f.error as Json | undefined)?.status]),
      );
    },
  },
];

/** The sandbox calls, in order: they build on each other (the group made first is 1000). */
export function embedGroupCalls(): AdminCall[] {
  const t = '/api/v1/embed-tenants/acme';
  return [
    {
      method: 'POST',
      path: `${t}/groups`,
      body: { name: 'contract-group', description: 'Contract' },
      status: 200,
    },
    { method: 'POST', path: `${t}/groups`, body: { name: 'Contract-Group' }, status: 400 },
    { method: 'POST', path: `${t}/groups`, body: { name: 'system:mine' }, status: 400 },
    { method: 'POST', path: `${t}/groups`, body: { name: 'x', color: 'red' }, status: 400 },
    { method: 'POST', path: `${t}/groups`, body: { name: 'mine' }, auth: 'member', status: 403 },
    { method: 'GET', path: `${t}/groups/1000`, status: 200 },
    { method: 'GET', path: `${t}/groups/999999`, status: 404 },
    { method: 'PATCH', path: `${t}/groups/1000`, body: { description: 'Renamed description' }, status: 200 },
    { method: 'PATCH', path: `${t}/groups/1000`, body: { name: 'renamed' }, status: 400 },
    {
      method: 'POST',
      path: `${t}/groups/1000/users`,
      body: { members: [{ embedUserId: 101 }, { externalId: 'contract-new-user' }] },
      status: 200,
    },
    {
      method: 'POST',
      path: `${t}/groups/1000/users`,
      body: { members: [{ embedUserId: 101, externalId: 'acme-ext-1' }] },
      status: 400,
    },
    {
      method: 'POST',
      path: `${t}/groups/1000/users`,
      body: { members: [{ embedUserId: 987654 }] },
      status: 404,
    },
    { method: 'GET', path: `${t}/groups/1000/users?first=5`, status: 200 },
    { method: 'DELETE', path: `${t}/groups/1000`, status: 400 },
    {
      method: 'DELETE',
      path: `${t}/groups/1000/users`,
      body: { members: [{ embedUserId: 101 }, { externalId: 'contract-new-user' }] },
      status: 204,
    },
    { method: 'DELETE', path: `${t}/groups/1000`, status: 204 },
    { method: 'DELETE', path: `${t}/groups/1000`, status: 404 },
    {
      method: 'POST',
      path: `${t}/user`,
      body: {
        externalId: 'contract-provisioned',
        email: 'provisioned@acme.example',
        tenantGroups: ['viewers'],
        userProfile: { displayName: 'Provisioned' },
      },
      status: 200,
    },
    { method: 'POST', path: `${t}/user`, body: { externalId: 'x', tenantGroups: ['nope'] }, status: 400 },
    { method: 'POST', path: `${t}/user`, body: { externalId: 'x', email: 'not-an-email' }, status: 400 },
    {
      method: 'POST',
      path: `${t}/users`,
      body: {
        users: [
          { externalId: 'contract-bulk-1', email: 'bulk1@acme.example' },
          // A failed entry is not listed after: the partial answer is judged in the sandbox's unit tests.
          { externalId: 'contract-bulk-2', tenantGroups: ['viewers'] },
        ],
      },
      status: 200,
    },
    { method: 'POST', path: `${t}/users`, body: { users: [] }, status: 400 },
    {
      method: 'POST',
      path: '/api/v1/embed-tenants/new-tenant/user',
      body: { externalId: 'first' },
      status: 200,
    },
    {
      method: 'POST',
      path: '/api/v1/embed-tenants/Not_A_Name/user',
      body: { externalId: 'first' },
      status: 400,
    },
  ];
}
