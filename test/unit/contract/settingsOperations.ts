// The account-settings operations added for editing (get and update of OAuth integrations and
// OIDC token configs) and the fully typed app config, as the client contract suites run them.
import * as assert from 'node:assert/strict';
import type { Exchange } from '../../contract/contractServers';
import { OAUTH_INTEGRATION, served, type Json } from './caseChecks';
import { admin } from './adminOperations';
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
  admin('getOAuthIntegration', 'GET /api/v1/oauth-integrations/{id}', [601], asServed),
  admin(
    'updateOAuthIntegration',
    'PUT /api/v1/oauth-integrations/{id}',
    [601, { ...OAUTH_INTEGRATION, scopes: ['read'], config: { account: 'acme' } }],
    (result, sent) => {
      asServed(result, sent);
      assert.ok(!('clientSecret' in ((sent[sent.length - 1]?.requestBody ?? {}) as Json)), 'no secret sent');
    },
    'secret kept: none sent',
  ),
  admin(
    'updateOAuthIntegration',
    'PUT /api/v1/oauth-integrations/{id}',
    [601, { ...OAUTH_INTEGRATION, clientSecret: 'write-only-secret' }],
    (result, sent) => {
      asServed(result, sent);
      assert.ok(!JSON.stringify(result).includes('write-only-secret'), 'the secret is not read back');
    },
    'secret replaced',
  ),
  admin('getOidcTokenConfig', 'GET /api/v1/oidc-token-configs/{id}', [701], asServed),
  admin(
    'updateOidcTokenConfig',
    'PUT /api/v1/oidc-token-configs/{id}',
    [
      701,
      {
        name: 'warehouse',
        isEnabled: false,
        subFormat: 'deployment:{deployment_id}:{component}',
        targetEnvVar: null,
        customClaims: { team: 'data' },
      },
    ],
    asServed,
  ),
];
