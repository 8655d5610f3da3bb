// Embed sessions end to end against the sandbox: a session generated for a published dashboard opens
// the tenant host's embed page as that end user (with the tenant group) until it is revoked; what
// GenerateSession and RevokeEmbedSessionInput publish is refused by the client before sending and by
// the sandbox's row check, and what the body names (deployment, tenant group, dashboard) by the
// handler.
import * as assert from 'node:assert/strict';
import { ApiError, PlatformClient } from '../../../src/api';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';

describe('sandbox: embed sessions', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let c: PlatformClient;
  const dashboard = 'pub1x0000001';

  before(async () => {
    sb = await startSandbox({ rows: 20 });
    c = new PlatformClient({ baseUrl: sb.urls.platform, token: async () => sb.tokens.admin });
  });
  after(async () => {
    await c?.close();
    await sb?.close();
  });

  const page = async (sessionId: string) => {
    const res = await fetch(
      `${new URL(sb.urls.platform).origin}/embed/dashboard/${dashboard}?session=${sessionId}`,
    );
    return { status: res.status, text: await res.text() };
  };
  const generate = async (body: unknown) => {
    const res = await fetch(`${sb.urls.platform}/v1/embed/generate-session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { sessionId?: string; error?: string } };
  };

  it('opens the dashboard as the end user with the tenant group until the session is revoked', async () => {
    const { sessionId } = await c.admin.generateEmbedSession({
      deploymentId: 1,
      externalId: 'ann-42',
      embedTenantName: 'acme',
      publicDashboardId: dashboard,
      creatorMode: true,
      tenantGroups: ['viewers'],
    });
    const open = await page(sessionId);
    assert.equal(open.status, 200);
    assert.match(open.text, /seen as ann-42 in tenant acme/);
    assert.match(open.text, /Groups: viewers/);
    await c.admin.revokeEmbedSession({ sessionId });
    const revoked = await page(sessionId);
    assert.equal(revoked.status, 401);
    assert.match(revoked.text, /revoked/);
  });

  it('refuses tenant groups without creator mode before sending, and the sandbox refuses them too', async () => {
    await assert.rejects(
      c.admin.generateEmbedSession({
        deploymentId: 1,
        externalId: 'ann-42',
        embedTenantName: 'acme',
        tenantGroups: ['viewers'],
      }),
      (e: unknown) => e instanceof ApiError && e.kind === 'validation' && /creatorMode/.test(e.message),
    );
    const r = await generate({
      deploymentId: 1,
      externalId: 'x',
      embedTenantName: 'acme',
      tenantGroups: ['viewers'],
    });
    assert.equal(r.status, 400);
    assert.match(r.body.error ?? '', /creatorMode/);
  });

  it('refuses what the body names but the account lacks: a deployment, a tenant group, a dashboard', async () => {
    const base = { externalId: 'x', embedTenantName: 'acme', creatorMode: true };
    const noDeployment = await generate({ ...base, deploymentId: 999 });
    assert.equal(noDeployment.status, 400);
    assert.match(noDeployment.body.error ?? '', /deploymentId/);
    const noGroup = await generate({ ...base, deploymentId: 1, tenantGroups: ['viewers', 'auditors'] });
    assert.equal(noGroup.status, 400);
    assert.match(noGroup.body.error ?? '', /No tenant group named auditors/);
    const noDashboard = await generate({ ...base, deploymentId: 1, publicDashboardId: 'pub1x9999999' });
    assert.equal(noDashboard.status, 404);
    const ok = await generate({ ...base, deploymentId: 1, tenantGroups: ['creators'] });
    assert.equal(ok.status, 200);
    assert.match(ok.body.sessionId ?? '', /^[0-9a-f]{32}$/);
  });

  it('refuses a session id that is not one before sending', async () => {
    await assert.rejects(
      c.admin.revokeEmbedSession({ sessionId: 'not-a-session' }),
      (e: unknown) =>
        e instanceof ApiError && e.kind === 'validation' && /Revoking an embed session/.test(e.message),
    );
  });
});
