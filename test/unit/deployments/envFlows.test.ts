// Env variables and environment tokens, through EnvFlows in plain Node (the stand-in of
// opsStandIn.ts): the exact write sent, what the user is told, what is refused before anything is
// sent, and that values and tokens are known to the redaction before they are shown.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api';
import type * as EnvFlowsModule from '../../../src/deployments/envFlows';
import { loadOps, opsWorld, recorder, reset, standIn, type World } from './opsStandIn';

/* eslint-disable @typescript-eslint/no-require-imports */
const load = () => ({
  ...loadOps(),
  EnvFlows: (require('../../../src/deployments/envFlows') as typeof EnvFlowsModule).EnvFlows,
});
/* eslint-enable @typescript-eslint/no-require-imports */

describe('deployments: env variables and environment tokens', () => {
  let m: ReturnType<typeof load>;
  let restore: () => void;
  before(() => ({ modules: m, restore } = standIn(load)));
  after(() => restore());

  const VARS = [
    { name: 'API_URL', value: 'https://api.example' },
    { name: 'DB_PASSWORD', value: '[ENCRYPTED]' },
  ];

  function world(w: World & { fail?: unknown; vars?: unknown[]; envs?: unknown[]; noExpiry?: boolean } = {}) {
    const shown = reset();
    const calls: string[] = [];
    const listed: string[] = [];
    const ops = recorder(calls, {
      setEnvVariables: () => {
        if (w.fail) throw w.fail;
        return { ok: true };
      },
      createEnvironmentToken: () =>
        w.noExpiry ? { token: 'tok-2' } : { token: 'tok-SECRET-123', expires_at: '2026-11-28T09:00:00Z' },
    });
    const client = {
      ops,
      getDeployment: async (id: number) => ({ id, name: 'Revenue' }),
      listEnvVars: async (d: number, q: unknown) => (
        listed.push(`listEnvVars(${d}, ${JSON.stringify(q)})`),
        { items: w.vars ?? VARS }
      ),
      listEnvironments: async (d: number, q: unknown) => (
        listed.push(`listEnvironments(${d}, ${JSON.stringify(q)})`),
        { items: w.envs ?? [] }
      ),
    };
    const envVars = { list: 'envVars of 1' };
    const x = opsWorld(m, client, {
      shown: [{ deploymentId: 1, name: 'Revenue', lists: { envVars } }],
      ...w,
    });
    return { ...x, calls, listed, shown, flows: new m.EnvFlows(x.ops), envVars };
  }

  it('Set Env Variable refuses a bad name and the masked placeholder, then sends the one variable', async () => {
    const x = world({ answers: ['1BAD', 'has space', ' GOOD_NAME ', '[ENCRYPTED]', 's3cret'] });
    assert.equal(await x.flows.setEnvVar({ deploymentId: 1 }), 'GOOD_NAME');
    assert.deepEqual(x.prompter.refusals, [
      'Use letters, digits and _, not starting with a digit.',
      'Use letters, digits and _, not starting with a digit.',
      'That is the masked placeholder, not a value.',
    ]);
    assert.deepEqual(x.questions, [
      'input Set Env Variable (1/2) | Name (letters, digits and _; not starting with a digit). | value=',
      'input Value of GOOD_NAME (2/2) | The value is sent to the server and never logged. | value= | password',
    ]);
    assert.deepEqual(x.calls, ['setEnvVariables(1, [{"name":"GOOD_NAME","value":"s3cret"}])']);
    assert.deepEqual(x.secrets, ['s3cret']);
    assert.deepEqual(x.refreshed, [x.envVars]);
    assert.deepEqual(x.shown.messages, ['info: Env variable GOOD_NAME saved on "Revenue".']);
  });

  it('on a production profile the write is confirmed naming it; declined, nothing is sent', async () => {
    const ok = world({ production: true });
    await ok.flows.setEnvVar({ deploymentId: 1, name: 'A', value: 'v' });
    assert.deepEqual(ok.confirmed, ['Set env variable A on "Revenue"']);
    assert.equal(ok.calls.length, 1);
    const no = world({ production: true, productionConfirm: false });
    await assert.rejects(no.flows.setEnvVar({ deploymentId: 1, name: 'A', value: 'v' }), /Cancelled/);
    assert.deepEqual(no.calls, []);
    assert.deepEqual(no.shown.messages, []);
  });

  it('a write whose outcome is unknown offers the check (Refresh) and says nothing was saved', async () => {
    const x = world({ fail: new ApiError('unknownOutcome', 'The server did not answer.') });
    const e = await x.flows.setEnvVar({ deploymentId: 1, name: 'A', value: 'v' }).then(
      () => undefined,
      (err: unknown) => err,
    );
    assert.ok(e instanceof ApiError && e.kind === 'unknownOutcome', String(e));
    assert.equal(e.check?.command, 'dashboardPlatform.explorer.refresh');
    assert.deepEqual(x.shown.messages, []);
    assert.deepEqual(x.refreshed, []);
    const refused = world({ fail: new ApiError('forbidden', 'Not allowed.') });
    const r = await refused.flows.setEnvVar({ deploymentId: 1, name: 'A', value: 'v' }).then(
      () => undefined,
      (err: unknown) => err,
    );
    assert.ok(r instanceof ApiError && r.kind === 'forbidden' && r.check === undefined, String(r));
  });

  it('Change Value finds the variable by name (or says it is not there) and sends the new value', async () => {
    const x = world({ answers: ['new-url'] });
    assert.equal(await x.flows.changeEnvVar({ deploymentId: 1, name: 'API_URL' }), 'API_URL');
    assert.deepEqual(x.prompter.asked, ['Value of API_URL']);
    assert.deepEqual(x.calls, ['setEnvVariables(1, [{"name":"API_URL","value":"new-url"}])']);
    const missing = world();
    await assert.rejects(
      missing.flows.changeEnvVar({ deploymentId: 1, name: 'NOPE' }),
      /^Error: No env variable NOPE on "Revenue"\.$/,
    );
    assert.deepEqual(missing.calls, []);
    const picked = world({ answers: ['DB_PASSWORD', 'pw'] });
    await picked.flows.changeEnvVar({ deploymentId: 1 });
    assert.deepEqual(picked.prompter.offered.get('Env Variable'), ['API_URL', 'DB_PASSWORD']);
    assert.deepEqual(picked.questions[0], 'pick Env Variable | Pick an env variable');
    assert.deepEqual(picked.listed, ['listEnvVars(1, {"first":200})']);
    assert.deepEqual(picked.calls, ['setEnvVariables(1, [{"name":"DB_PASSWORD","value":"pw"}])']);
  });

  it('Reveal Value: a masked value says why; a plain one is known to the redaction, then copied', async () => {
    const masked = world();
    assert.equal(await masked.flows.revealEnvVar({ deploymentId: 1, name: 'DB_PASSWORD' }), 'masked');
    assert.deepEqual(masked.shown.messages, [
      'info: DB_PASSWORD on "Revenue" is a secret-named variable: the server never sends its value. Use Change Value to replace it.',
    ]);
    assert.deepEqual(masked.secrets, []);
    const noValue = world({ vars: [{ name: 'X' }] });
    assert.equal(await noValue.flows.revealEnvVar({ deploymentId: 1, name: 'X' }), 'masked');
    const copy = world();
    assert.equal(await copy.flows.revealEnvVar({ deploymentId: 1, name: 'API_URL' }), 'copied');
    assert.deepEqual(copy.secrets, ['https://api.example']);
    assert.deepEqual(copy.confirmations, ['API_URL on "Revenue" | https://api.example | Copy to Clipboard']);
    assert.deepEqual(copy.shown.clipboard, ['https://api.example']);
    const keep = world({ confirm: false });
    assert.equal(await keep.flows.revealEnvVar({ deploymentId: 1, name: 'API_URL' }), 'shown');
    assert.deepEqual(keep.shown.clipboard, []);
  });

  it('Create Environment Token: refuses what is not a JSON object or not 1..3600 s, sends the token request', async () => {
    const envs = [
      { id: 'e1', type: 'production' },
      { id: 'e2', type: 'staging', branch: 'dev' },
    ];
    const x = world({
      envs,
      answers: ['staging', '[1]', '{nope', '"text"', '{"role":"analyst"}', '0', '3601', '1.5', 'x', '600'],
    });
    const r = await x.flows.createToken({ deploymentId: 1 });
    assert.deepEqual(x.prompter.rows.get('Create Environment Token'), [
      { label: 'production', description: undefined, detail: undefined },
      { label: 'staging', description: 'branch dev', detail: undefined },
    ]);
    assert.deepEqual(x.questions, [
      'pick Create Environment Token | Pick an environment',
      'input Create Environment Token (1/2) | Security context as a JSON object (what the token may see). | value={}',
      'input Create Environment Token (2/2) | Lifetime in seconds (1 to 3600). | value=3600',
    ]);
    assert.deepEqual(x.listed, ['listEnvironments(1, {"first":100})']);
    assert.deepEqual(x.prompter.refusals, [
      'Enter a JSON object, e.g. {"role": "analyst"}.',
      'Not valid JSON: enter an object, e.g. {"role": "analyst"}.',
      'Enter a JSON object, e.g. {"role": "analyst"}.',
      'A whole number from 1 to 3600.',
      'A whole number from 1 to 3600.',
      'A whole number from 1 to 3600.',
      'A whole number from 1 to 3600.',
    ]);
    assert.deepEqual(x.calls, [
      'createEnvironmentToken(1, "e2", {"security_context":{"role":"analyst"},"expires_in":600})',
    ]);
    // Known to the redaction before it is shown; shown once, with when it expires.
    assert.deepEqual(x.secrets, ['tok-SECRET-123']);
    assert.deepEqual(x.confirmations, [
      'Token created for the staging environment of "Revenue". Copy it now: it is shown only this once. | tok-SECRET-123\n\nExpires 2026-11-28T09:00:00Z. | Copy to Clipboard',
    ]);
    assert.deepEqual(x.shown.clipboard, ['tok-SECRET-123']);
    assert.deepEqual(r, { expiresAt: '2026-11-28T09:00:00Z', copied: true });
  });

  it('Create Environment Token: the bounds 1 and 3600 pass; given arguments ask nothing; no environment says so', async () => {
    for (const seconds of ['1', '3600']) {
      const x = world({ envs: [{ id: 'e1', type: 'production' }], answers: ['production', '{}', seconds] });
      await x.flows.createToken({ deploymentId: 1 });
      assert.deepEqual(x.prompter.refusals, []);
      assert.deepEqual(x.calls, [
        `createEnvironmentToken(1, "e1", {"security_context":{},"expires_in":${seconds}})`,
      ]);
    }
    const given = world({ confirm: false, production: true });
    const r = await given.flows.createToken({
      deploymentId: 1,
      environmentId: 7,
      securityContext: { team: 'a' },
      expiresIn: 60,
    });
    // Only the token's own confirmation (Copy) is asked.
    assert.equal(given.prompter.asked.length, 1);
    assert.deepEqual(given.confirmed, ['Create a token for the environment #7 environment of "Revenue"']);
    assert.deepEqual(given.calls, [
      'createEnvironmentToken(1, "7", {"security_context":{"team":"a"},"expires_in":60})',
    ]);
    assert.deepEqual(r, { expiresAt: '2026-11-28T09:00:00Z', copied: false });
    assert.deepEqual(given.shown.clipboard, []);
    assert.deepEqual(given.refreshed, [], 'no environment row: no list to refresh');
    const noExpiry = world({ noExpiry: true, confirm: false });
    const r2 = await noExpiry.flows.createToken({
      deploymentId: 1,
      environmentId: 'e',
      securityContext: {},
      expiresIn: 5,
    });
    assert.deepEqual(r2, { copied: false });
    assert.match(noExpiry.confirmations[0]!, /\| tok-2\n\nExpires at an unknown time\. \|/);
    const none = world();
    await assert.rejects(
      none.flows.createToken({ deploymentId: 1 }),
      /^Error: "Revenue" has no environments\.$/,
    );
    assert.deepEqual(none.calls, []);
  });
});
