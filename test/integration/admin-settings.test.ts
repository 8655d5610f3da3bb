// Account settings inside a real VS Code against the sandbox: the app config read as tree rows,
// OAuth integrations edited prefilled (the client secret write-only: a blank one sends none, a new
// one is counted by the sandbox but never kept, shown or put in the review), OIDC token configs
// edited one field at a time against the published patterns; then a member token, which reads the
// app config and is refused every edit with the role needed. Effects are read back from the
// sandbox (GET /__sandbox/state and the API), not from the extension.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { adminSuite, signInAsMember } from './sandboxSuite';

/* eslint-disable @typescript-eslint/no-explicit-any -- the nodes are the extension's own objects */
type Node = any;

const C = 'dashboardPlatform.explorer.';
const MEMBER_PROFILE = 'IT Settings Member';

let api: any;
let ex: any;
let base: string;

async function state(): Promise<any> {
  return (await fetch(`${base}/__sandbox/state`)).json();
}
async function platform(path: string, token = api.sandbox.current().tokens.admin): Promise<any> {
  return (await fetch(`${base}/api${path}`, { headers: { authorization: `Bearer ${token}` } })).json();
}
const children = async (node?: Node): Promise<Node[]> => ex.provider.getChildren(node);
const labelOf = (n: Node): string => String(n.toTreeItem().label);
const descOf = (n: Node): string => String(n.toTreeItem().description ?? '');
async function row(...labels: string[]): Promise<Node> {
  let node: Node = ex.provider.roots.appConfig;
  for (const l of labels) {
    const kids = await children(node);
    node = kids.find((k: Node) => labelOf(k) === l);
    assert.ok(node, `${labels.join(' › ')}: no "${l}" in ${kids.map(labelOf).join(', ')}`);
  }
  return node;
}
const diffShown = (title = '') =>
  vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .some((t) => t.input instanceof vscode.TabInputTextDiff && t.label.startsWith(title));

/**
 * Answers as a user who accepts each prefilled value except the titles given, trying each listed
 * answer in turn until the question's own validation accepts it (refusals are recorded).
 */
class PrefillPrompter {
  readonly inputs: { title: string; value?: string; password?: boolean }[] = [];
  readonly refusals: string[] = [];
  readonly confirms: string[] = [];
  constructor(
    private readonly answers: Record<string, string[]>,
    private readonly picks: Record<string, string> = {},
    private readonly confirmAnswer = true,
  ) {}
  async input(q: {
    title: string;
    value?: string;
    password?: boolean;
    validate?: (v: string) => string | undefined;
  }) {
    this.inputs.push({ title: q.title, value: q.value, password: q.password });
    const key = Object.keys(this.answers).find((k) => q.title.endsWith(k));
    for (const a of key ? this.answers[key]! : [q.value ?? '']) {
      const refused = q.validate?.(a);
      if (refused === undefined) return a;
      this.refusals.push(`${q.title}: ${refused}`);
    }
    throw new Error(`no accepted answer for ${q.title}`);
  }
  async pick(title: string, choices: { label: string; value: unknown }[]) {
    const want = Object.entries(this.picks).find(([k]) => title.endsWith(k))?.[1];
    const c = choices.find((x) => x.label === want);
    if (!c) throw new Error(`no choice ${want} in ${title}: ${choices.map((x) => x.label).join(', ')}`);
    return c.value;
  }
  async pickMany(): Promise<unknown[]> {
    return [];
  }
  /** Whether the difference was on screen when each confirmation was asked. */
  readonly diffAtConfirm: boolean[] = [];
  async confirm(message: string) {
    this.confirms.push(message);
    this.diffAtConfirm.push(diffShown());
    return this.confirmAnswer;
  }
}

describe('Admin settings', function () {
  this.timeout(180_000);

  adminSuite((s) => ({ api, ex, base } = s), MEMBER_PROFILE);

  describe('with the admin token', () => {
    it('shows the app config readably: theme, creator mode with localized titles, embedding, deprecated schemes marked', async () => {
      const served = await platform('/v1/app-config');
      const top = (await children(ex.provider.roots.appConfig)).map(labelOf);
      for (const l of ['Theme', 'Creator mode', 'Embedding', 'Time zone settings', 'Restrict data download'])
        assert.ok(top.includes(l), `${l} in ${top.join(', ')}`);
      assert.equal(
        descOf(await row('Theme', 'Palette', 'Accent', 'Colour')),
        served.appTheme.palette.accent.color,
      );
      const titles = await children(await row('Creator mode', 'Localized titles'));
      assert.deepEqual(
        titles.map((t: Node) => `${labelOf(t)}=${descOf(t)}`),
        served.creatorMode.localizedTitles.map((t: any) => `${t.locale}=${t.value}`),
      );
      assert.equal(descOf(await row('Embedding', 'Locale')), served.embedding.locale);
      assert.match(descOf(await row('Theme', 'Dark scheme')), /deprecated: use palette and logoUrl/);
      assert.equal(descOf(await row('Apply theme globally')), served.applyThemeGlobally ? 'yes' : 'no');
      // The JSON stays one command away, every field as served (deprecated ones included).
      const doc: vscode.TextDocument = await vscode.commands.executeCommand(`${C}showAppConfig`);
      assert.deepEqual(JSON.parse(doc.getText()), served);
    });

    it('edits an OAuth integration prefilled, refusing a bad URL; a blank secret sends none, a new one stays write-only', async () => {
      await vscode.commands.executeCommand(`${C}createOAuthIntegration`, {
        name: 'IT Edit OAuth',
        type: 'databricks',
        authUrl: 'https://idp.example/authorize',
        tokenUrl: 'https://idp.example/token',
        redirectUri: 'https://app.example/callback',
        clientId: 'it-edit-client',
        clientSecret: 'it-first-secret-11aa',
      });
      const find = async () =>
        (await state()).admin.oauthIntegrations.find((i: any) => i.clientId === 'it-edit-client');
      const id = (await find()).id;
      const writes = async () => (await state()).admin.oauthSecretWrites[id];
      assert.equal(await writes(), 1);

      const p = new PrefillPrompter({
        'token URL': ['token-endpoint', 'https://idp.example/oauth2/token'],
        scopes: ['sql offline_access'],
        'client secret': [''],
      });
      ex.usePrompter(p);
      const listed = (await children(ex.provider.roots.admin.settings)).find(
        (n: Node) => labelOf(n) === 'OAuth integrations',
      );
      const node = (await children(listed)).find((n: Node) => labelOf(n) === 'IT Edit OAuth');
      assert.ok(node, 'the integration is listed');
      await vscode.commands.executeCommand(`${C}editOAuthIntegration`, node);
      const asked = Object.fromEntries(
        p.inputs.map((q) => [q.title.replace(/^Edit OAuth Integration: /, ''), q]),
      );
      assert.equal(asked['name']?.value, 'IT Edit OAuth', 'prefilled with the saved name');
      assert.equal(asked['client id']?.value, 'it-edit-client');
      assert.equal(asked['client secret']?.password, true, 'the secret is asked in a password box');
      assert.equal(asked['client secret']?.value, undefined, 'the secret is never prefilled');
      assert.deepEqual(p.refusals, ['Edit OAuth Integration: token URL: Enter an absolute http(s) URL.']);
      assert.match(p.confirms[0]!, /Save 2 changes to OAuth integration IT Edit OAuth: tokenUrl, scopes\?/);
      assert.deepEqual(p.diffAtConfirm, [true], 'the difference was shown before saving');
      assert.equal(diffShown('OAuth integration IT Edit OAuth'), false, 'and closed once saved');
      const saved = await find();
      assert.equal(saved.tokenUrl, 'https://idp.example/oauth2/token');
      assert.deepEqual(saved.scopes, ['sql', 'offline_access']);
      assert.equal(saved.name, 'IT Edit OAuth', 'unchanged fields kept');
      assert.equal(await writes(), 1, 'a blank secret sent none');

      const secret = 'it-replaced-secret-42ff';
      const q = new PrefillPrompter({});
      ex.usePrompter(q);
      await vscode.commands.executeCommand(`${C}editOAuthIntegration`, {
        name: 'IT Edit OAuth',
        changes: {},
        clientSecret: secret,
      });
      assert.match(
        q.confirms[0]!,
        /Save 1 change to OAuth integration IT Edit OAuth: client secret \(replaced\)/,
      );
      assert.equal(await writes(), 2, 'the new secret was sent');
      assert.ok(!JSON.stringify(await state()).includes(secret), 'the sandbox keeps no secret');
      assert.ok(
        !vscode.workspace.textDocuments.some((d) => d.getText().includes(secret)),
        'the review never shows the secret',
      );
      assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('dashboardPlatform')).includes(secret));

      ex.usePrompter(new PrefillPrompter({}));
      await vscode.commands.executeCommand(`${C}deleteOAuthIntegration`, { name: 'IT Edit OAuth' });
      assert.equal(await find(), undefined);
    });

    it('edits one field of an OIDC token config, prefilled and checked against the published pattern; declining keeps it', async () => {
      await vscode.commands.executeCommand(`${C}createOidcTokenConfig`, {
        name: 'it-edit-oidc',
        audienceType: 'aws',
        targetEnvVar: 'CUBEJS_DB_TOKEN',
      });
      const find = async () =>
        (await state()).admin.oidcTokenConfigs.find((c: any) => c.name === 'it-edit-oidc');
      const p = new PrefillPrompter(
        { targetEnvVar: ['cubejs-token', 'CUBEJS_DB_OIDC'] },
        { setting: 'targetEnvVar' },
      );
      ex.usePrompter(p);
      await vscode.commands.executeCommand(`${C}editOidcTokenConfig`, { name: 'it-edit-oidc' });
      assert.equal(p.inputs[0]?.value, 'CUBEJS_DB_TOKEN', 'prefilled with the saved value');
      assert.equal(p.refusals.length, 1, p.refusals.join('; '));
      assert.match(p.refusals[0]!, /CUBEJS_DB_TOKEN/);
      assert.match(p.confirms[0]!, /Save 1 change to OIDC token config it-edit-oidc: targetEnvVar\?/);
      assert.equal((await find()).targetEnvVar, 'CUBEJS_DB_OIDC');
      assert.deepEqual(
        [p.diffAtConfirm, diffShown('OIDC token config it-edit-oidc')],
        [[true], false],
        'shown while asked, closed once saved',
      );

      ex.usePrompter(new PrefillPrompter({}, {}, false));
      await vscode.commands.executeCommand(`${C}editOidcTokenConfig`, {
        name: 'it-edit-oidc',
        changes: { isEnabled: false },
      });
      assert.equal((await find()).isEnabled, true, 'declining the review keeps the config');

      ex.usePrompter(new PrefillPrompter({}));
      await vscode.commands.executeCommand(`${C}editOidcTokenConfig`, {
        name: 'it-edit-oidc',
        changes: { isEnabled: false, subFormat: 'deployment:{deployment_id}' },
      });
      const saved = await find();
      assert.deepEqual([saved.isEnabled, saved.subFormat], [false, 'deployment:{deployment_id}']);
      await vscode.commands.executeCommand(`${C}deleteOidcTokenConfig`, { name: 'it-edit-oidc' });
      assert.equal(await find(), undefined);
    });
  });

  describe('with a non-admin token', () => {
    before(() => signInAsMember(MEMBER_PROFILE, { api, ex, base }));

    it('reads the app config, and is refused OAuth and OIDC edits with the role needed, nothing changed', async () => {
      const top = await children(ex.provider.roots.appConfig);
      assert.ok(
        top.some((n: Node) => labelOf(n) === 'Creator mode'),
        top.map(labelOf).join(', '),
      );
      const before = JSON.stringify((await state()).admin.oidcTokenConfigs);
      const edit = api.admin.settingsEdit;
      // Called directly: the command wrapper would show the error instead of returning it.
      await assert.rejects(
        edit.editOAuthIntegration({ name: 'Snowflake OAuth', changes: {}, clientSecret: '' }),
        /needs the admin role/,
      );
      await assert.rejects(
        edit.editOidcTokenConfig({ name: 'warehouse-federation', changes: { isEnabled: false } }),
        /needs the admin role/,
      );
      assert.equal(JSON.stringify((await state()).admin.oidcTokenConfigs), before);
    });
  });
});
