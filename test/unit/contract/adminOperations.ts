// The administration operations of PlatformClient.admin as the client contract suites run them
// (see clientOperations.ts): each request must be the published operation, and each answer in
// every generated variant must give the extension what it needs.
import * as assert from 'node:assert/strict';
import { OAUTH_INTEGRATION, arr, listItems, listOf, nothing, same, served, type Json } from './caseChecks';
import type { PlatformClient } from '../../../src/api';
import type { OperationCase } from './clientOperations';

const resources = (b: unknown) => arr((b as Json).Resources);

type Admin = PlatformClient['admin'];
type Args<M extends keyof Admin> = Admin[M] extends (...a: infer A) => Promise<unknown> ? A : never;

/** A row calling `PlatformClient.admin[method](...args)`, named for the method (and `variant`, if given). */
export function admin<M extends keyof Admin>(
  method: M,
  operation: string,
  args: Args<M>,
  check: OperationCase['check'],
  variant?: string,
): OperationCase {
  return {
    name: `admin.${String(method)}${variant ? ` (${variant})` : ''}`,
    operation,
    run: (c) =>
      (c.platform.admin[method] as (...a: unknown[]) => Promise<unknown>).apply(c.platform.admin, args),
    check,
  };
}

export const ADMIN_OPERATIONS: OperationCase[] = [
  admin(
    'listScimUsers',
    'GET /scim/v2/Users',
    [{ first: 10, filter: 'userName eq "jane@example.com"' }],
    listOf(resources, 'userName'),
  ),
  admin(
    'listScimGroups',
    'GET /scim/v2/Groups',
    [{ first: 10, after: '11' }],
    listOf(resources, 'displayName'),
  ),
  admin('getScimGroup', 'GET /scim/v2/Groups/{id}', ['g-1'], same('displayName', 'members')),
  admin(
    'changeGroupMembers',
    'PATCH /scim/v2/Groups/{id}',
    ['g-1', { add: ['7'], remove: ['5'] }],
    same('displayName'),
  ),
  admin(
    'createUser',
    'POST /api/v1/users',
    [{ email: 'jane@example.com', username: 'jane', firstName: 'Jane' }],
    same('id', 'email'),
  ),
  admin(
    'updateUser',
    'PUT /api/v1/users/{id}',
    [4, { firstName: 'Jane', isDeactivated: true }],
    same('id', 'isDeactivated'),
  ),
  admin('deleteUser', 'DELETE /api/v1/users/{id}', [4], nothing),
  admin('bulkUserAction', 'POST /api/v1/users/bulk', ['DEACTIVATE', [4, 5]], (result, sent) => {
    const body = served(sent) as Json;
    assert.deepEqual((result as Json).succeeded, body.succeeded ?? []);
    assert.equal(arr((result as Json).failed).length, arr(body.failed).length);
  }),
  admin('listRoles', 'GET /api/v1/roles', [{ first: 20 }], listOf(listItems, 'name')),
  admin('assignRole', 'PUT /api/v1/roles/{roleId}/users/{userId}', [501, 4], nothing),
  admin('removeRole', 'DELETE /api/v1/roles/{roleId}/users/{userId}', [501, 4], nothing),
  admin(
    'listEmbedTenants',
    'GET /api/v1/embed-tenants',
    [{ first: 20, search: 'ac' }],
    listOf(listItems, 'name'),
  ),
  admin(
    'listEmbedGroups',
    'GET /api/v1/embed-tenants/{embedTenantName}/groups',
    ['acme', { first: 20 }],
    listOf(listItems, 'name'),
  ),
  admin(
    'listEmbedUsers',
    'GET /api/v1/embed-tenants/{embedTenantName}/users',
    ['acme', { first: 20, search: 'ann' }],
    listOf(listItems, 'id'),
  ),
  admin(
    'listEmbedTenantWorkbooks',
    'GET /api/v1/deployments/{deploymentId}/embed-tenants/{embedTenantName}/workbooks',
    [7, 'acme', { first: 20 }],
    listOf(listItems, 'id'),
  ),
  admin(
    'generateEmbedSession',
    'POST /api/v1/embed/generate-session',
    [
      {
        deploymentId: 7,
        externalId: 'preview-ann',
        embedTenantName: 'acme',
        publicDashboardId: 'pub7x0000001',
        creatorMode: true,
        tenantGroups: ['viewers'],
      },
    ],
    same('sessionId'),
  ),
  admin(
    'revokeEmbedSession',
    'POST /api/v1/embed/session/revoke',
    [{ sessionId: '0123456789abcdef0123456789abcdef' }],
    nothing,
  ),
  admin('listRegions', 'GET /api/v1/regions', [{ first: 20 }], listOf(listItems, 'name')),
  admin(
    'getTenantSettings',
    'GET /api/v1/tenant/settings',
    [],
    same('auditLogEnabled', 'maintenanceWindowTime', 'oidcEnabled'),
  ),
  admin(
    'updateTenantSettings',
    'PUT /api/v1/tenant/settings',
    [{ maintenanceWindowTime: '03:30', auditLogEnabled: true }],
    same('maintenanceWindowTime'),
  ),
  admin(
    'listOAuthIntegrations',
    'GET /api/v1/oauth-integrations',
    [],
    listOf((b) => arr(b), 'name'),
  ),
  admin(
    'createOAuthIntegration',
    'POST /api/v1/oauth-integrations',
    [{ ...OAUTH_INTEGRATION, clientSecret: 'write-only-secret' }],
    same('id', 'name'),
  ),
  admin('deleteOAuthIntegration', 'DELETE /api/v1/oauth-integrations/{id}', [601], nothing),
  admin(
    'listOidcTokenConfigs',
    'GET /api/v1/oidc-token-configs',
    [],
    listOf((b) => arr(b), 'id'),
  ),
  admin(
    'createOidcTokenConfig',
    'POST /api/v1/oidc-token-configs',
    [{ audienceType: 'aws', name: 'warehouse', targetEnvVar: 'CUBEJS_DB_TOKEN' }],
    same('id', 'audienceType'),
  ),
  admin('deleteOidcTokenConfig', 'DELETE /api/v1/oidc-token-configs/{id}', [701], nothing),
  admin(
    'listUserOAuthTokens',
    'GET /api/v1/user-oauth-tokens',
    [],
    listOf((b) => arr(b), 'integrationId'),
  ),
  admin('revokeUserOAuthToken', 'DELETE /api/v1/user-oauth-tokens/{integrationId}', [601], nothing),
];
