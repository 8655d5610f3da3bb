// Add Profile's connection test against the sandbox: a good token reaches the platform and the Data
// API (meta of the default deployment, on the host it publishes, with a minted token); a wrong token
// reports the platform's refusal with its reason; the AI API is said to be not checked.
import * as assert from 'node:assert/strict';
import * as Api from '../../src/api';
import { checkConnection, describeCheck, listDeploymentsFor } from '../../src/profiles/connectionCheck';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';

describe('Add Profile connection test', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ rows: 200 });
  });
  after(() => sb.close());

  const input = (extra: object = {}) => ({
    name: 'Check',
    platformUrl: sb.urls.platform,
    agents: [{ label: 'Agent', url: sb.urls.ai[0]!.url }],
    ...extra,
  });
  const deps = { api: Api, env: {} };

  it('says the platform and the Data API work with a good token', async () => {
    const lines = await checkConnection(
      input({ defaultDeploymentId: 1 }),
      { platformToken: sb.tokens.admin },
      deps,
    );
    assert.deepEqual(
      lines.map((l) => [l.part, l.state]),
      [
        ['Platform API', 'works'],
        ['Data API', 'works'],
        ['AI API', 'notChecked'],
      ],
      describeCheck(lines),
    );
    assert.match(lines[0]!.detail, /^3 deployments listed$/);
    assert.match(lines[1]!.detail, /^\d+ cubes? on deployment "Analytics"$/);
    assert.doesNotMatch(lines[1]!.detail, /^0 cubes/);
  });

  it('reports the platform failure with its reason for a wrong token, and checks nothing else', async () => {
    const lines = await checkConnection(input(), { platformToken: 'not-a-token' }, deps);
    assert.equal(lines[0]!.part, 'Platform API');
    assert.equal(lines[0]!.state, 'fails');
    assert.match(lines[0]!.detail, /401|token|unauthori[sz]ed/i);
    assert.equal(lines[1]!.state, 'notChecked');
    assert.match(describeCheck(lines), /✗ Platform API: /);
    assert.ok(!describeCheck(lines).includes('not-a-token'), 'the token is never shown');
  });

  it('reports a Data API failure on its own when the Data API token is wrong', async () => {
    const lines = await checkConnection(
      input({ defaultDeploymentId: 1 }),
      { platformToken: sb.tokens.admin, dataApiToken: 'wrong' },
      deps,
    );
    assert.equal(lines[0]!.state, 'works');
    assert.equal(lines[1]!.state, 'fails', describeCheck(lines));
    assert.match(lines[1]!.detail, /^deployment "Analytics": /);
  });

  it('says nothing is checked without a platform token', async () => {
    const lines = await checkConnection(input(), {}, deps);
    assert.deepEqual(
      lines.map((l) => l.state),
      ['notChecked', 'notChecked', 'notChecked'],
    );
  });

  describe('the deployments the default deployment is picked from', () => {
    const q = (token: string | undefined) => ({ name: 'Check', platformUrl: sb.urls.platform, token });

    it('lists them by name with the typed token', async () => {
      const r = await listDeploymentsFor(q(sb.tokens.admin), deps);
      const server = (await (
        await fetch(`${sb.urls.platform}/v1/deployments?first=100`, {
          headers: { authorization: `Bearer ${sb.tokens.admin}` },
        })
      ).json()) as { items: { id: number; name: string }[] };
      assert.deepEqual(
        r.items.map((d) => [d.id, d.name]),
        server.items.map((d) => [d.id, d.name]),
      );
      assert.equal(r.truncated, false);
    });

    it("uses the profile's environment variable when no token is typed, and says what to do without one", async () => {
      const r = await listDeploymentsFor(q(undefined), {
        ...deps,
        env: { DASHBOARD_PLATFORM_TOKEN_CHECK: sb.tokens.admin },
      });
      assert.ok(r.items.length > 0);
      await assert.rejects(
        listDeploymentsFor(q(undefined), deps),
        /no platform token.*DASHBOARD_PLATFORM_TOKEN_CHECK/,
      );
    });

    it("throws the platform's refusal for a wrong token, without the token", async () => {
      await assert.rejects(listDeploymentsFor(q('not-a-token'), deps), (e: Error) => {
        assert.match(e.message, /401|token|unauthori[sz]ed/i);
        assert.ok(!e.message.includes('not-a-token'));
        return true;
      });
    });
  });
});
