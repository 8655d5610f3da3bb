// The Administration root inside a real VS Code against the sandbox, once with the admin token
// (every area: users and roles, SCIM groups, embedding preview and revoke, account settings) and
// once with the member token (each admin list shows one row naming the admin role). Effects are
// read back from the sandbox (GET /__sandbox/state), not from the extension.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { screenshot, waitFor } from './harness';
import { adminSuite, signInAsMember } from './sandboxSuite';

/* eslint-disable @typescript-eslint/no-explicit-any -- the nodes are the extension's own objects */
type Node = any;

const C = 'dashboardPlatform.explorer.';
const MEMBER_PROFILE = 'IT Member';

let api: any;
let ex: any;
let base: string;

async function state(): Promise<any> {
  const res = await fetch(`${base}/__sandbox/state`);
  return res.json();
}
const children = async (node?: Node): Promise<Node[]> => ex.provider.getChildren(node);
const labelOf = (n: Node): string => String(n.toTreeItem().label);
const items = (kids: Node[]) => kids.filter((n) => !['loadMore', 'error', 'empty', 'info'].includes(n.kind));

describe('administration', function () {
  this.timeout(180_000);

  adminSuite((s) => ({ api, ex, base } = s), MEMBER_PROFILE);

  describe('with the admin token', () => {
    it('shows Administration in place of Users, with every section and names, and takes its screenshot', async () => {
      const root = await children();
      assert.deepEqual(root.map(labelOf), ['Deployments', 'App config', 'Administration']);
      const admin = root[2];
      assert.deepEqual((await children(admin)).map(labelOf), [
        'Users',
        'User attributes',
        'Groups',
        'Roles',
        'Embed tenants',
        'Account settings',
      ]);
      const users = items(await children(ex.provider.roots.admin.users));
      assert.ok(users.some((u: Node) => labelOf(u) === 'admin@sandbox.example'));
      const groups = items(await children(ex.provider.roots.admin.groups));
      const finance = groups.find((g: Node) => labelOf(g) === 'Finance');
      assert.ok(finance, 'the Finance group');
      assert.ok((await children(finance)).length >= 1, 'its members are listed');
      const roles = items(await children(ex.provider.roots.admin.roles));
      const actions = (await Promise.all(roles.map((r: Node) => children(r)))).flat().map(labelOf);
      assert.ok(actions.includes('SecretsManage') && actions.includes('DownloadData'), actions.join(','));
      const tenants = items(await children(ex.provider.roots.admin.embedTenants));
      const acme = tenants.find((t: Node) => labelOf(t) === 'acme');
      assert.ok(acme, 'the acme tenant is listed by name');
      const [tg, tu] = await children(acme);
      assert.deepEqual(
        items(await children(tg))
          .map(labelOf)
          .sort(),
        ['creators', 'viewers'],
      );
      assert.ok(items(await children(tu)).some((u: Node) => labelOf(u) === 'user1@acme.example'));
      const settings = await children(ex.provider.roots.admin.settings);
      assert.deepEqual(settings.map(labelOf), [
        'Tenant settings',
        'Regions',
        'OAuth integrations',
        'OIDC token configs',
        'My OAuth tokens',
      ]);
      assert.equal(
        settings[0].toTreeItem().contextValue,
        'dp.tenantSettings',
        'the row its menu is keyed on',
      );
      for (const l of settings.slice(1)) {
        const kids = await children(l);
        assert.ok(items(kids).length > 0, `${labelOf(l)}: ${kids.map(labelOf).join(', ')}`);
      }
      const tokens = items(await children(settings[4]));
      assert.equal(labelOf(tokens[0]), 'Snowflake OAuth', 'a token is named by its integration');
      // The screenshot: Administration expanded with its sections and a tenant open.
      await ex.view.reveal(admin, { expand: true });
      for (const n of [ex.provider.roots.admin.roles, ex.provider.roots.admin.embedTenants, acme, tg])
        await ex.view.reveal(n, { expand: true });
      await ex.view.reveal(ex.provider.roots.admin.settings, { expand: true });
      await screenshot('administration');
    });

    it('searches users with a SCIM filter and pages them with Load more', async () => {
      await vscode.commands.executeCommand(`${C}searchUsers`, { userName: 'user3@sandbox.example' });
      const list = ex.provider.roots.admin.users;
      const found = await children(list);
      assert.deepEqual(found.map(labelOf), ['user3@sandbox.example']);
      assert.match(String(list.toTreeItem().description), /user3@sandbox\.example/);
      await vscode.commands.executeCommand(`${C}clearUsersSearch`);
      const cfg = () => vscode.workspace.getConfiguration('dashboardPlatform.explorer');
      await cfg().update('pageSize', 5, vscode.ConfigurationTarget.Global);
      try {
        await waitFor('page size 5', () => (cfg().get('pageSize') === 5 ? true : undefined));
        ex.provider.refresh();
        const users = ex.provider.roots.admin.users;
        let kids = await children(users);
        assert.equal(items(kids).length, 5);
        const more = kids.find((n: Node) => n.kind === 'loadMore');
        assert.ok(more, 'Load more after the first SCIM page');
        await vscode.commands.executeCommand(`${C}loadMore`, more);
        kids = await children(users);
        assert.equal(items(kids).length, 10, 'the next startIndex page appended');
      } finally {
        await cfg().update('pageSize', undefined, vscode.ConfigurationTarget.Global);
        ex.provider.refresh();
      }
    });

    it('creates, deactivates and deletes a user, and assigns and removes a role', async () => {
      const made: any = await vscode.commands.executeCommand(`${C}createUser`, {
        email: 'it-new@sandbox.example',
        firstName: 'Ina',
      });
      const row = () =>
        fetch(
          `${base}/api/scim/v2/Users?filter=${encodeURIComponent('userName eq "it-new@sandbox.example"')}`,
          {
            headers: { authorization: `Bearer ${api.sandbox.current().tokens.admin}` },
          },
        ).then((r) => r.json());
      const created = (await row()).Resources[0];
      assert.ok(created, 'the user exists in SCIM');
      await vscode.commands.executeCommand(`${C}assignRole`, {
        userName: 'it-new@sandbox.example',
        role: 'secrets-manager',
      });
      assert.deepEqual((await state()).admin.roleAssignments[made.id], [502]);
      ex.script([], false);
      await vscode.commands.executeCommand(`${C}removeRole`, {
        userName: 'it-new@sandbox.example',
        role: 'secrets-manager',
      });
      assert.deepEqual(
        (await state()).admin.roleAssignments[made.id],
        [502],
        'declining the modal keeps the role',
      );
      const p = ex.script([]);
      await vscode.commands.executeCommand(`${C}removeRole`, {
        userName: 'it-new@sandbox.example',
        role: 'secrets-manager',
      });
      assert.match(p.asked[0], /Remove the role "secrets-manager" from Ina/);
      assert.deepEqual((await state()).admin.roleAssignments[made.id], []);
      ex.script([]);
      await vscode.commands.executeCommand(`${C}deactivateUser`, { userName: 'it-new@sandbox.example' });
      assert.equal((await row()).Resources[0].active, false);
      // An inactive user is not deactivated again: the command says so, and its row offers Activate.
      await assert.rejects(
        api.admin.users.setActive({ userName: 'it-new@sandbox.example' }, false),
        /already inactive/,
      );
      const d = ex.script([]);
      await vscode.commands.executeCommand(`${C}deleteUser`, { userName: 'it-new@sandbox.example' });
      assert.match(d.asked[0], /Delete the user Ina.*it-new@sandbox\.example/);
      assert.equal((await row()).Resources.length, 0);
    });

    it('adds a member to a SCIM group and removes it after a modal naming both', async () => {
      const members = async () =>
        (await state()).admin.groups.find((g: any) => g.displayName === 'Analysts').members as string[];
      // Picked from the palette, only users who are not members yet are offered.
      const pick = ex.script(['User9 Sandbox']);
      await vscode.commands.executeCommand(`${C}addGroupMember`, { group: 'Analysts' });
      const offered: string[] = pick.offered.get('User to add to Analysts');
      assert.ok(offered.length > 0);
      for (const member of ['User2 Sandbox', 'User3 Sandbox', 'User4 Sandbox'])
        assert.ok(!offered.includes(member), `${member} is already a member: not offered`);
      assert.ok((await members()).includes('9'), 'stored by platform id; SCIM names it by its UUID');
      const group = items(await children(ex.provider.roots.admin.groups)).find(
        (g: Node) => labelOf(g) === 'Analysts',
      );
      const member = (await children(group)).find((m: Node) => labelOf(m) === 'user9@sandbox.example');
      assert.ok(member, 'the refreshed group shows the new member');
      const p = ex.script([]);
      await vscode.commands.executeCommand(`${C}removeGroupMember`, member);
      assert.match(p.asked[0], /Remove user9@sandbox\.example from the group Analysts/);
      assert.ok(!(await members()).includes('9'));
    });

    it('previews a published dashboard through an embed session in the Simple Browser, then revokes it', async () => {
      const record = await vscode.commands.executeCommand<any>(`${C}previewEmbeddedDashboard`, {
        deploymentId: 1,
        publicId: 'pub1x0000001',
        tenant: 'acme',
        group: 'viewers',
        externalId: 'it-viewer',
      });
      assert.ok(record?.sessionId, 'a session was generated');
      const session = (await state()).admin.embedSessions[record.sessionId];
      assert.deepEqual(
        [session.embedTenantName, session.tenantGroups, session.externalId],
        ['acme', ['viewers'], 'it-viewer'],
      );
      await waitFor(
        'the Simple Browser tab',
        () =>
          vscode.window.tabGroups.all
            .flatMap((g) => g.tabs)
            .some((t) => /simpleBrowser/i.test(String((t.input as any)?.viewType ?? ''))) || undefined,
      );
      const page = await fetch(record.url);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /seen as it-viewer in tenant acme/);
      const p = ex.script([]);
      await vscode.commands.executeCommand(`${C}revokeEmbedSession`, { sessionId: record.sessionId });
      assert.match(p.asked[0], /Revoke the embed session of ".+" for tenant acme/);
      assert.equal((await state()).admin.embedSessions[record.sessionId].revoked, true);
      assert.equal((await fetch(record.url)).status, 401, 'the embed page refuses a revoked session');
    });

    it('edits tenant settings in one form (current values, validation, one save), and manages OAuth integrations (secret write-only), OIDC configs and my tokens', async () => {
      const before = (await state()).admin.tenantSettings;
      // The form: toggle the audit log, set the window time (a bad time is refused), then Save.
      const form = ex.script(['auditLogEnabled', 'maintenanceWindowTime', '25:00', '04:15', 'save']);
      const saved = await vscode.commands.executeCommand<any>(`${C}editTenantSettings`);
      assert.equal(saved.maintenanceWindowTime, '04:15');
      assert.deepEqual(form.refusals, ['Use HH:MM, from 00:00 to 23:59.']);
      const offered: string[] = form.offered.get('Tenant Settings');
      assert.equal(offered[0], '$(check) Save 2 changes', 'Save leads the form once something changed');
      assert.ok(offered.includes('Audit log') && offered.includes('Maintenance window time'));
      assert.equal(
        form.asked.filter((t: string) => t === 'Tenant Settings').length,
        3,
        'one form, shown again',
      );
      const after = (await state()).admin.tenantSettings;
      assert.equal(after.maintenanceWindowTime, '04:15');
      assert.equal(after.auditLogEnabled, !before.auditLogEnabled);
      assert.equal(after.hasSupportAccess, before.hasSupportAccess, 'untouched settings stay');

      const secret = 'it-client-secret-7f3a9';
      await vscode.commands.executeCommand(`${C}createOAuthIntegration`, {
        name: 'IT Integration',
        type: 'databricks',
        authUrl: 'https://idp.example/authorize',
        tokenUrl: 'https://idp.example/token',
        redirectUri: 'https://app.example/callback',
        clientId: 'it-client',
        clientSecret: secret,
      });
      const s = await state();
      assert.ok(s.admin.oauthIntegrations.some((i: any) => i.name === 'IT Integration'));
      assert.ok(!JSON.stringify(s).includes(secret), 'the secret is not kept or echoed');
      assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('dashboardPlatform')).includes(secret));
      const p = ex.script([]);
      await vscode.commands.executeCommand(`${C}deleteOAuthIntegration`, { name: 'IT Integration' });
      assert.match(p.asked[0], /Delete the OAuth integration "IT Integration"/);
      assert.ok(!(await state()).admin.oauthIntegrations.some((i: any) => i.name === 'IT Integration'));

      await vscode.commands.executeCommand(`${C}createOidcTokenConfig`, {
        name: 'it-oidc',
        audienceType: 'gcp',
        targetEnvVar: 'CUBEJS_DB_TOKEN',
      });
      assert.ok((await state()).admin.oidcTokenConfigs.some((c: any) => c.name === 'it-oidc'));
      ex.script([]);
      await vscode.commands.executeCommand(`${C}deleteOidcTokenConfig`, { name: 'it-oidc' });
      assert.ok(!(await state()).admin.oidcTokenConfigs.some((c: any) => c.name === 'it-oidc'));

      const t = ex.script([]);
      await vscode.commands.executeCommand(`${C}revokeMyOAuthToken`, { name: 'Snowflake OAuth' });
      assert.match(t.asked[0], /Revoke your OAuth token for Snowflake OAuth/);
      assert.equal((await state()).admin.userOAuthTokens.length, 0);
    });
  });

  describe('with a non-admin token', () => {
    before(() => signInAsMember(MEMBER_PROFILE, { api, ex, base }));

    it('shows one row per admin list naming the admin role, without Retry', async () => {
      const a = ex.provider.roots.admin;
      const settings = await children(a.settings);
      const forbidden = [a.users, a.groups, a.roles, a.embedTenants, settings[2], settings[3]];
      for (const list of forbidden) {
        const kids = await children(list);
        assert.equal(kids.length, 1, `${labelOf(list)}: ${kids.map(labelOf).join(', ')}`);
        assert.equal(kids[0].kind, 'error');
        assert.match(kids[0].message, /needs the admin role/);
        assert.equal(kids[0].toTreeItem().command, undefined, 'no Retry for a missing role');
      }
      // What every user may read still shows.
      assert.ok(items(await children(settings[1])).length > 0, 'regions');
      assert.equal((await children(settings[4]))[0].kind, 'empty', 'the member holds no OAuth tokens');
    });

    it('refuses admin writes with the role needed, leaving the sandbox unchanged', async () => {
      // Called directly: the command wrapper would show the error instead of returning it.
      await assert.rejects(
        api.admin.embedSettings.editTenantSettings({ changes: { maintenanceWindowTime: '05:00' } }),
        /needs the admin role/,
      );
      assert.notEqual((await state()).admin.tenantSettings.maintenanceWindowTime, '05:00');
    });
  });
});
