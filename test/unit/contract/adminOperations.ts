// The administration operations of PlatformClient.admin as the client contract suites run them
// (see clientOperations.ts): each request must be the published operation, and each answer in
// every generated variant must give the extension what it needs.
import * as assert from 'node:assert/strict';
import { OAUTH_INTEGRATION, arr, listItems, listOf, nothing, same, served, type Json } from './caseChecks';
import type { OperationCase } from './clientOperations';

const resources = (b: unknown) => arr((b as Json).Resources);

export const ADMIN_OPERATIONS: OperationCase[] = [
  {
    name: 'admin.listScimUsers',
    operation: 'GET /scim/v2/Users',
    run: (c) => c.platform.admin.listScimUsers({ first: 10, filter: 'userName eq "jane@example.com"' }),
    check: listOf(resources, 'userName'),
  },
  {
    name: 'admin.listScimGroups',
    operation: 'GET /scim/v2/Groups',
    run: (c) => c.platform.admin.listScimGroups({ first: 10, after: '11' }),
    check: listOf(resources, 'displayName'),
  },
  {
    name: 'admin.getScimGroup',
    operation: 'GET /scim/v2/Groups/{id}',
    run: (c) => c.platform.admin.getScimGroup('g-1'),
    check: same('displayName', 'members'),
  },
  {
    name: 'admin.changeGroupMembers',
    operation: 'PATCH /scim/v2/Groups/{id}',
    run: (c) => c.platform.admin.changeGroupMembers('g-1', { add: ['7'], remove: ['5'] }),
    check: same('displayName'),
  },
  {
    name: 'admin.createUser',
    operation: 'POST /api/v1/users',
    run: (c) =>
      c.platform.admin.createUser({ email: 'jane@example.com', username: 'jane', firstName: 'Jane' }),
    check: same('id', 'email'),
  },
  {
    name: 'admin.updateUser',
    operation: 'PUT /api/v1/users/{id}',
    run: (c) => c.platform.admin.updateUser(4, { firstName: 'Jane', isDeactivated: true }),
    check: same('id', 'isDeactivated'),
  },
  {
    name: 'admin.deleteUser',
    operation: 'DELETE /api/v1/users/{id}',
    run: (c) => c.platform.admin.deleteUser(4),
    check: nothing,
  },
  {
    name: 'admin.bulkUserAction',
    operation: 'POST /api/v1/users/bulk',
    run: (c) => c.platform.admin.bulkUserAction('DEACTIVATE', [4, 5]),
    check: (result, sent) => {
      const body = served(sent) as Json;
      assert.deepEqual((result as Json).succeeded, body.succeeded ?? []);
      assert.equal(arr((result as Json).failed).length, arr(body.failed).length);
    },
  },
  {
    name: 'admin.listRoles',
    operation: 'GET /api/v1/roles',
    run: (c) => c.platform.admin.listRoles({ first: 20 }),
    check: listOf(listItems, 'name'),
  },
  {
    name: 'admin.assignRole',
    operation: 'PUT /api/v1/roles/{roleId}/users/{userId}',
    run: (c) => c.platform.admin.assignRole(501, 4),
    check: nothing,
  },
  {
    name: 'admin.removeRole',
    operation: 'DELETE /api/v1/roles/{roleId}/users/{userId}',
    run: (c) => c.platform.admin.removeRole(501, 4),
    check: nothing,
  },
  {
    name: 'admin.listEmbedTenants',
    operation: 'GET /api/v1/embed-tenants',
    run: (c) => c.platform.admin.listEmbedTenants({ first: 20, search: 'ac' }),
    check: listOf(listItems, 'name'),
  },
  {
    name: 'admin.listEmbedGroups',
    operation: 'GET /api/v1/embed-tenants/{embedTenantName}/groups',
    run: (c) => c.platform.admin.listEmbedGroups('acme', { first: 20 }),
    check: listOf(listItems, 'name'),
  },
  {
    name: 'admin.listEmbedUsers',
    operation: 'GET /api/v1/embed-tenants/{embedTenantName}/users',
    run: (c) => c.platform.admin.listEmbedUsers('acme', { first: 20, search: 'ann' }),
    check: listOf(listItems, 'id'),
  },
  {
    name: 'admin.listEmbedTenantWorkbooks',
    operation: 'GET /api/v1/deployments/{deploymentId}/embed-tenants/{embedTenantName}/workbooks',
    run: (c) => c.platform.admin.listEmbedTenantWorkbooks(7, 'acme', { first: 20 }),
    check: listOf(listItems, 'id'),
  },
  {
    name: 'admin.generateEmbedSession',
    operation: 'POST /api/v1/embed/generate-session',
    run: (c) =>
      c.platform.admin.generateEmbedSession({
        deploymentId: 7,
        externalId: 'preview-ann',
        embedTenantName: 'acme',
        publicDashboardId: 'pub7x0000001',
        creatorMode: true,
        tenantGroups: ['viewers'],
      }),
    check: same('sessionId'),
  },
  {
    name: 'admin.revokeEmbedSession',
    operation: 'POST /api/v1/embed/session/revoke',
    run: (c) => c.platform.admin.revokeEmbedSession({ sessionId: '0123456789abcdef0123456789abcdef' }),
    check: nothing,
  },
  {
    name: 'admin.listRegions',
    operation: 'GET /api/v1/regions',
    run: (c) => c.platform.admin.listRegions({ first: 20 }),
    check: listOf(listItems, 'name'),
  },
  {
    name: 'admin.getTenantSettings',
    operation: 'GET /api/v1/tenant/settings',
    run: (c) => c.platform.admin.getTenantSettings(),
    check: same('auditLogEnabled', 'maintenanceWindowTime', 'oidcEnabled'),
  },
  {
    name: 'admin.updateTenantSettings',
    operation: 'PUT /api/v1/tenant/settings',
    run: (c) =>
      c.platform.admin.updateTenantSettings({ maintenanceWindowTime: '03:30', auditLogEnabled: true }),
    check: same('maintenanceWindowTime'),
  },
  {
    name: 'admin.listOAuthIntegrations',
    operation: 'GET /api/v1/oauth-integrations',
    run: (c) => c.platform.admin.listOAuthIntegrations(),
    check: listOf((b) => arr(b), 'name'),
  },
  {
    name: 'admin.createOAuthIntegration',
    operation: 'POST /api/v1/oauth-integrations',
    run: (c) =>
      c.platform.admin.createOAuthIntegration({ ...OAUTH_INTEGRATION, clientSecret: 'write-only-secret' }),
    check: same('id', 'name'),
  },
  {
    name: 'admin.deleteOAuthIntegration',
    operation: 'DELETE /api/v1/oauth-integrations/{id}',
    run: (c) => c.platform.admin.deleteOAuthIntegration(601),
    check: nothing,
  },
  {
    name: 'admin.listOidcTokenConfigs',
    operation: 'GET /api/v1/oidc-token-configs',
    run: (c) => c.platform.admin.listOidcTokenConfigs(),
    check: listOf((b) => arr(b), 'id'),
  },
  {
    name: 'admin.createOidcTokenConfig',
    operation: 'POST /api/v1/oidc-token-configs',
    run: (c) =>
      c.platform.admin.createOidcTokenConfig({
        audienceType: 'aws',
        name: 'warehouse',
        targetEnvVar: 'CUBEJS_DB_TOKEN',
      }),
    check: same('id', 'audienceType'),
  },
  {
    name: 'admin.deleteOidcTokenConfig',
    operation: 'DELETE /api/v1/oidc-token-configs/{id}',
    run: (c) => c.platform.admin.deleteOidcTokenConfig(701),
    check: nothing,
  },
  {
    name: 'admin.listUserOAuthTokens',
    operation: 'GET /api/v1/user-oauth-tokens',
    run: (c) => c.platform.admin.listUserOAuthTokens(),
    check: listOf((b) => arr(b), 'integrationId'),
  },
  {
    name: 'admin.revokeUserOAuthToken',
    operation: 'DELETE /api/v1/user-oauth-tokens/{integrationId}',
    run: (c) => c.platform.admin.revokeUserOAuthToken(601),
    check: nothing,
  },
];
