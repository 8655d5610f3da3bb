// The account-settings operations added for editing (get and update of OAuth integrations and
// OIDC token configs) and the fully typed app config, as the client contract suites run them.
import * as assert from 'node:assert/strict';
import type { Exchange } from '../../contract/contractServers';
import { OAUTH_INTEGRATION, served, type Json } from './caseChecks';
import type { OperationCase } from './clientOperations';

/** Every served field kept as sent, unknown ones included (read tolerantly, nothing dropped). */
const asServed = (result: unknown, sent: Exchange[]) => assert.deepEqual(result, served(sent));

export const SETTINGS_OPERATIONS: OperationCase[] = [
  {
    name: 'getAppConfig (typed fully)',
    operation: 'GET /api/v1/app-config',
    run: (c) => c.platform.getAppConfig(),
    check: asServed,
  },
  {
    name: 'admin.getOAuthIntegration',
    operation: 'GET /api/v1/oauth-integrations/{id}',
    run: (c) => c.platform.admin.getOAuthIntegration(601),
    check: asServed,
  },
  {
    name: 'admin.updateOAuthIntegration (secret kept: none sent)',
    operation: 'PUT /api/v1/oauth-integrations/{id}',
    run: (c) =>
      c.platform.admin.updateOAuthIntegration(601, {
        ...OAUTH_INTEGRATION,
        scopes: ['read'],
        config: { account: 'acme' },
      }),
    check: (result, sent) => {
      asServed(result, sent);
      assert.ok(!('clientSecret' in ((sent[sent.length - 1]?.requestBody ?? {}) as Json)), 'no secret sent');
    },
  },
  {
    name: 'admin.updateOAuthIntegration (secret replaced)',
    operation: 'PUT /api/v1/oauth-integrations/{id}',
    run: (c) =>
      c.platform.admin.updateOAuthIntegration(601, {
        ...OAUTH_INTEGRATION,
        clientSecret: 'write-only-secret',
      }),
    check: (result, sent) => {
      asServed(result, sent);
      assert.ok(!JSON.stringify(result).includes('write-only-secret'), 'the secret is not read back');
    },
  },
  {
    name: 'admin.getOidcTokenConfig',
    operation: 'GET /api/v1/oidc-token-configs/{id}',
    run: (c) => c.platform.admin.getOidcTokenConfig(701),
    check: asServed,
  },
  {
    name: 'admin.updateOidcTokenConfig',
    operation: 'PUT /api/v1/oidc-token-configs/{id}',
    run: (c) =>
      c.platform.admin.updateOidcTokenConfig(701, {
        name: 'warehouse',
        isEnabled: false,
        subFormat: 'deployment:{deployment_id}:{component}',
        targetEnvVar: null,
        customClaims: { team: 'data' },
      }),
    check: asServed,
  },
];
