// The signed-in user's own connections and settings through MeCommands in plain Node: each
// integration with my token's state, Connect opening the address the service answers, Check and
// Disconnect (after a modal naming it; nothing sent when declined), and My Settings sending only
// what changed.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api';
import type * as MeModule from '../../../src/admin/meCommands';
import { adminWorld, loadPrompter, recorder, standIn, type AdminWorld } from './adminStandIn';

/* eslint-disable @typescript-eslint/no-require-imports */
const load = () => ({
  ...loadPrompter(),
  ...(require('../../../src/admin/meCommands') as typeof MeModule),
});
/* eslint-enable @typescript-eslint/no-require-imports */

const TOKEN = { integrationId: 5, status: 'active', accessTokenExpiresAt: '2026-12-31T10:20:30Z' };

interface Setup extends AdminWorld {
  forbidden?: boolean;
  tokens?: unknown[];
  signIn?: Record<string, unknown>;
  check?: unknown;
  settings?: Record<string, unknown>;
  integrations?: unknown[];
}

describe('admin: my connections and my settings', () => {
  let m: ReturnType<typeof load>;
  let restore: () => void;
  before(() => ({ modules: m, restore } = standIn(load)));
  after(() => restore());

  function world(w: Setup = {}) {
    const calls: string[] = [];
    const client = {
      admin: {
        listOAuthIntegrations: async () => {
          if (w.forbidden) throw new ApiError('forbidden', 'Needs the admin role.');
          return {
            items: w.integrations ?? [
              { id: 4, name: 'snow' },
              { id: 5, name: 'bricks' },
            ],
          };
        },
        ...recorder(calls, { revokeUserOAuthToken: () => undefined }),
      },
      me: {
        listUserOAuthTokens: async () => ({ items: w.tokens ?? [TOKEN] }),
        readMySettings: async () => ({
          id: 1,
          settings: w.settings ?? { theme: 'dark', sheets: { showAppliedFilters: true } },
        }),
        ...recorder(calls, {
          initiateUserOAuth: () => w.signIn ?? { url: 'https://idp.example/authorize?x=1' },
          getUserOAuthToken: () => {
            if (w.check) throw w.check;
            return TOKEN;
          },
          updateMySettings: (b: Record<string, unknown>) => ({ id: 1, settings: b }),
        }),
      },
      listDeployments: async () => ({ items: [{ id: 9, name: 'Revenue' }, { id: 10 }] }),
    };
    const x = adminWorld(m, client, w);
    return { ...x, calls, cmds: new m.MeCommands(x.deps) };
  }

  it('a connection in one line: connected with its expiry, another status, or not connected', () => {
    const c = (token: unknown) => m.connectionState({ integrationId: 1, name: 'x', token: token as never });
    assert.equal(c(TOKEN), 'connected, access expires 2026-12-31 10:20');
    assert.equal(c({ integrationId: 1, status: 'expired' }), 'expired');
    assert.equal(c({ integrationId: 1 }), 'unknown status');
    assert.equal(c(undefined), 'not connected');
  });

  it('only the settings changed are sent; sheets toggles one by one; a cleared one as null', () => {
    const before = {
      theme: 'dark',
      locale: 'en-US',
      sheets: { showAppliedFilters: true, revealSheetOnOpen: false },
    };
    assert.deepEqual(
      m.settingsChange(before, {
        theme: 'dark',
        locale: null,
        timezone: 'Europe/Berlin',
        sheets: { showAppliedFilters: true, revealSheetOnOpen: true },
      }),
      { locale: null, timezone: 'Europe/Berlin', sheets: { revealSheetOnOpen: true } },
    );
    assert.deepEqual(m.settingsChange(before, { ...before, theme: 'dark' }), {});
    assert.deepEqual(m.settingsChange({}, { alternatingRowColors: false, defaultDeploymentId: 9 }), {
      defaultDeploymentId: 9,
      alternatingRowColors: false,
    });
  });

  it('My Connections lists every integration with my state; Connect opens the address the service answers', async () => {
    const x = world({ answers: ['snow', 'Connect'] });
    x.shown.buttons = ['Check Connection'];
    assert.equal(await x.cmds.myConnections(), 'https://idp.example/authorize?x=1');
    assert.deepEqual(
      x.prompter.rows.get('My Connections')?.map((r) => `${r.label}: ${r.description}`),
      ['snow: not connected', 'bricks: connected, access expires 2026-12-31 10:20'],
    );
    assert.deepEqual(x.prompter.offered.get('snow: not connected'), ['Connect']);
    assert.deepEqual(x.questions, [
      'pick My Connections | Pick an integration',
      'pick snow: not connected | ',
    ]);
    assert.deepEqual(x.shown.external, ['https://idp.example/authorize?x=1']);
    assert.equal(
      x.shown.messages[0],
      'info: Finish signing in to snow in your browser (idp.example), then check the connection. [Check Connection]',
    );
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(x.calls, ['initiateUserOAuth(4)', 'getUserOAuthToken(4)']);
    const noUrl = world({ signIn: {} });
    await assert.rejects(
      noUrl.cmds.connect({ integration: 'snow' }),
      /^Error: The service started the sign-in to snow but answered without an address to open\./,
    );
    assert.deepEqual(noUrl.shown.external, []);
  });

  it('Check Connection reads the token now; a missing one says the sign-in has not finished', async () => {
    const x = world({ answers: ['bricks', 'Check Connection'] });
    await x.cmds.myConnections();
    assert.deepEqual(x.prompter.offered.get('bricks: connected, access expires 2026-12-31 10:20'), [
      'Reconnect',
      'Check Connection',
      'Disconnect',
    ]);
    assert.deepEqual(x.shown.messages, ['info: bricks: connected, access expires 2026-12-31 10:20.']);
    const none = world({ check: new ApiError('notFound', 'No token.'), answers: ['Check Connection'] });
    assert.equal(
      await none.cmds.myConnections({ integration: 'bricks' }),
      'not connected (the sign-in has not finished, or was declined)',
    );
    const broken = world({ check: new ApiError('server', 'Boom.'), answers: ['Check Connection'] });
    await assert.rejects(broken.cmds.myConnections({ integration: 'bricks' }), /Boom/);
  });

  it('Disconnect asks naming the integration, revokes my token once; declined, nothing is sent', async () => {
    const x = world({ answers: ['Disconnect'] });
    assert.equal(await x.cmds.myConnections({ integration: 'bricks' }), 'disconnected');
    assert.deepEqual(x.confirmations, [
      'Disconnect from bricks? | Your token for it is revoked: whatever uses it on your behalf stops working until you connect again. | Disconnect',
    ]);
    assert.deepEqual(x.calls, ['revokeUserOAuthToken(5)']);
    assert.deepEqual(x.shown.messages, ['info: Disconnected from bricks.']);
    const no = world({ answers: ['Disconnect'], confirm: false });
    await assert.rejects(no.cmds.myConnections({ integration: 'bricks' }), { name: 'UserCancelled' });
    assert.deepEqual(no.calls, []);
  });

  it('without the admin role only my tokens are listed, by id; none at all says why', async () => {
    const x = world({ forbidden: true, answers: ['Integration 5', 'Check Connection'] });
    await x.cmds.myConnections();
    assert.deepEqual(x.prompter.offered.get('My Connections'), ['Integration 5']);
    assert.equal(
      x.questions[0],
      'pick My Connections | Your connections (listing every integration needs the admin role)',
    );
    const none = world({ forbidden: true, tokens: [] });
    await assert.rejects(
      none.cmds.myConnections(),
      /^Error: You hold no OAuth connections, and listing the integrations needs the admin role: ask an admin which to connect to\.$/,
    );
    // An admin's tenant without integrations: said where they are added.
    const empty = world({ integrations: [], tokens: [] });
    await assert.rejects(
      empty.cmds.myConnections(),
      /^Error: There are no OAuth integrations to connect to: an admin adds them under Account settings › OAuth integrations\.$/,
    );
    assert.deepEqual(empty.questions, []);
    const missing = world();
    await assert.rejects(
      missing.cmds.connect({ integration: 'nope' }),
      /^Error: There is no OAuth integration named "nope"\.$/,
    );
  });

  it('My Settings: the form shows each value, checks locale and time zone, sends only what changed', async () => {
    const x = world({
      answers: [
        'Locale',
        'xx_bad!',
        'de-DE',
        'Time zone',
        'Mars/Base',
        'Europe/Berlin',
        'Theme',
        '',
        'Default deployment',
        'Revenue',
        'Sheets: show applied filters',
        'off',
        'Save',
      ],
    });
    await x.cmds.mySettings();
    assert.deepEqual(x.prompter.refusals, [
      '"xx_bad!" is not a language tag: use one such as en-US, de-DE or pt-BR.',
      '"Mars/Base" is not a time zone: use an IANA name such as Europe/Berlin or America/New_York.',
    ]);
    const rows = x.prompter.rows.get('My Settings')!.map((r) => `${r.label}: ${r.description}`);
    assert.deepEqual(rows.slice(0, 6), [
      'Save: ready',
      'Theme: (not set)',
      'Locale: de-DE',
      'Time zone: Europe/Berlin',
      'Default deployment: Revenue',
      'Alternating row colors: (not set)',
    ]);
    assert.ok(rows.includes('Sheets: show applied filters: off'), rows.join('\n'));
    assert.deepEqual(x.questions.filter((q) => q.startsWith('input')).slice(0, 3), [
      'input My Settings: locale | Language and region for numbers and dates, e.g. en-US (empty clears it). | value=',
      'input My Settings: time zone | An IANA time zone, e.g. Europe/Berlin (empty clears it). | value=',
      'input My Settings: theme | The theme of the web app, e.g. light, dark or system (empty clears it). | value=dark',
    ]);
    assert.deepEqual(x.calls, [
      'updateMySettings({"theme":null,"locale":"de-DE","timezone":"Europe/Berlin","defaultDeploymentId":9,"sheets":{"showAppliedFilters":false}})',
    ]);
    assert.deepEqual(x.shown.messages, [
      'info: Your settings were saved (theme, locale, timezone, defaultDeploymentId, sheets options).',
    ]);
    const same = world({ answers: ['Save'] });
    await same.cmds.mySettings();
    assert.deepEqual(same.calls, []);
    assert.deepEqual(same.shown.messages, [
      'info: Nothing to save: your settings already have these values.',
    ]);
    const given = world();
    await given.cmds.mySettings({ changes: { alternatingRowColors: true } });
    assert.deepEqual(given.calls, ['updateMySettings({"alternatingRowColors":true})']);
  });

  it('My Settings names each Sheets toggle in words, with its value', async () => {
    // The labels are module constants: the module is loaded again here, so they are made inside this test.
    restore();
    ({ modules: m, restore } = standIn(load));
    const x = world({
      answers: ['Save'],
      settings: {
        alternatingRowColors: true,
        sheets: { autoRunQueryOnChange: false, showAppliedFilters: true },
      },
    });
    await x.cmds.mySettings();
    const rows = x.prompter.rows.get('My Settings')!.map((r) => `${r.label}: ${r.description}`);
    assert.deepEqual(rows.slice(5), [
      'Alternating row colors: on',
      'Sheets: run the query on change: off',
      'Sheets: open exploration from a sheet: (not set)',
      'Sheets: reveal the sheet on open: (not set)',
      'Sheets: show applied filters: on',
      'Sheets: suppress duplicate values: (not set)',
    ]);
    assert.deepEqual(x.calls, []);
  });
});
