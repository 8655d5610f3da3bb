// Embedding and account settings through EmbedSettingsCommands in plain Node: an embed preview's
// session request (its id redacted before anything, the page opened), revoking it, the tenant
// settings form (what each row shows, Save only once something changed, production asked), creating
// OAuth integrations and OIDC configs, removals after a modal naming what goes, and nothing sent
// when a removal is declined.
import assert from 'node:assert/strict';
import type * as EmbedSettingsModule from '../../../src/admin/embedSettingsCommands';
import { adminWorld, loadPrompter, recorder, standIn, type AdminWorld } from './adminStandIn';

/* eslint-disable @typescript-eslint/no-require-imports */
const load = () => ({
  ...loadPrompter(),
  ...(require('../../../src/admin/embedSettingsCommands') as typeof EmbedSettingsModule),
});
/* eslint-enable @typescript-eslint/no-require-imports */

const SETTINGS = {
  auditLogEnabled: true,
  hasSupportAccess: null,
  maintenanceWindowDay: 'Monday',
  maintenanceWindowTime: '02:00',
};

describe('admin: embedding and account settings', () => {
  let m: ReturnType<typeof load>;
  let restore: () => void;
  before(() => ({ modules: m, restore } = standIn(load)));
  after(() => restore());

  function world(w: AdminWorld = {}) {
    const calls: string[] = [];
    const admin = {
      listEmbedTenants: async () => ({
        items: [{ name: 'acme', displayName: 'Acme Inc' }, { name: 'beta' }],
      }),
      listEmbedGroups: async (t: string) => ({ items: t === 'acme' ? [{ name: 'viewers' }] : [] }),
      getTenantSettings: async () => SETTINGS,
      listOAuthIntegrations: async () => ({
        items: [
          { id: 4, name: 'snow' },
          { id: 5, name: 'bricks' },
        ],
      }),
      listOidcTokenConfigs: async () => ({ items: [{ id: 2, name: 'deploy-token' }] }),
      listUserOAuthTokens: async () => ({
        items: [
          { id: 1, integrationId: 5 },
          { id: 2, integrationId: 77 },
        ],
      }),
      ...recorder(calls, {
        generateEmbedSession: () => ({ sessionId: 'sess-SECRET-1' }),
        revokeEmbedSession: () => ({}),
        updateTenantSettings: (b: Record<string, unknown>) => ({ ...SETTINGS, ...b }),
        createOAuthIntegration: (b: Record<string, unknown>) => ({ id: 6, ...b }),
        createOidcTokenConfig: (b: Record<string, unknown>) => ({ id: 3, ...b }),
        deleteOAuthIntegration: () => undefined,
        deleteOidcTokenConfig: () => undefined,
        revokeUserOAuthToken: () => undefined,
      }),
    };
    const client = {
      admin,
      listWorkbooks: async () => ({
        items: [
          { id: 1, name: 'Sales wb', publishedDashboard: { id: 11, title: 'Sales', publicId: 'pub-1' } },
          { id: 2, name: 'Draft' },
          { id: 3, name: 'Ops wb', publishedDashboard: { id: 13, publicId: 'pub 3' } },
        ],
      }),
      ...recorder(calls, { deleteEmbedTenant: () => undefined }),
    };
    const x = adminWorld(m, client, w);
    return { ...x, calls, cmds: new m.EmbedSettingsCommands(x.deps) };
  }

  it('Preview Embedded Dashboard: picks dashboard, tenant, group and user; redacts the session; opens the page', async () => {
    const x = world({ answers: ['Sales', 'acme', 'viewers', ' ', ' user-1 '] });
    const r = await x.cmds.previewEmbed({ deploymentId: 9 });
    assert.deepEqual(x.prompter.rows.get('Published dashboard'), [
      { label: 'Sales', description: 'Sales wb', detail: undefined },
      { label: 'Ops wb', description: 'Ops wb', detail: undefined },
    ]);
    assert.deepEqual(
      x.prompter.rows.get('Embed tenant')?.map((t) => `${t.label} ${t.description}`),
      ['acme Acme Inc', 'beta undefined'],
    );
    assert.deepEqual(x.prompter.offered.get('Tenant group'), ['(no group)', 'viewers']);
    assert.deepEqual(x.prompter.refusals, ['Enter an external id.']);
    assert.deepEqual(x.questions, [
      'pick Published dashboard | Pick published dashboard',
      'pick Embed tenant | Pick embed tenant',
      'pick Tenant group | The embed user joins this tenant group',
      'input Preview Embedded Dashboard | External id of the end user to preview as (your application’s user id). | value=vscode-preview',
    ]);
    assert.deepEqual(x.calls, [
      'generateEmbedSession({"deploymentId":9,"externalId":"user-1","embedTenantName":"acme","publicDashboardId":"pub-1","creatorMode":true,"tenantGroups":["viewers"]})',
    ]);
    assert.deepEqual(x.secrets, ['sess-SECRET-1']);
    const url = 'https://cloud.example/embed/dashboard/pub-1?session=sess-SECRET-1';
    assert.deepEqual(x.shown.commands, [`simpleBrowser.show ["${url}"]`]);
    assert.deepEqual(r, { sessionId: 'sess-SECRET-1', dashboard: 'Sales', tenant: 'acme', url });
    const plain = world();
    await plain.cmds.previewEmbed({
      deploymentId: 9,
      publicId: 'pub 3',
      tenant: 'beta',
      group: '',
      externalId: 'u',
    });
    assert.deepEqual(plain.calls, [
      'generateEmbedSession({"deploymentId":9,"externalId":"u","embedTenantName":"beta","publicDashboardId":"pub 3"})',
    ]);
    assert.equal(plain.cmds.sessions[0]?.dashboard, 'Ops wb');
    // A profile without a platform address (or none active): the page is looked for on this machine.
    const given = { deploymentId: 9, publicId: 'pub-1', tenant: 'acme', group: '', externalId: 'u' };
    const profiles = [{ profile: { name: 'Local' } }, undefined];
    for (const active of profiles) {
      const local = world();
      (local.deps as { services: { profiles: { active: () => unknown } } }).services.profiles.active = () =>
        active;
      const r = await local.cmds.previewEmbed(given);
      assert.equal(r.url, 'http://localhost/embed/dashboard/pub-1?session=sess-SECRET-1', String(active));
      assert.deepEqual(local.shown.commands, [`simpleBrowser.show ["${r.url}"]`]);
    }
    const missing = world();
    await assert.rejects(
      missing.cmds.previewEmbed({ deploymentId: 9, publicId: 'nope' }),
      /^Error: There is no published dashboard nope in this deployment\.$/,
    );
    assert.deepEqual(missing.calls, []);
  });

  it('Revoke Embed Session names the dashboard and tenant, sends the session once, forgets it', async () => {
    const x = world();
    await x.cmds.previewEmbed({
      deploymentId: 9,
      publicId: 'pub-1',
      tenant: 'acme',
      group: '',
      externalId: 'u',
    });
    await x.cmds.revokeSession();
    assert.deepEqual(x.confirmations, [
      'Revoke the embed session of "Sales" for tenant acme? | The embedded dashboard stops working for that session; its token is rejected from now on. | Revoke',
    ]);
    assert.deepEqual(x.calls.slice(1), ['revokeEmbedSession({"sessionId":"sess-SECRET-1"})']);
    assert.deepEqual(x.shown.messages, ['info: Embed session of "Sales" revoked.']);
    assert.deepEqual(x.cmds.sessions, []);
    const no = world({ confirm: false });
    await no.cmds.previewEmbed({
      deploymentId: 9,
      publicId: 'pub-1',
      tenant: 'acme',
      group: '',
      externalId: 'u',
    });
    await assert.rejects(no.cmds.revokeSession({ sessionId: 'sess-SECRET-1' }), { name: 'UserCancelled' });
    assert.equal(no.cmds.sessions.length, 1);
    assert.ok(!no.calls.some((c) => c.startsWith('revoke')), no.calls.join('\n'));
  });

  it('the tenant settings form: every setting with its value, toggles, Save once something changed', async () => {
    const x = world({
      answers: [
        'auditLogEnabled',
        'maintenanceWindowTime',
        '25:00',
        ' 23:59 ',
        'maintenanceWindowDay',
        'Sunday',
        'hasSupportAccess',
        'hasSupportAccess',
        'save',
      ],
    });
    const saved = await x.cmds.editTenantSettings();
    const rows = x.prompter.rows.get('Tenant Settings')!;
    assert.deepEqual(
      rows.map((r) => `${r.label}: ${r.description}`),
      [
        '$(check) Save 4 changes: Audit log, Support access, Maintenance window day, Maintenance window time',
        'Audit log: off  (was on)',
        // Not set, toggled on, then off: off is a value the tenant did not have.
        'Support access: off  (was not set)',
        'AI BI user interface: not set',
        'Maintenance window: not set',
        'Maintenance window day: Sunday  (was Monday)',
        'Maintenance window time: 23:59  (was 02:00)',
        'OIDC: not set',
      ],
    );
    assert.equal(rows[1]!.detail, 'Record who did what in the tenant');
    assert.deepEqual(x.prompter.refusals, ['Use HH:MM, from 00:00 to 23:59.']);
    assert.deepEqual(x.calls, [
      'updateTenantSettings({"auditLogEnabled":false,"hasSupportAccess":false,"maintenanceWindowDay":"Sunday","maintenanceWindowTime":"23:59"})',
    ]);
    assert.deepEqual(x.shown.messages, [
      'info: Tenant settings saved: Audit log, Support access, Maintenance window day, Maintenance window time.',
    ]);
    assert.equal((saved as { auditLogEnabled: boolean }).auditLogEnabled, false);
  });

  it('tenant settings: nothing changed sends nothing; production shows the diff and asks; declined sends nothing', async () => {
    // The diff's scheme is a module constant: the module is loaded again here, so it is made inside this test.
    restore();
    ({ modules: m, restore } = standIn(load));
    const same = world();
    await same.cmds.editTenantSettings({ changes: { auditLogEnabled: true } });
    assert.deepEqual(same.calls, []);
    assert.deepEqual(same.shown.messages, [
      'info: Nothing to save: the tenant settings already have these values.',
    ]);
    const prod = world({ production: true });
    await prod.cmds.editTenantSettings({ changes: { oidcEnabled: true } });
    assert.deepEqual(prod.confirmations, [
      'Save 1 tenant setting on the production profile "Live"? | This profile is marked as production: the change applies to live data. | Save',
    ]);
    assert.ok(
      prod.shown.commands.some((c) => c.startsWith('vscode.diff')),
      prod.shown.commands.join('\n'),
    );
    assert.deepEqual(prod.calls, ['updateTenantSettings({"oidcEnabled":true})']);
    // Both sides are served under the command set's own scheme: the saved settings, and the edit.
    prod.cmds.register(() => ({ dispose() {} }) as never);
    const docs = prod.shown.providers.get('dashboard-platform-diff');
    const diff = prod.shown.commands.find((c) => c.startsWith('vscode.diff'))!;
    const sides = [...diff.matchAll(/"path":"([^"]+)"/g)].map((p) =>
      docs?.provideTextDocumentContent({ toString: () => `dashboard-platform-diff:${p[1]}` }),
    );
    assert.equal(sides.length, 2, diff);
    assert.match(String(sides[0]), /"auditLogEnabled": true/);
    assert.match(String(sides[1]), /"oidcEnabled": true/);
    const no = world({ production: true, confirm: false });
    await no.cmds.editTenantSettings({ changes: { oidcEnabled: true, auditLogEnabled: false } });
    assert.equal(
      no.confirmations[0]?.split(' | ')[0],
      'Save 2 tenant settings on the production profile "Live"?',
    );
    assert.deepEqual(no.calls, []);
  });

  it('Create OAuth Integration asks each field (URLs checked), redacts the secret, sends it once', async () => {
    const x = world({
      answers: [
        '',
        'snow',
        'snowflake',
        'a.example',
        'xhttps://a.example',
        'https://a b',
        'ftp://a.example',
        'http://a.example/auth',
        'https://a.example/token',
        'https://app/cb',
        'cid',
        '',
        ' sec ',
      ],
    });
    await x.cmds.createOAuthIntegration();
    assert.deepEqual(x.prompter.refusals, [
      'Required.',
      'Enter an http(s) URL.',
      'Enter an http(s) URL.',
      'Enter an http(s) URL.',
      'Enter an http(s) URL.',
      'Required.',
    ]);
    assert.deepEqual(
      x.questions.at(-1),
      'input Create OAuth Integration: client secret | The client secret: sent once to the service, never stored or shown. | value= | password',
    );
    assert.deepEqual(x.secrets, ['sec']);
    assert.deepEqual(x.calls, [
      'createOAuthIntegration({"name":"snow","type":"snowflake","authUrl":"http://a.example/auth","tokenUrl":"https://a.example/token","redirectUri":"https://app/cb","clientId":"cid","clientSecret":"sec"})',
    ]);
    assert.deepEqual(x.shown.messages, ['info: OAuth integration "snow" created.']);
    assert.deepEqual(x.refreshed, [undefined]);
  });

  it('Create OIDC Token Config checks the name and the variable; an empty variable is left out', async () => {
    const x = world({ answers: ['Bad', 'deploy-2', ' ', 'aws', 'lower', ''] });
    await x.cmds.createOidcConfig();
    assert.deepEqual(x.prompter.refusals, [
      'Use lowercase letters, digits and dashes.',
      'Required.',
      'Use a name such as CUBEJS_DB_TOKEN.',
    ]);
    assert.deepEqual(x.calls, ['createOidcTokenConfig({"name":"deploy-2","audienceType":"aws"})']);
    assert.deepEqual(x.shown.messages, ['info: OIDC token config "deploy-2" created.']);
    const env = world();
    await env.cmds.createOidcConfig({ name: ' n ', audienceType: ' gcp ', targetEnvVar: ' TOKEN ' });
    assert.deepEqual(env.calls, [
      'createOidcTokenConfig({"name":"n","audienceType":"gcp","targetEnvVar":"TOKEN"})',
    ]);
    // Spaces alone are no variable: left out too.
    const blank = world({ answers: ['n', 'gcp', '   '] });
    await blank.cmds.createOidcConfig();
    assert.deepEqual(blank.calls, ['createOidcTokenConfig({"name":"n","audienceType":"gcp"})']);
  });

  it('removals name what goes, send the one delete, and nothing when declined', async () => {
    const cases: [
      Parameters<EmbedSettingsModule.EmbedSettingsCommands['deleteListed']>,
      string,
      string,
      string,
    ][] = [
      [
        [{ name: 'bricks' }, 'oauth'],
        'Delete the OAuth integration "bricks"? | Everything that uses "bricks" stops working. This cannot be undone. | Delete',
        'deleteOAuthIntegration(5)',
        'info: "bricks" deleted.',
      ],
      [
        [{ name: 'deploy-token' }, 'oidc'],
        'Delete the OIDC token config "deploy-token"? | Everything that uses "deploy-token" stops working. This cannot be undone. | Delete',
        'deleteOidcTokenConfig(2)',
        'info: "deploy-token" deleted.',
      ],
      [
        [{ name: 'bricks' }, 'token'],
        'Revoke your OAuth token for bricks? | You will need to sign in to the provider again. | Revoke',
        'revokeUserOAuthToken(5)',
        'info: OAuth token for bricks revoked.',
      ],
    ];
    for (const [args, confirmation, call, message] of cases) {
      const x = world();
      await x.cmds.deleteListed(...args);
      assert.deepEqual(x.confirmations, [confirmation]);
      assert.deepEqual(x.calls, [call]);
      assert.deepEqual(x.shown.messages, [message]);
      const no = world({ confirm: false });
      await assert.rejects(no.cmds.deleteListed(...args), { name: 'UserCancelled' });
      assert.deepEqual(no.calls, []);
    }
    const picked = world({ answers: ['integration 77'] });
    await picked.cmds.deleteListed(undefined, 'token');
    assert.deepEqual(picked.prompter.offered.get('OAuth token'), ['bricks', 'integration 77']);
    assert.deepEqual(picked.calls, ['revokeUserOAuthToken(77)']);
  });

  it('Delete Embed Tenant always asks naming it (and production confirms); declined, nothing is sent', async () => {
    const x = world({ answers: ['beta'] });
    assert.equal(await x.cmds.deleteEmbedTenant(), true);
    assert.deepEqual(
      x.prompter.rows.get('Delete Embed Tenant')?.map((r) => r.description),
      ['Acme Inc', undefined],
    );
    assert.deepEqual(x.confirmations, [
      'Delete the embed tenant "beta"? | This deletes its users, groups, memberships, attributes, policies and content. It cannot be undone. | Delete',
    ]);
    assert.deepEqual(x.calls, ['deleteEmbedTenant("beta")']);
    assert.deepEqual(x.shown.messages, ['info: Embed tenant "beta" deleted.']);
    const named = world();
    await named.cmds.deleteEmbedTenant(' acme ');
    assert.deepEqual(named.calls, ['deleteEmbedTenant("acme")']);
    const no = world({ confirm: false });
    await assert.rejects(no.cmds.deleteEmbedTenant('acme'), { name: 'UserCancelled' });
    assert.deepEqual(no.calls, []);
  });
});
