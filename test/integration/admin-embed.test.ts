// An embed tenant's groups and users inside a real VS Code against the sandbox, as an admin would
// go: expand a tenant's Groups (each group expands to its members, by name), create a group on
// its form, add members picked by name, remove one from its row, provision a user on a form and a
// CSV of users (with a bad line named), then delete a group that still has members (one modal).
// Effects are read back from the sandbox (GET /__sandbox/state).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { revertAndCloseAll, screenshot } from './harness';
import { adminSuite } from './sandboxSuite';

/* eslint-disable @typescript-eslint/no-explicit-any -- the nodes are the extension's own objects */
type Node = any;

const C = 'dashboardPlatform.explorer.';

let ex: any;
let base: string;

async function acme(): Promise<any> {
  return (await (await fetch(`${base}/__sandbox/state`)).json()).admin.embedTenants.acme;
}
const children = async (node?: Node): Promise<Node[]> => ex.provider.getChildren(node);
const labelOf = (n: Node): string => String(n.toTreeItem().label);
const descOf = (n: Node): string => String(n.toTreeItem().description ?? '');
const items = (kids: Node[]) => kids.filter((n) => !['loadMore', 'error', 'empty', 'info'].includes(n.kind));

/** acme's Groups list node, fetched afresh. */
async function groupsOfAcme(): Promise<Node> {
  ex.provider.refresh(ex.provider.roots.admin.embedTenants);
  const tenant = items(await children(ex.provider.roots.admin.embedTenants)).find(
    (t: Node) => labelOf(t) === 'acme',
  );
  assert.ok(tenant, 'acme is listed');
  const groups = (await children(tenant)).find((n: Node) => labelOf(n) === 'Groups');
  assert.ok(groups, 'acme has Groups');
  return groups;
}
async function groupRow(name: string): Promise<Node> {
  const row = items(await children(await groupsOfAcme())).find((g: Node) => labelOf(g) === name);
  assert.ok(row, `the group ${name} is listed`);
  return row;
}

describe('Admin embed groups', function () {
  this.timeout(180_000);

  // Registered first, so it runs before the suite's own clean-up.
  after(() => revertAndCloseAll());
  adminSuite((s) => ({ ex, base } = s));

  it("a tenant's groups expand to their members, by name", async () => {
    const viewers = await groupRow('viewers');
    assert.equal(descOf(viewers), '2 members');
    assert.equal(viewers.toTreeItem().contextValue, 'dp.embedGroup');
    const members = items(await children(viewers));
    assert.deepEqual(members.map(labelOf).sort(), ['user1@acme.example', 'user2@acme.example']);
    assert.equal(members[0].toTreeItem().contextValue, 'dp.embedGroupMember');
    // The screenshot: acme's groups with viewers open on its members.
    const admin = ex.provider.roots.admin;
    for (const n of [admin.root, admin.embedTenants, viewers.parent.parent, viewers.parent, viewers])
      await ex.view.reveal(n, { expand: true });
    await screenshot('embed-groups');
  });

  it('creates a group on one form, adds members picked by name, removes one from its row', async () => {
    const groups = await groupsOfAcme();
    const p = ex.script(['name', 'system:x', 'partners', 'description', 'External partners', 'submit']);
    await vscode.commands.executeCommand(`${C}createEmbedGroup`, groups);
    assert.deepEqual(p.refusals, ['Names starting with "system:" are reserved.']);
    const created = (await acme()).groups.find((g: any) => g.name === 'partners');
    assert.equal(created?.description, 'External partners');

    const partners = await groupRow('partners');
    const add = ex.script([['Acme user 1', 'Acme user 3']]);
    await vscode.commands.executeCommand(`${C}addEmbedGroupMembers`, partners);
    assert.deepEqual(add.offered.get('Add Members to "partners"')?.sort(), [
      'Acme user 1',
      'Acme user 2',
      'Acme user 3',
    ]);
    assert.deepEqual(
      (await acme()).groups.find((g: any) => g.name === 'partners').members.sort(),
      [101, 103],
    );

    const rows = items(await children(await groupRow('partners')));
    assert.equal(rows.length, 2, 'the group shows its new members');
    const one = rows.find((r: Node) => labelOf(r) === 'user3@acme.example');
    const remove = ex.script([]);
    await vscode.commands.executeCommand(`${C}removeEmbedGroupMembers`, one, [one]);
    assert.match(remove.asked.at(-1), /^Remove Acme user 3 from the embed group "partners"\?$/);
    assert.deepEqual((await acme()).groups.find((g: any) => g.name === 'partners').members, [101]);
  });

  it('provisions one user on a form and a CSV of users, naming the line it could not send', async () => {
    const groups = await groupsOfAcme();
    const p = ex.script([
      'externalId',
      'crm-77',
      'email',
      'nope',
      'erin@acme.example',
      'tenantGroups',
      ['partners'],
      'submit',
    ]);
    await vscode.commands.executeCommand(`${C}provisionEmbedUser`, groups);
    assert.deepEqual(p.refusals, ['Not an e-mail address.']);
    const state = await acme();
    const erin = state.users.find((u: any) => u.externalId === 'crm-77');
    assert.equal(erin?.email, 'erin@acme.example');
    assert.ok(state.groups.find((g: any) => g.name === 'partners').members.includes(erin.id));

    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dp-embed-')), 'users.csv');
    fs.writeFileSync(
      file,
      'externalId,email,displayName,tenantGroups\ncrm-78,fay@acme.example,Fay,viewers\ncrm-79,bad-address,Gus,\n',
    );
    const bulk = ex.script([]);
    const report: any = await vscode.commands.executeCommand(`${C}provisionEmbedUsersFromFile`, {
      tenant: 'acme',
      file,
    });
    assert.equal(bulk.asked[0], 'Provision 1 embed user from users.csv into acme?');
    assert.deepEqual(
      report.succeeded.map((u: any) => u.externalId),
      ['crm-78'],
    );
    assert.deepEqual(
      report.notSent.map((u: any) => u.where),
      ['line 3'],
    );
    assert.ok((await acme()).users.some((u: any) => u.externalId === 'crm-78'));
    await revertAndCloseAll();
  });

  it('deletes a group that has members after one modal naming it', async () => {
    const partners = await groupRow('partners');
    const p = ex.script([]);
    await vscode.commands.executeCommand(`${C}deleteEmbedGroup`, partners);
    assert.equal(p.asked.at(-1), 'Delete the embed group "partners" of acme?');
    assert.ok(!(await acme()).groups.some((g: any) => g.name === 'partners'));
    assert.ok(!items(await children(await groupsOfAcme())).some((g: Node) => labelOf(g) === 'partners'));
  });
});
