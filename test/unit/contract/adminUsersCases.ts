// The users side of the administration added in issue 17's second pass (user attributes and
// their values, SCIM group create / rename / delete, a tenant's workbooks by access source), for
// the contract suites: client cases (against generated responses) and sandbox calls (through the
// validating proxy). Kept apart from the shared lists, which spread them in.
import * as assert from 'node:assert/strict';
import { arr, listItems, listOf, same, sentBody, type Json, type PlatformCase } from './caseChecks';
import type { AdminCall } from './adminCalls';
import { scimUserId } from '../../../src/sandbox/platform/admin/scimRoutes';

export const ADMIN_USERS_OPERATIONS: PlatformCase[] = [
  {
    name: 'admin.listUserAttributes',
    operation: 'GET /api/v1/user-attributes',
    run: (c) => c.platform.admin.listUserAttributes({ first: 20, type: 'number' }),
    check: listOf(listItems, 'name'),
  },
  {
    name: 'admin.createUserAttribute',
    operation: 'POST /api/v1/user-attributes',
    run: (c) =>
      c.platform.admin.createUserAttribute({ name: 'region', type: 'string', displayName: 'Region' }),
    check: same('id', 'name', 'type'),
  },
  {
    name: 'admin.updateUserAttribute',
    operation: 'PUT /api/v1/user-attributes/{id}',
    run: (c) =>
      c.platform.admin.updateUserAttribute(901, { displayName: 'Sales region', defaultValue: null }),
    check: same('id', 'displayName'),
  },
  {
    name: 'admin.getUserAttributeValues',
    operation: 'GET /api/v1/user-attribute-values/{userId}',
    run: (c) => c.platform.admin.getUserAttributeValues(4),
    check: listOf(arr, 'userAttributeId'),
  },
  {
    name: 'admin.setUserAttributeValue',
    operation: 'POST /api/v1/user-attribute-values',
    run: (c) => c.platform.admin.setUserAttributeValue(4, 902, 12.5),
    check: (result, sent) => {
      assert.deepEqual(sentBody(sent), { userId: '4', userAttributeId: '902', value: 12.5 });
      same('userAttributeId', 'name')(result, sent);
    },
  },
  {
    name: 'admin.setUserAttributeValue (clear)',
    operation: 'POST /api/v1/user-attribute-values',
    run: (c) => c.platform.admin.setUserAttributeValue(4, 903, null),
    check: (result, sent) => {
      assert.ok(!('value' in sentBody(sent)), 'a clear is sent without a value');
      same('userId')(result, sent);
    },
  },
  {
    name: 'admin.createScimGroup',
    operation: 'POST /scim/v2/Groups',
    run: (c) => c.platform.admin.createScimGroup('Analysts'),
    check: same('id', 'displayName'),
  },
  {
    name: 'admin.renameScimGroup',
    operation: 'PATCH /scim/v2/Groups/{id}',
    run: (c) => c.platform.admin.renameScimGroup('g-1', 'Data analysts'),
    check: (result, sent) => {
      assert.deepEqual(arr(sentBody(sent).Operations), [
        { op: 'replace', path: 'displayName', value: 'Data analysts' },
      ]);
      same('displayName')(result, sent);
    },
  },
  {
    name: 'admin.setScimUserActive',
    operation: 'PATCH /scim/v2/Users/{id}',
    run: (c) => c.platform.admin.setScimUserActive('2819c223-7f76-453a-919d-413861904646', false),
    check: (result, sent) => {
      assert.deepEqual(arr(sentBody(sent).Operations), [{ op: 'replace', path: 'active', value: false }]);
      same('id')(result, sent);
    },
  },
  {
    name: 'admin.deleteScimUser',
    operation: 'DELETE /scim/v2/Users/{id}',
    run: (c) => c.platform.admin.deleteScimUser('2819c223-7f76-453a-919d-413861904646'),
    check: (result) => assert.equal(result, undefined),
  },
  {
    name: 'admin.deleteScimGroup',
    operation: 'DELETE /scim/v2/Groups/{id}',
    run: (c) => c.platform.admin.deleteScimGroup('g-1'),
    check: (result) => assert.equal(result, undefined),
  },
  {
    name: 'admin.listEmbedTenantWorkbooks (accessSource)',
    operation: 'GET /api/v1/deployments/{deploymentId}/embed-tenants/{embedTenantName}/workbooks',
    run: (c) => c.platform.admin.listEmbedTenantWorkbooks(7, 'acme', { first: 20, accessSource: 'folder' }),
    check: listOf((b) => arr((b as Json).items), 'id'),
  },
];

export function adminUsersCalls(): AdminCall[] {
  const V = '/api/v1/user-attribute-values';
  return [
    // user attributes
    { method: 'GET', path: '/api/v1/user-attributes?first=2', status: 200 },
    { method: 'GET', path: '/api/v1/user-attributes?type=boolean&name=can', status: 200 },
    { method: 'GET', path: '/api/v1/user-attributes', auth: 'member', status: 403 },
    {
      method: 'POST',
      path: '/api/v1/user-attributes',
      body: { name: 'contract_level', type: 'number', displayName: 'Level', defaultValue: '1' },
      status: 200,
    },
    {
      method: 'POST',
      path: '/api/v1/user-attributes',
      body: { name: 'region', type: 'string' },
      status: 400,
    },
    {
      method: 'POST',
      path: '/api/v1/user-attributes',
      body: { name: 'x', type: 'string' },
      auth: 'member',
      status: 403,
    },
    {
      method: 'PUT',
      path: '/api/v1/user-attributes/901',
      body: { description: 'Where they sell' },
      status: 200,
    },
    { method: 'PUT', path: '/api/v1/user-attributes/999', body: { description: 'x' }, status: 404 },
    { method: 'GET', path: `${V}/2`, status: 200 },
    { method: 'GET', path: `${V}/999`, status: 404 },
    { method: 'POST', path: V, body: { userId: '4', userAttributeId: '902', value: 7 }, status: 200 },
    { method: 'POST', path: V, body: { userId: '4', userAttributeId: '903', value: true }, status: 200 },
    { method: 'POST', path: V, body: { userId: '4', userAttributeId: '902', value: 'seven' }, status: 400 },
    { method: 'POST', path: V, body: { userId: '2', userAttributeId: '901' }, status: 200 },
    { method: 'POST', path: V, body: { userId: '4', userAttributeId: '999', value: 'x' }, status: 404 },
    // SCIM users by their SCIM id (a UUID)
    { method: 'GET', path: `/api/scim/v2/Users/${scimUserId(4)}`, status: 200 },
    { method: 'GET', path: '/api/scim/v2/Users/4', status: 404 },
    {
      method: 'PATCH',
      path: `/api/scim/v2/Users/${scimUserId(4)}`,
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'active', value: false }],
      },
      status: 200,
    },
    {
      method: 'PATCH',
      path: `/api/scim/v2/Users/${scimUserId(4)}`,
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'active', value: true }],
      },
      status: 200,
    },
    { method: 'DELETE', path: `/api/scim/v2/Users/${scimUserId(11)}`, status: 204 },
    { method: 'DELETE', path: `/api/scim/v2/Users/${scimUserId(11)}`, status: 404 },
    // SCIM groups
    {
      method: 'POST',
      path: '/api/scim/v2/Groups',
      body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Contract group' },
      status: 201,
    },
    {
      method: 'POST',
      path: '/api/scim/v2/Groups',
      body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Finance' },
      status: 409,
    },
    {
      method: 'PATCH',
      path: '/api/scim/v2/Groups/g-engineering',
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'displayName', value: 'Platform engineering' }],
      },
      status: 200,
    },
    { method: 'DELETE', path: '/api/scim/v2/Groups/g-engineering', status: 204 },
    { method: 'DELETE', path: '/api/scim/v2/Groups/g-engineering', status: 404 },
    { method: 'DELETE', path: '/api/scim/v2/Groups/g-finance', auth: 'member', status: 403 },
    // a tenant's workbooks by access source
    ...(['tenant', 'allEmbedUsers', 'folder'] as const).map((s) => ({
      method: 'GET',
      path: `/api/v1/deployments/1/embed-tenants/acme/workbooks?accessSource=${s}&first=5`,
      status: 200,
    })),
    {
      method: 'GET',
      path: '/api/v1/deployments/1/embed-tenants/acme/workbooks?accessSource=all',
      status: 400,
    },
  ];
}
