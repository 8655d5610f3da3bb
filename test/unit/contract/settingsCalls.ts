// The account-settings routes of the sandbox added for editing (OAuth integrations and OIDC token
// configs by id: GET and PUT), as the sandbox contract suite drives them. They run before the
// admin calls, which delete the seeded integration 601 and config 701.
import { createAdminState } from '../../../src/sandbox/platform/admin/adminState';
import type { AdminCall } from './adminCalls';

// The seeded integration 601 as an edit sends it back: its writable fields, renamed (the server
// fills in id and times; config stays unsent).
const {
  id: _id,
  config: _config,
  createdAt: _createdAt,
  updatedAt: _updatedAt,
  ...seeded
} = createAdminState([]).oauthIntegrations.find((i) => i.id === 601)!;
const INTEGRATION = { ...seeded, name: 'Snowflake OAuth (edited)' };

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
