// The users side of Administration inside a real VS Code against the sandbox: user attributes and
// their values per user (type-aware input), one action on many users (multi-selection, one modal,
// failures by name, an unknown outcome said to be unknown), SCIM group create / rename / delete,
// and an embed tenant's workbooks per deployment by access source. Once with the admin token and
// once with the member token. Effects are read back from the sandbox (GET /__sandbox/state).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scimUserId } from '../../src/sandbox/platform/admin/scimRoutes';
import { waitFor, revertAndCloseAll } from './harness';
import { adminSuite, signInAsMember } from './sandboxSuite';

/* eslint-disable @typescript-eslint/no-explicit-any -- the nodes are the extension's own objects */
type Node = any;

const C = 'dashboardPlatform.explorer.';
const MEMBER_PROFILE = 'IT Users Member';

let api: any;
let ex: any;
let base: string;

async function state(): Promise<any> {
  return (await fetch(`${base}/__sandbox/state`)).json();
}
async function sandboxAdmin(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${base}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${api.sandbox.current().tokens.admin}`,
      'content-type': 'application/json',
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}
const children = async (node?: Node): Promise<Node[]> => ex.provider.getChildren(node);
const labelOf = (n: Node): string => String(n.toTreeItem().label);
const descOf = (n: Node): string => String(n.toTreeItem().description ?? '');
const items = (kids: Node[]) => kids.filter((n) => !['loadMore', 'error', 'empty', 'info'].includes(n.kind));
const userNode = async (userName: string): Promise<Node> => {
  ex.provider.refresh(ex.provider.roots.admin.users);
  const u = items(await children(ex.provider.roots.admin.users)).find((n: Node) => labelOf(n) === userName);
  assert.ok(u, `the user ${userName} is listed`);
  return u;
};

describe('Admin users', function () {
  this.timeout(180_000);

  adminSuite((s) => ({ api, ex, base } = s), MEMBER_PROFILE);

  describe('with the admin token', () => {
    it('lists user attributes with their types, creates one and edits it', async () => {
      const list = ex.provider.roots.admin.userAttributes;
      const rows = items(await children(list));
      const region = rows.find((n: Node) => labelOf(n) === 'Sales region');
      assert.ok(region, rows.map(labelOf).join(', '));
      assert.match(descOf(region), /region · string/);
      assert.ok(
        rows.some((n: Node) => /boolean/.test(descOf(n))),
        'a boolean attribute',
      );

      ex.script(['it_tier', 'number', 'Tier']);
      await vscode.commands.executeCommand(`${C}createUserAttribute`);
      const created = (await state()).admin.attributes.definitions.find((a: any) => a.name === 'it_tier');
      assert.deepEqual([created?.type, created?.displayName], ['number', 'Tier']);
      const tier = items(await children(list)).find((n: Node) => labelOf(n) === 'Tier');
      assert.ok(tier, 'the refreshed list shows it');

      const p = ex.script(['Service tier', '', 'abc']);
      await assert.rejects(api.admin.usersSide.editAttribute(tier), /Default value: Enter a number/);
      assert.deepEqual(p.asked.slice(0, 3), [
        'Edit it_tier (1/3)',
        'Edit it_tier (2/3)',
        'Edit it_tier (3/3)',
      ]);
      assert.equal(
        (await state()).admin.attributes.definitions.find((a: any) => a.name === 'it_tier').displayName,
        'Tier',
        'nothing saved after a bad default',
      );
      ex.script(['Service tier', 'Support level', '2']);
      await vscode.commands.executeCommand(`${C}editUserAttribute`, tier);
      const saved = (await state()).admin.attributes.definitions.find((a: any) => a.name === 'it_tier');
      assert.deepEqual(
        [saved.displayName, saved.description, saved.defaultValue],
        ['Service tier', 'Support level', '2'],
      );
    });

    it("shows a user's attribute values, sets a number (validated) and a boolean (picked), and clears one after a modal", async () => {
      // SCIM ids are UUIDs (as in the SCIM document), not platform ids: the row cannot list values
      // until the platform id is known, and its tooltip says how.
      const u2 = await userNode('user2@sandbox.example');
      assert.equal(u2.kind, 'user');
      assert.match(u2.toTreeItem().tooltip.value, /asks for the platform user id once/);
      assert.equal(u2.toTreeItem().collapsibleState, vscode.TreeItemCollapsibleState.None);

      const u4 = await userNode('user4@sandbox.example');
      const p = ex.script(['x4', '4', 'Maximum discount (%)', 'twelve', '12.5']);
      await vscode.commands.executeCommand(`${C}setUserAttributeValue`, u4);
      assert.match(p.asked[0]!, /^Platform user id of User4 Sandbox/);
      assert.deepEqual(
        p.refusals,
        ['A platform user id is a whole number from 1.', 'Enter a number, e.g. 42 or 3.5.'],
        'a non-number is refused while typed',
      );
      assert.equal((await state()).admin.attributes.values['4:902'], 12.5);

      const b = ex.script(['true']);
      await vscode.commands.executeCommand(`${C}setUserAttributeValue`, {
        userName: 'user4@sandbox.example',
        attribute: 'can_export',
      });
      assert.deepEqual(b.offered.get('Can export data for User4 Sandbox'), ['true', 'false']);
      assert.equal((await state()).admin.attributes.values['4:903'], true, 'a boolean, not the text');

      // Now that its platform id is known, the user's row expands to its values.
      const shown = items(await children(await userNode('user4@sandbox.example')));
      const discount = shown.find((v: Node) => labelOf(v) === 'Maximum discount (%)');
      assert.equal(descOf(discount), '12.5', 'the user row lists the new value');
      ex.script([], false);
      await vscode.commands.executeCommand(`${C}clearUserAttributeValue`, discount);
      assert.equal((await state()).admin.attributes.values['4:902'], 12.5, 'declining the modal keeps it');
      const c = ex.script([]);
      await vscode.commands.executeCommand(`${C}clearUserAttributeValue`, discount);
      assert.match(c.asked[0], /Clear User4 Sandbox's value of "Maximum discount \(%\)"/);
      assert.equal((await state()).admin.attributes.values['4:902'], undefined);
    });

    it('deactivates several selected users after one modal naming them, reporting failures by name', async () => {
      const picked = [
        await userNode('admin@sandbox.example'),
        await userNode('user5@sandbox.example'),
        await userNode('user6@sandbox.example'),
      ];
      // Other suites share the sandbox (a user they made may be inactive): compare with what was before.
      const before = (await state()).admin.deactivated.slice();
      const p = ex.script([]);
      await assert.rejects(
        api.admin.usersSide.many.bulk('DEACTIVATE', picked[1], picked),
        /2 of 3 deactivated; not deactivated: User1 Sandbox: .*yourself/,
      );
      assert.equal(p.asked.length, 1, 'one modal');
      assert.match(p.asked[0], /^Deactivate 3 users\?/);
      const s = await state();
      assert.deepEqual(s.admin.deactivated.filter((id: number) => !before.includes(id)).sort(), [5, 6]);

      // The multi-pick from the palette, then activation.
      const m = ex.script([['User5 Sandbox', 'User6 Sandbox']]);
      await vscode.commands.executeCommand(`${C}activateUsers`);
      assert.equal(m.asked[0], 'Activate Users');
      assert.deepEqual((await state()).admin.deactivated, before);
    });

    it('says a bulk action whose answer was lost has an unknown outcome, naming the users', async () => {
      const res = await fetch(`${base}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          family: 'platform',
          route: `/scim/v2/Users/${scimUserId(7)}`,
          resetMidBody: true,
          times: 1,
        }),
      });
      assert.ok(res.ok, `faults: ${res.status}`);
      try {
        ex.script([]);
        await assert.rejects(
          api.admin.usersSide.many.bulk('DEACTIVATE', { userNames: ['user7@sandbox.example'] }),
          (e: any) =>
            e.kind === 'unknownOutcome' && /unknown whether User7 Sandbox was deactivated/.test(e.message),
        );
      } finally {
        await fetch(`${base}/__sandbox/faults`, { method: 'DELETE' });
      }
      // Never retried: exactly the one request's effect, whatever it was; undo it.
      await sandboxAdmin('PATCH', `/scim/v2/Users/${scimUserId(7)}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'active', value: true }],
      });
    });

    it('creates, renames and deletes a SCIM group (modal naming it); a SCIM error shows its detail', async () => {
      await vscode.commands.executeCommand(`${C}createGroup`, { name: 'IT Group' });
      assert.ok((await state()).admin.groups.some((g: any) => g.displayName === 'IT Group'));
      await assert.rejects(
        api.admin.usersSide.many.createGroup({ name: 'Finance' }),
        /A group named "Finance" already exists/,
      );

      const group = items(await children(ex.provider.roots.admin.groups)).find(
        (g: Node) => labelOf(g) === 'IT Group',
      );
      assert.ok(group, 'the refreshed Groups list shows it');
      ex.script(['IT Group Renamed']);
      await vscode.commands.executeCommand(`${C}renameGroup`, group);
      assert.ok((await state()).admin.groups.some((g: any) => g.displayName === 'IT Group Renamed'));

      ex.script([], false);
      await vscode.commands.executeCommand(`${C}deleteGroup`, { group: 'IT Group Renamed' });
      assert.ok(
        (await state()).admin.groups.some((g: any) => g.displayName === 'IT Group Renamed'),
        'declined',
      );
      const p = ex.script([]);
      await vscode.commands.executeCommand(`${C}deleteGroup`, { group: 'IT Group Renamed' });
      assert.match(p.asked[0], /Delete the group IT Group Renamed\?/);
      assert.ok(!(await state()).admin.groups.some((g: any) => g.displayName.startsWith('IT Group')));
    });

    it("lists an embed tenant's workbooks per deployment by access source, and a click opens one", async () => {
      // Share one workbook with acme directly, so every source has something.
      const wbs = (await (await sandboxAdmin('GET', '/v1/deployments/1/workbooks?first=200')).json()).items;
      const target = wbs.find((w: any) => w.publishedDashboard);
      const put = await sandboxAdmin('PUT', `/v1/deployments/1/workbooks/${target.id}/embed-access`, {
        embedTenantName: 'acme',
        action: 'read',
      });
      assert.equal(put.status, 200);

      const tenants = items(await children(ex.provider.roots.admin.embedTenants));
      const acme = tenants.find((t: Node) => labelOf(t) === 'acme');
      const kids = await children(acme);
      assert.deepEqual(kids.map(labelOf), ['Groups', 'Users', 'Workbooks']);
      const deps = items(await children(kids[2]));
      const dep1 = deps.find((d: Node) => d.deploymentId === 1);
      assert.ok(dep1, 'deployment 1 under Workbooks');
      const sources = await children(dep1);
      assert.deepEqual(sources.map(labelOf), [
        'Shared with acme',
        'Shared with all embed users',
        'In shared folders',
      ]);
      const direct = items(await children(sources[0]));
      assert.ok(
        direct.some((w: Node) => labelOf(w) === target.name),
        'the directly shared workbook',
      );
      assert.ok(items(await children(sources[1])).length > 0, 'shared with all embed users');
      const inFolders = items(await children(sources[2]));
      assert.ok(inFolders.length > 0, 'inherited from a shared folder');

      const row = direct.find((w: Node) => labelOf(w) === target.name);
      const cmd = row.toTreeItem().command;
      assert.ok(cmd, 'a click runs a command');
      await vscode.commands.executeCommand(cmd.command, ...(cmd.arguments ?? []));
      await waitFor('the workbook opened', () =>
        vscode.window.activeTextEditor?.document.getText().includes(String(target.name)) ? true : undefined,
      );
      await revertAndCloseAll();
    });
  });

  describe('with a non-admin token', () => {
    before(() => signInAsMember(MEMBER_PROFILE, { api, ex, base }));

    it('shows User attributes as one row naming the admin role, and refuses writes', async () => {
      const kids = await children(ex.provider.roots.admin.userAttributes);
      assert.equal(kids.length, 1, kids.map(labelOf).join(', '));
      assert.equal(kids[0].kind, 'error');
      assert.match(kids[0].message, /needs the admin role/);
      assert.equal(kids[0].toTreeItem().command, undefined, 'no Retry for a missing role');
      const before = await state();
      await assert.rejects(api.admin.usersSide.many.createGroup({ name: 'Member group' }), /admin role/);
      await assert.rejects(
        api.admin.usersSide.createAttribute({ name: 'member_attr', type: 'string', displayName: '' }),
        /needs the admin role/,
      );
      const after = await state();
      assert.equal(after.admin.groups.length, before.admin.groups.length);
      assert.equal(after.admin.attributes.definitions.length, before.admin.attributes.definitions.length);
    });
  });
});
