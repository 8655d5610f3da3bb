// Editing an OAuth integration and an OIDC token config through SettingsEditCommands in plain Node:
// every field prefilled and checked, the client secret write-only (redacted before anything, never
// in the review, left out when none is typed), saved ↔ edited shown before one confirmation naming
// the changes, nothing sent when nothing changed or the save is declined.
import assert from 'node:assert/strict';
import type * as SettingsModule from '../../../src/admin/settingsEditCommands';
import { adminWorld, loadPrompter, recorder, standIn, type AdminWorld } from './adminStandIn';

/* eslint-disable @typescript-eslint/no-require-imports */
const load = () => ({
  ...loadPrompter(),
  ...(require('../../../src/admin/settingsEditCommands') as typeof SettingsModule),
});
/* eslint-enable @typescript-eslint/no-require-imports */

const SNOW = {
  id: 4,
  name: 'snow',
  type: 'snowflake',
  authUrl: 'https://a.example/auth',
  tokenUrl: 'https://a.example/token',
  redirectUri: 'https://app.example/cb',
  clientId: 'cid',
  scopes: ['read'],
  config: { account: 'x' },
};
const OIDC = {
  id: 2,
  name: 'deploy-token',
  audience: 'sts',
  targetEnvVar: 'TOKEN',
  customClaims: { a: 1 },
  isEnabled: true,
};

describe('admin: editing OAuth integrations and OIDC token configs', () => {
  let m: ReturnType<typeof load>;
  let restore: () => void;
  before(() => ({ modules: m, restore } = standIn(load)));
  after(() => restore());

  function world(w: AdminWorld & { oauth?: Record<string, unknown> } = {}) {
    const calls: string[] = [];
    const admin = {
      listOAuthIntegrations: async () => ({ items: [w.oauth ?? SNOW, { id: 5, name: 'other' }] }),
      listOidcTokenConfigs: async () => ({ items: [OIDC] }),
      // Read by its id: another id is an integration this test does not have.
      getOAuthIntegration: async (id: number) => {
        const i = [w.oauth ?? SNOW, { id: 5, name: 'other' }].find((x) => x.id === id);
        if (!i) throw new Error(`No OAuth integration ${id}.`);
        return i;
      },
      getOidcTokenConfig: async () => OIDC,
      ...recorder(calls, {
        updateOAuthIntegration: (_id: never, b: Record<string, unknown>) => ({ id: 4, ...b }),
        updateOidcTokenConfig: (_id: never, b: Record<string, unknown>) => ({ ...OIDC, ...b }),
      }),
    };
    const x = adminWorld(m, { admin }, w);
    return { ...x, calls, cmds: new m.SettingsEditCommands(x.deps) };
  }

  it('the rules: an absolute http(s) URL; the keys whose JSON differs', () => {
    assert.equal(m.urlProblem(' https://x.example/a '), undefined);
    assert.equal(m.urlProblem('http://x.example'), undefined);
    for (const bad of ['x.example', 'ftp://x.example', ''])
      assert.equal(m.urlProblem(bad), 'Enter an absolute http(s) URL.', bad);
    assert.deepEqual(m.changedKeys({ a: 1, b: [1], c: null }, { a: 1, b: [2], c: undefined, d: 'x' }), [
      'b',
      'd',
    ]);
  });

  it('Edit OAuth Integration: each field prefilled and checked, the secret redacted and never shown', async () => {
    // The steps, the placeholder and the diff scheme are module constants: the module is loaded again
    // here, so they are made inside this test.
    restore();
    ({ modules: m, restore } = standIn(load));
    const x = world({
      answers: [
        'snow',
        '',
        'snow-2',
        '',
        'snowflake',
        'not a url',
        'https://b.example/auth',
        'https://a.example/token',
        'https://app.example/cb',
        'cid',
        'read, write',
        ' s3cr3t ',
      ],
    });
    await x.cmds.editOAuthIntegration();
    assert.deepEqual(x.prompter.refusals, ['Required.', 'Required.', 'Enter an absolute http(s) URL.']);
    assert.deepEqual(x.prompter.asked.slice(1), [
      'Edit OAuth Integration: name (Step 1 of 8)',
      'Edit OAuth Integration: type (Step 2 of 8)',
      'Edit OAuth Integration: authorization URL (Step 3 of 8)',
      'Edit OAuth Integration: token URL (Step 4 of 8)',
      'Edit OAuth Integration: redirect URI (Step 5 of 8)',
      'Edit OAuth Integration: client id (Step 6 of 8)',
      'Edit OAuth Integration: scopes (Step 7 of 8)',
      'Edit OAuth Integration: client secret (Step 8 of 8)',
    ]);
    assert.deepEqual(x.secrets, ['s3cr3t']);
    assert.deepEqual(x.questions.slice(0, 2), [
      'pick OAuth integration | Pick oauth integration',
      'input Edit OAuth Integration: name | The integration’s name. | value=snow',
    ]);
    assert.equal(
      x.questions.at(-1),
      'input Edit OAuth Integration: client secret | New client secret, or leave empty to send none. The published API makes the secret optional on update but does not say what leaving it out does; the service is expected to keep the current one. | value= | password',
    );
    // The edited side of the review holds the placeholder, never the secret; the saved side as read.
    x.cmds.register(() => ({ dispose() {} }) as never);
    const docs = x.shown.providers.get('dashboard-platform-settings-diff')!;
    const side = (which: string) =>
      docs.provideTextDocumentContent({
        toString: () => `dashboard-platform-settings-diff:/OAuth-integration-snow (${which}).json`,
      });
    assert.match(side('edited'), /"clientSecret": "\(new secret: sent once, not shown\)"/);
    assert.ok(!side('edited').includes('s3cr3t') && !side('saved').includes('clientSecret'), side('saved'));
    assert.match(side('saved'), /"name": "snow"/);
    assert.deepEqual(x.confirmations, [
      'Save 4 changes to OAuth integration snow: name, authUrl, scopes, client secret (replaced)? | The difference is shown in the editor. | Save',
    ]);
    // The review (the diff) shows the placeholder, never the secret.
    const diff = x.shown.commands.find((c) => c.startsWith('vscode.diff'))!;
    assert.ok(diff.includes('OAuth integration snow: saved ↔ edited'), diff);
    assert.ok(!x.shown.commands.join('').includes('s3cr3t'));
    assert.deepEqual(x.calls, [
      'updateOAuthIntegration(4, {"name":"snow-2","type":"snowflake","authUrl":"https://b.example/auth","tokenUrl":"https://a.example/token","redirectUri":"https://app.example/cb","clientId":"cid","scopes":["read","write"],"config":{"account":"x"},"clientSecret":"s3cr3t"})',
    ]);
    assert.deepEqual(x.shown.messages, [
      'info: OAuth integration "snow-2" saved (name, authUrl, scopes, client secret (replaced)).',
    ]);
    assert.deepEqual(x.refreshed, [undefined]);
  });

  it('no secret typed sends none; nothing changed sends nothing; declined sends nothing', async () => {
    const x = world();
    await x.cmds.editOAuthIntegration({ name: 'snow', changes: { clientId: 'cid-2' }, clientSecret: ' ' });
    assert.deepEqual(x.prompter.asked, []);
    assert.deepEqual(x.secrets, []);
    assert.equal(x.calls.length, 1);
    assert.ok(!x.calls[0]!.includes('clientSecret'), x.calls[0]);
    assert.deepEqual(x.shown.messages, ['info: OAuth integration "snow" saved (clientId).']);
    const same = world();
    await same.cmds.editOAuthIntegration({ name: 'snow', changes: {}, clientSecret: '' });
    assert.deepEqual(same.calls, []);
    assert.deepEqual(same.shown.messages, [
      'info: Nothing to save: OAuth integration snow already has these values.',
    ]);
    const no = world({ confirm: false });
    await assert.rejects(
      no.cmds.editOAuthIntegration({ name: 'snow', changes: { clientId: 'z' }, clientSecret: '' }),
      { name: 'UserCancelled' },
    );
    assert.deepEqual(no.calls, []);
    // No scopes before and none typed: none sent.
    const bare = world({
      oauth: { ...SNOW, scopes: undefined, config: undefined },
      answers: ['snow', 'snow', 'snowflake', SNOW.authUrl, SNOW.tokenUrl, SNOW.redirectUri, 'cid', '', ''],
    });
    await bare.cmds.editOAuthIntegration();
    assert.deepEqual(bare.shown.messages, [
      'info: Nothing to save: OAuth integration snow already has these values.',
    ]);
  });

  it('Edit OIDC Token Config: one field picked (shown with its value), checked, sent alone', async () => {
    const x = world({ answers: ['deploy-token', 'targetEnvVar', 'lower', ''] });
    await x.cmds.editOidcTokenConfig();
    assert.deepEqual(
      x.prompter.rows.get('OIDC token config setting')?.map((r) => `${r.label}: ${r.description}`),
      [
        'customAudience: now "sts"',
        'customClaims: now {"a":1}',
        'isEnabled: now true',
        'name: now "deploy-token"',
        'subFormat: now null',
        'targetEnvVar: now "TOKEN"',
      ],
    );
    assert.deepEqual(x.prompter.refusals, ['Use a name such as CUBEJS_DB_TOKEN (at most 128 characters).']);
    assert.deepEqual(x.calls, ['updateOidcTokenConfig(2, {"targetEnvVar":null})']);
    assert.deepEqual(x.shown.messages, ['info: OIDC token config "deploy-token" saved (targetEnvVar).']);
    const cases: [string[], string][] = [
      [['name', 'Bad_Name', 'good-name'], '{"name":"good-name"}'],
      [['subFormat', 'a b', 'repo:{deployment_id}'], '{"subFormat":"repo:{deployment_id}"}'],
      [['customClaims', '[1]', '{"team":"data"}'], '{"customClaims":{"team":"data"}}'],
      [['customClaims', ''], '{"customClaims":null}'],
      [['customAudience', '', 'api'], '{"customAudience":"api"}'],
      [['isEnabled', 'false'], '{"isEnabled":false}'],
    ];
    for (const [answers, body] of cases) {
      const c = world({ answers: [...answers] });
      await c.cmds.editOidcTokenConfig({ name: 'deploy-token' });
      assert.deepEqual(c.calls, [`updateOidcTokenConfig(2, ${body})`], answers.join(' '));
      assert.equal(c.prompter.refusals.length, answers.length - 2, answers.join(' '));
    }
    const same = world({ answers: ['deploy-token', 'customAudience', 'sts'] });
    await same.cmds.editOidcTokenConfig();
    assert.deepEqual(same.calls, []);
    assert.deepEqual(same.shown.messages, [
      'info: Nothing to save: OIDC token config deploy-token already has these values.',
    ]);
  });
});
