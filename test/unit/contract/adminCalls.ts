// The administration routes of the sandbox as the sandbox contract suite drives them: every route
// with an admin token, the admin-only ones also refused to the member token, and error cases.
import { scimUserId } from '../../../src/sandbox/platform/admin/scimRoutes';

export interface AdminCall {
  method: string;
  path: string;
  body?: unknown;
  auth?: 'admin' | 'member';
  status: number;
  /** Records the answer's `id` under this name, for `{name}` in later paths. */
  capture?: string;
}

const SESSION_ID = '0123456789abcdef0123456789abcdef';
const INTEGRATION = {
  name: 'Contract OAuth',
  type: 'snowflake',
  authUrl: 'https://idp.example/authorize',
  tokenUrl: 'https://idp.example/token',
  clientId: 'contract-client',
  clientSecret: 'contract-secret-value',
  redirectUri: 'https://app.example/callback',
  scopes: ['read'],
};

export function adminCalls(): AdminCall[] {
  const scimFilter = (f: string) => encodeURIComponent(f);
  return [
    // SCIM
    { method: 'GET', path: '/api/scim/v2/Users?startIndex=2&count=3', status: 200 },
    {
      method: 'GET',
      path: `/api/scim/v2/Users?filter=${scimFilter('userName eq "user3@sandbox.example"')}`,
      status: 200,
    },
    { method: 'GET', path: '/api/scim/v2/Users?filter=active', status: 400 },
    { method: 'GET', path: '/api/scim/v2/Users', auth: 'member', status: 403 },
    { method: 'GET', path: '/api/scim/v2/Groups?startIndex=1&count=2', status: 200 },
    {
      method: 'GET',
      path: `/api/scim/v2/Groups?filter=${scimFilter('displayName eq "Finance"')}`,
      status: 200,
    },
    { method: 'GET', path: '/api/scim/v2/Groups/g-finance', status: 200 },
    { method: 'GET', path: '/api/scim/v2/Groups/nope', status: 404 },
    {
      method: 'PATCH',
      path: '/api/scim/v2/Groups/g-finance',
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [
          { op: 'add', path: 'members', value: [{ value: scimUserId(9) }] },
          { op: 'remove', path: `members[value eq "${scimUserId(5)}"]` },
        ],
      },
      status: 200,
    },
    // users and roles
    {
      method: 'POST',
      path: '/api/v1/users',
      body: { email: 'new@sandbox.example', username: 'new@sandbox.example', firstName: 'New' },
      status: 200,
    },
    {
      method: 'POST',
      path: '/api/v1/users',
      body: { email: 'x@example.com', username: 'x' },
      auth: 'member',
      status: 403,
    },
    {
      method: 'PUT',
      path: '/api/v1/users/4',
      body: { firstName: 'Renamed', isDeactivated: true },
      status: 200,
    },
    { method: 'PUT', path: '/api/v1/users/999', body: { firstName: 'Nobody' }, status: 404 },
    { method: 'DELETE', path: '/api/v1/users/12', status: 200 },
    {
      method: 'POST',
      path: '/api/v1/users/bulk',
      body: { action: 'ACTIVATE', userIds: [4, 999] },
      status: 200,
    },
    { method: 'GET', path: '/api/v1/roles?first=2', status: 200 },
    { method: 'GET', path: '/api/v1/roles', auth: 'member', status: 403 },
    { method: 'PUT', path: '/api/v1/roles/502/users/3', status: 204 },
    { method: 'PUT', path: '/api/v1/roles/999/users/3', status: 404 },
    { method: 'DELETE', path: '/api/v1/roles/502/users/3', status: 204 },
    // custom roles written
    {
      method: 'POST',
      path: '/api/v1/roles',
      body: {
        name: 'contract-role',
        description: 'Contract',
        policies: [{ resourceType: 'Deployment', actions: ['DeploymentRead'], resources: ['1'] }],
      },
      status: 200,
      capture: 'roleId',
    },
    { method: 'POST', path: '/api/v1/roles', body: { name: 'CONTRACT-ROLE', policies: [] }, status: 409 },
    { method: 'POST', path: '/api/v1/roles', body: { name: 'Admin', policies: [] }, status: 400 },
    { method: 'GET', path: '/api/v1/roles/{roleId}', status: 200 },
    { method: 'PUT', path: '/api/v1/roles/{roleId}', body: { description: 'Contract, edited' }, status: 200 },
    { method: 'PUT', path: '/api/v1/roles/{roleId}', body: { name: 'analyst' }, status: 409 },
    { method: 'DELETE', path: '/api/v1/roles/{roleId}', status: 204 },
    { method: 'GET', path: '/api/v1/roles/{roleId}', status: 404 },
    { method: 'DELETE', path: '/api/v1/roles/501', auth: 'member', status: 403 },
    // SCIM users written, a group replaced
    {
      method: 'POST',
      path: '/api/scim/v2/Users',
      body: {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'contract.user@example.com',
        name: { givenName: 'Contract', familyName: 'User' },
        emails: [{ value: 'contract.user@example.com', primary: true }],
        active: true,
      },
      status: 201,
    },
    {
      method: 'POST',
      path: '/api/scim/v2/Users',
      body: { userName: 'CONTRACT.USER@example.com' },
      status: 409,
    },
    { method: 'GET', path: `/api/scim/v2/Users/${scimUserId(4)}`, status: 200 },
    {
      method: 'PUT',
      path: `/api/scim/v2/Users/${scimUserId(4)}`,
      body: {
        userName: 'user4.renamed@example.com',
        name: { givenName: 'Four', familyName: 'Renamed' },
        emails: [{ value: 'user4.renamed@example.com', primary: true }],
        active: true,
      },
      status: 200,
    },
    { method: 'PUT', path: '/api/scim/v2/Users/nobody', body: { userName: 'x@example.com' }, status: 404 },
    {
      method: 'PUT',
      path: '/api/scim/v2/Groups/g-finance',
      body: { displayName: 'Finance', members: [{ value: scimUserId(2) }] },
      status: 200,
    },
    { method: 'PUT', path: '/api/scim/v2/Groups/g-finance', body: { displayName: 'ANALYSTS' }, status: 409 },
    // embedding
    { method: 'GET', path: '/api/v1/embed-tenants?first=2', status: 200 },
    { method: 'GET', path: '/api/v1/embed-tenants?search=ac', status: 200 },
    { method: 'GET', path: '/api/v1/embed-tenants', auth: 'member', status: 403 },
    { method: 'GET', path: '/api/v1/embed-tenants/acme/groups', status: 200 },
    { method: 'GET', path: '/api/v1/embed-tenants/acme/users?search=user2', status: 200 },
    { method: 'GET', path: '/api/v1/embed-tenants/nobody/users', status: 404 },
    { method: 'GET', path: '/api/v1/deployments/1/embed-tenants/acme/workbooks?first=5', status: 200 },
    {
      method: 'POST',
      path: '/api/v1/embed/generate-session',
      body: {
        deploymentId: 1,
        externalId: 'contract-viewer',
        embedTenantName: 'acme',
        publicDashboardId: 'pub1x0000001',
        creatorMode: true,
        tenantGroups: ['viewers'],
      },
      status: 200,
    },
    {
      method: 'POST',
      path: '/api/v1/embed/generate-session',
      body: { deploymentId: 1, externalId: 'x', publicDashboardId: 'pub1x0000001' },
      auth: 'member',
      status: 403,
    },
    { method: 'POST', path: '/api/v1/embed/session/revoke', body: { sessionId: SESSION_ID }, status: 204 },
    // account settings
    { method: 'GET', path: '/api/v1/regions?first=2', status: 200 },
    { method: 'GET', path: '/api/v1/tenant/settings', status: 200 },
    { method: 'GET', path: '/api/v1/tenant/settings', auth: 'member', status: 403 },
    { method: 'PUT', path: '/api/v1/tenant/settings', body: { maintenanceWindowTime: '03:30' }, status: 200 },
    { method: 'GET', path: '/api/v1/oauth-integrations', status: 200 },
    {
      method: 'POST',
      path: '/api/v1/oauth-integrations',
      body: INTEGRATION,
      status: 200,
      capture: 'integrationId',
    },
    { method: 'DELETE', path: '/api/v1/oauth-integrations/601', status: 200 },
    { method: 'GET', path: '/api/v1/oidc-token-configs', status: 200 },
    {
      method: 'POST',
      path: '/api/v1/oidc-token-configs',
      body: { name: 'contract-oidc', audienceType: 'aws', targetEnvVar: 'CUBEJS_DB_TOKEN' },
      status: 200,
    },
    { method: 'DELETE', path: '/api/v1/oidc-token-configs/701', status: 200 },
    { method: 'GET', path: '/api/v1/user-oauth-tokens', status: 200 },
    // my connections and settings (any user)
    { method: 'GET', path: '/api/v1/user-oauth-tokens/601', status: 200 },
    { method: 'GET', path: '/api/v1/user-oauth-tokens/601', auth: 'member', status: 404 },
    { method: 'POST', path: '/api/v1/user-oauth-tokens/{integrationId}/initiate', status: 200 },
    { method: 'POST', path: '/api/v1/user-oauth-tokens/999999/initiate', status: 404 },
    {
      method: 'PATCH',
      path: '/api/v1/users/me/settings',
      body: { timezone: 'Europe/Berlin', sheets: { showAppliedFilters: true } },
      status: 200,
    },
    {
      method: 'PATCH',
      path: '/api/v1/users/me/settings',
      body: { theme: 'dark' },
      auth: 'member',
      status: 200,
    },
    { method: 'DELETE', path: '/api/v1/user-oauth-tokens/601', status: 200 },
  ];
}
