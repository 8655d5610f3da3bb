// People in Administration inside a real VS Code against the sandbox: a custom role created in its
// one-page form (a taken name refused in the box), edited and deleted after a modal naming it; a
// group name the service would refuse refused in the box in plain words; a group's name and
// members edited in one form; a SCIM user created and edited; My Connections (connect opens the
// sign-in, the sandbox's sign-in page finishes it, the state is read back); My Settings saved with
// only what changed. Effects are read back from the sandbox (GET /__sandbox/state).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scimUserId } from '../../src/sandbox/platform/admin/scimRoutes';
import { adminSuite } from './sandboxSuite';
import { screenshot } from './harness';

/* eslint-disable @typescript-eslint/no-explicit-any -- the nodes are the extension's own objects */
type Node = any;

const C = 'dashboardPlatform.explorer.';

let api: any;
let ex: any;
let base: string;

async function state(): Promise<any> {
  return (await fetch(`${base}/__sandbox/state`)).json();
}
const children = async (node?: Node): Promise<Node[]> => ex.provider.getChildren(node);
const labelOf = (n: Node): string => String(n.toTreeItem().label);
const items = (kids: Node[]) => kids.filter((n) => !['loadMore', 'error', 'empty', 'info'].includes(n.kind));

describe('Admin people', function () {
  this.timeout(180_000);

  adminSuite((s) => ({ api, ex, base } = s), 'People Member');

  it('creates a custom role in one form (a taken name refused in the box), edits it, deletes it after a modal naming it', async () => {
    const roles = ex.provider.roots.admin.roles;
    const p = ex.script([
      'Name',
      'ANALYST',
      'qa-team',
      'Description',
      'Quality assurance',
      'Deployment actions',
      ['DeploymentRead', 'DownloadData'],
      // Not yet: the actions apply to no deployment; the form stays and says so.
      'Create Role',
      'Deployments',
      ['All deployments'],
      'Base role',
      'Explorer',
      'Create Role',
    ]);
    await vscode.commands.executeCommand(`${C}createRole`, roles);
    assert.deepEqual(p.refusals, ['A role named ANALYST already exists: pick another name.']);
    assert.equal(p.asked.filter((t: string) => t === 'Create Role').length, 7, p.asked.join(' | '));
    const made = (await state()).admin.roles.find((r: any) => r.name === 'qa-team');
    assert.deepEqual(made?.policies, [
      { resourceType: 'Global', actions: ['AIBIExplore'], resources: ['All'] },
      { resourceType: 'Deployment', actions: ['DeploymentRead', 'DownloadData'], resources: ['All'] },
    ]);
    assert.equal(made.description, 'Quality assurance');
    const node = items(await children(roles)).find((n: Node) => labelOf(n) === 'qa-team');
    assert.ok(node, 'the refreshed Roles list shows it');
    await screenshot('admin-people-roles');

    ex.script(['Description', '', 'Base role', 'Viewer', 'Save']);
    await vscode.commands.executeCommand(`${C}editRole`, node);
    const edited = (await state()).admin.roles.find((r: any) => r.name === 'qa-team');
    assert.equal(edited.description, null, 'an emptied description is cleared');
    assert.deepEqual(edited.policies[0], {
      resourceType: 'Global',
      actions: ['AIBIView'],
      resources: ['All'],
    });
    assert.deepEqual(edited.policies[1].actions, ['DeploymentRead', 'DownloadData'], 'the rest kept');

    ex.script([], false);
    await vscode.commands.executeCommand(`${C}deleteRole`, { role: 'qa-team' });
    assert.ok(
      (await state()).admin.roles.some((r: any) => r.name === 'qa-team'),
      'declined: kept',
    );
    const d = ex.script([]);
    await vscode.commands.executeCommand(`${C}deleteRole`, { role: 'qa-team' });
    assert.match(d.asked[0], /^Delete the role qa-team\?/);
    assert.ok(!(await state()).admin.roles.some((r: any) => r.name === 'qa-team'));
  });

  it('refuses a group name the service would refuse in the box, in plain words; edits a group’s name and members in one form', async () => {
    const p = ex.script(['G'.repeat(256), 'finance', 'QA Group']);
    await api.admin.usersSide.many.createGroup();
    assert.deepEqual(p.refusals, [
      'A group name has at most 255 characters (this one has 256).',
      'A group named finance already exists (names are compared without regard to case): pick another name.',
    ]);
    const groups = ex.provider.roots.admin.groups;
    const node = items(await children(groups)).find((n: Node) => labelOf(n) === 'QA Group');
    assert.ok(node, 'listed');

    ex.script(['Name', 'QA Squad', 'Members', [scimUserId(2)], 'Save']);
    const picked = await api.admin.scimEdit.editGroup(node);
    assert.equal(picked.displayName, 'QA Squad');
    const g = (await state()).admin.groups.find((x: any) => x.displayName === 'QA Squad');
    assert.equal(g?.members.length, 1, 'the one member checked');
  });

  it('creates a SCIM user in one form and edits them (a replace of the whole user)', async () => {
    ex.script([
      'User name',
      'new.hire@example.com',
      'Given name',
      'New',
      'Family name',
      'Hire',
      'Create User',
    ]);
    const made = await api.admin.scimEdit.createUser();
    assert.equal(made.userName, 'new.hire@example.com');
    assert.deepEqual(
      made.emails,
      [{ value: 'new.hire@example.com', primary: true }],
      'the user name is the e-mail',
    );

    ex.script(['Active', 'off', 'Given name', 'Newer', 'Save']);
    const saved = await api.admin.scimEdit.editUser({ user: 'new.hire@example.com' });
    assert.deepEqual([saved.active, saved.name.givenName, saved.name.familyName], [false, 'Newer', 'Hire']);
  });

  it('My Connections: connect opens the sign-in, finishing it there connects, the state is read back', async () => {
    const admin = api.sandbox.current().tokens.admin;
    await fetch(`${base}/api/v1/user-oauth-tokens/601`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin}` },
    });
    const url: string = await api.admin.me.connect({ integration: 'Snowflake OAuth' });
    assert.match(url, /\/oauth\/sandbox-sign-in\?state=/);
    // The browser's part: the identity provider's page finishes the sign-in. Connect also opens the
    // address in the browser (openExternal), so either that tab or this fetch loads it first and the
    // other is told it was used (400): the connection read back below is what must hold.
    assert.ok([200, 400].includes((await fetch(url)).status));
    const p = ex.script(['Snowflake OAuth', 'Check Connection']);
    const now: string = await api.admin.me.myConnections();
    assert.match(now, /^connected, access expires/);
    assert.match(p.rows.get('My Connections')[0].description, /^connected/);
    assert.equal((await state()).admin.userOAuthTokens.filter((t: any) => t.integrationId === 601).length, 1);
  });

  it('My Settings: one form, only what changed is sent and saved', async () => {
    ex.script(['Time zone', 'Asia/Tokyo', 'Alternating row colors', 'off', 'Save']);
    await vscode.commands.executeCommand('dashboardPlatform.mySettings');
    const s = (await state()).admin.userSettings['1'];
    assert.equal(s.timezone, 'Asia/Tokyo');
    assert.equal(s.alternatingRowColors, false);
    assert.equal(s.locale, 'en-US', 'untouched settings stay');
  });
});
