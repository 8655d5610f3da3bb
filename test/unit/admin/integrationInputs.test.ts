// What we send for OAuth integrations and OIDC token configs, checked before sending against the
// published inputs (URLs, patterns, required fields, no unknown fields), and the sandbox's PUT
// routes: a secret is never stored or echoed, no secret sent keeps the count of secret writes.
import * as assert from 'node:assert/strict';
import { ApiError, PlatformClient } from '../../../src/api';
import {
  CreateOidcTokenConfigInputSchema,
  UpdateOAuthIntegrationInputSchema,
  UpdateOidcTokenConfigInputSchema,
} from '../../../src/api/platform/admin/integrations';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { OAUTH_INTEGRATION as OAUTH } from '../contract/caseChecks';

const ok = (s: { safeParse(v: unknown): { success: boolean } }, v: unknown) => s.safeParse(v).success;

describe('account settings inputs', () => {
  it('requires every published field of an OAuth update but the secret, and absolute http(s) URLs', () => {
    assert.ok(ok(UpdateOAuthIntegrationInputSchema, OAUTH));
    assert.ok(
      ok(UpdateOAuthIntegrationInputSchema, { ...OAUTH, clientSecret: 's', scopes: ['a'], config: {} }),
    );
    const { clientId: _drop, ...noClient } = OAUTH;
    assert.ok(!ok(UpdateOAuthIntegrationInputSchema, noClient));
    for (const bad of ['idp.example/authorize', 'ftp://idp.example/x', 'not a url', ''])
      assert.ok(!ok(UpdateOAuthIntegrationInputSchema, { ...OAUTH, authUrl: bad }), bad);
    assert.ok(
      !ok(UpdateOAuthIntegrationInputSchema, { ...OAUTH, clientSecret: '' }),
      'an empty secret is not sent',
    );
    assert.ok(!ok(UpdateOAuthIntegrationInputSchema, { ...OAUTH, secret: 'x' }), 'unknown fields refused');
  });

  it('checks OIDC names, env variables and subject formats against the published patterns', () => {
    assert.ok(ok(UpdateOidcTokenConfigInputSchema, { name: 'warehouse-2', targetEnvVar: null }));
    assert.ok(ok(UpdateOidcTokenConfigInputSchema, { subFormat: 'd:{deployment_id}:{component}-{region}' }));
    assert.ok(!ok(UpdateOidcTokenConfigInputSchema, { name: 'Warehouse' }));
    assert.ok(!ok(UpdateOidcTokenConfigInputSchema, { name: '-x' }));
    assert.ok(!ok(UpdateOidcTokenConfigInputSchema, { targetEnvVar: 'lower_case' }));
    assert.ok(!ok(UpdateOidcTokenConfigInputSchema, { targetEnvVar: `A${'B'.repeat(128)}` }));
    assert.ok(!ok(UpdateOidcTokenConfigInputSchema, { subFormat: '{user}' }));
    assert.ok(!ok(UpdateOidcTokenConfigInputSchema, { subFormat: 'a'.repeat(201) }));
    assert.ok(!ok(UpdateOidcTokenConfigInputSchema, { audienceType: 'aws' }), 'not updatable');
    assert.ok(!ok(UpdateOidcTokenConfigInputSchema, { customClaims: [1] }));
    assert.ok(!ok(CreateOidcTokenConfigInputSchema, { name: 'x' }), 'audienceType required on create');
  });

  describe('against the sandbox', function () {
    this.timeout(30_000);
    let sb: SandboxHandle;
    let admin: PlatformClient;
    let member: PlatformClient;
    const state = async () =>
      (await (await fetch(`${sb.urls.platform.replace(/\/api$/, '')}/__sandbox/state`)).json()) as {
        admin: { oauthSecretWrites: Record<string, number>; oauthIntegrations: unknown[] };
      };
    before(async () => {
      sb = await startSandbox({ rows: 10 });
      const retry = { retries: 0, baseDelayMs: 1, maxDelayMs: 1 };
      admin = new PlatformClient({ baseUrl: sb.urls.platform, token: async () => sb.tokens.admin, retry });
      member = new PlatformClient({ baseUrl: sb.urls.platform, token: async () => sb.tokens.member, retry });
    });
    after(async () => {
      await Promise.all([admin.close(), member.close()]);
      await sb.close();
    });

    it('updates an integration without a secret (count kept), then with one (counted, never stored)', async () => {
      const before = (await state()).admin.oauthSecretWrites['601'];
      const saved = await admin.admin.updateOAuthIntegration(601, { ...OAUTH, name: 'Renamed' });
      assert.equal(saved.name, 'Renamed');
      assert.equal((await admin.admin.getOAuthIntegration(601)).name, 'Renamed');
      assert.equal((await state()).admin.oauthSecretWrites['601'], before);
      const secret = 'unit-secret-5b1e';
      const again = await admin.admin.updateOAuthIntegration(601, { ...OAUTH, clientSecret: secret });
      assert.ok(!JSON.stringify(again).includes(secret));
      const s = await state();
      assert.equal(s.admin.oauthSecretWrites['601'], (before ?? 0) + 1);
      assert.ok(!JSON.stringify(s).includes(secret), 'the sandbox keeps no secret');
    });

    it('refuses a bad URL before sending, and a member token with the role needed', async () => {
      await assert.rejects(
        async () => admin.admin.updateOAuthIntegration(601, { ...OAUTH, tokenUrl: 'token' }),
        (e: unknown) => e instanceof ApiError && e.kind === 'validation' && /tokenUrl/.test(e.message),
      );
      await assert.rejects(member.admin.getOidcTokenConfig(701), /needs the admin role/);
      await assert.rejects(
        member.admin.updateOidcTokenConfig(701, { isEnabled: false }),
        /needs the admin role/,
      );
    });

    it('changes only the OIDC fields sent; null clears a nullable one', async () => {
      const saved = await admin.admin.updateOidcTokenConfig(701, { isEnabled: false, targetEnvVar: null });
      assert.equal(saved.isEnabled, false);
      assert.equal(saved.targetEnvVar, null);
      assert.equal(saved.name, 'warehouse-federation', 'name unchanged');
      await assert.rejects(admin.admin.getOidcTokenConfig(999_999), /no longer exists/);
    });
  });
});
