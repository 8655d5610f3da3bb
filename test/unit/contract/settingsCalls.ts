// The account-settings routes of the sandbox added for editing (OAuth integrations and OIDC token
// configs by id: GET and PUT), as the sandbox contract suite drives them. They run before the
// admin calls, which delete the seeded integration 601 and config 701.
import type { AdminCall } from './adminCalls';

const INTEGRATION = {
  name: 'Snowflake OAuth (edited)',
  type: 'snowflake',
  authUrl: 'https://acme.snowflakecomputing.com/oauth/authorize',
  tokenUrl: 'https://acme.snowflakecomputing.com/oauth/token-request',
  clientId: 'sandbox-client',
  redirectUri: 'https://sandbox.example/oauth/callback',
  scopes: ['session:role:analyst'],
};

export function settingsCalls(): AdminCall[] {
  return [
    { method: 'GET', path: '/api/v1/app-config', auth: 'member', status: 200 },
    { method: 'GET', path: '/api/v1/oauth-integrations/601', status: 200 },
    { method: 'GET', path: '/api/v1/oauth-integrations/601', auth: 'member', status: 403 },
    { method: 'PUT', path: '/api/v1/oauth-integrations/601', body: INTEGRATION, status: 200 },
    {
      method: 'PUT',
      path: '/api/v1/oauth-integrations/601',
      body: { ...INTEGRATION, clientSecret: 'contract-new-secret' },
      status: 200,
    },
    {
      method: 'PUT',
      path: '/api/v1/oauth-integrations/601',
      body: { ...INTEGRATION, authUrl: 'not a url' },
      status: 400,
    },
    {
      method: 'PUT',
      path: '/api/v1/oauth-integrations/601',
      body: INTEGRATION,
      auth: 'member',
      status: 403,
    },
    { method: 'GET', path: '/api/v1/oidc-token-configs/701', status: 200 },
    {
      method: 'PUT',
      path: '/api/v1/oidc-token-configs/701',
      body: { targetEnvVar: null, subFormat: 'deployment:{deployment_id}', isEnabled: false },
      status: 200,
    },
    {
      method: 'PUT',
      path: '/api/v1/oidc-token-configs/701',
      body: { name: 'Not Valid' },
      status: 400,
    },
    {
      method: 'PUT',
      path: '/api/v1/oidc-token-configs/701',
      body: { isEnabled: true },
      auth: 'member',
      status: 403,
    },
  ];
}
