// Journey "administer a user" (issue 25 item 10, "SCIM user ids are not numbers"): in the view's
// Administration an admin opens a user's context menu, which offers Deactivate (not Activate) while
// the user is active; deactivates; the row says inactive and the menu now offers Activate only;
// activates again; gives the user a role (the tooltip lists it) and takes it back; adds the user to
// a group from the group's menu, offered only users who are not members. SCIM ids in the sandbox are
// UUIDs, as in the SCIM document. Questions are answered by a script; tree, menus and rows are real.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { getApi, pressKeys, screenshot, waitFor } from '../harness';
import { useSandbox } from '../sandboxSuite';
import { chooseMenu, contextMenu, expand, openExplorerFresh, row, rowText } from './explorerView';

/* eslint-disable @typescript-eslint/no-explicit-any -- the nodes are the extension's own objects */
type Node = any;

const USER = 'user7@sandbox.example';
const GROUP = 'Analysts';
const ROLE = 'secrets-manager';

let api: any;
let ex: any;
let base: string;
let admin: string;

async function scim(path: string): Promise<any> {
  const res = await fetch(`${base}/api/scim/v2${path}`, { headers: { authorization: `Bearer ${admin}` } });
  return res.json();
}
const scimUser = async () =>
  (await scim(`/Users?filter=${encodeURIComponent(`userName eq "${USER}"`)}`)).Resources[0];
/**
 * The user's tooltip as the view has it now, as text (the markdown's escapes undone: the source of
 * "secrets-manager" is "secrets\-manager"). The test does not refresh the tree: a role change must
 * show without the user refreshing the view.
 */
const userTooltip = async (): Promise<string> => {
  const users = await ex.provider.getChildren(ex.provider.roots.admin.users);
  const n = users.find((u: Node) => u.kind === 'user' && String(u.toTreeItem().label) === USER);
  const tip = n?.toTreeItem().tooltip;
  return String(typeof tip === 'string' ? tip : (tip?.value ?? '')).replace(/\\(.)/g, '$1');
};

describe('journey: administer a user', function () {
  this.timeout(300_000);

  before(async function () {
    api = await getApi();
    ex = api.explorer;
    if (!(await pressKeys([]))) this.skip(); // the journey needs UI control (code-server route)
    ({ base, admin } = await useSandbox(api));
  });

  after(async () => {
    ex.usePrompter(undefined);
    await pressKeys(['Escape']);
  });

  it('deactivates and activates a user from menus that follow the user’s state', async () => {
    const before = await scimUser();
    assert.match(before.id, /^[0-9a-f]{8}-[0-9a-f]{4}-/, 'SCIM ids are UUIDs, as in the SCIM document');
    assert.equal(before.active, true);
    await openExplorerFresh();
    await expand('Administration');
    await expand('Users');
    await waitFor(
      'the user on screen',
      async () => ((await rowText(row(USER))) !== '' ? true : undefined),
      30_000,
    );

    let menu = await contextMenu(row(USER));
    assert.match(menu, /Deactivate User…/);
    assert.doesNotMatch(menu, /Activate User…/, 'an active user is not offered Activate');
    // One row selected: the one-user actions only; the bulk ones (Deactivate Users…) need several.
    assert.doesNotMatch(
      menu,
      /(Deactivate|Activate|Delete) Users…/,
      'one row is not offered the bulk actions',
    );
    await screenshot('journeys/admin-menu-active');
    const p = ex.script([]);
    await chooseMenu('Deactivate User…');
    await waitFor(
      'the deactivation on the server',
      async () => ((await scimUser()).active === false ? true : undefined),
      30_000,
    );
    assert.match(p.asked[0] ?? '', /Deactivate/);
    const shown = await waitFor(
      'the row saying inactive',
      async () => {
        const t = await rowText(row(USER));
        return /inactive/.test(t) ? t : undefined;
      },
      30_000,
    );
    assert.match(shown, /inactive/);

    menu = await contextMenu(row(USER));
    assert.match(menu, /Activate User…/);
    assert.doesNotMatch(menu, /Deactivate User…/, 'an inactive user is not offered Deactivate');
    await screenshot('journeys/admin-menu-inactive');
    ex.script([]);
    await chooseMenu('Activate User…');
    await waitFor(
      'the activation on the server',
      async () => ((await scimUser()).active === true ? true : undefined),
      30_000,
    );
    await waitFor(
      'the row without "inactive"',
      async () => {
        const t = await rowText(row(USER));
        return t !== '' && !/inactive/.test(t) ? true : undefined;
      },
      30_000,
    );
  });

  it('gives the user a role (its tooltip lists it) and takes it back', async () => {
    await contextMenu(row(USER));
    // The role by name; the SCIM id is not a platform id, so the platform id is asked if needed.
    ex.script([ROLE, '7']);
    await chooseMenu('Assign Role…');
    const withRole = await waitFor(
      'the role in the tooltip',
      async () => {
        const tip = await userTooltip();
        return tip.includes(ROLE) ? tip : undefined;
      },
      30_000,
    );
    assert.match(withRole, new RegExp(`roles: .*${ROLE}`));
    await contextMenu(row(USER));
    ex.script([ROLE, '7']);
    await chooseMenu('Remove Role…');
    await waitFor(
      'the role gone from the tooltip',
      async () => {
        const tip = await userTooltip();
        return tip.includes(USER) && !tip.includes(ROLE) ? true : undefined;
      },
      30_000,
    );
  });

  it('adds the user to a group from the group’s menu, offered only users who are not members', async () => {
    const groups = (await scim(`/Groups?filter=${encodeURIComponent(`displayName eq "${GROUP}"`)}`))
      .Resources;
    const group = groups[0];
    assert.ok(group, `the sandbox has the group ${GROUP}`);
    const user = await scimUser();
    assert.ok(!group.members.some((m: any) => m.value === user.id), 'not a member yet');
    const memberNames = new Set<string>();
    for (const m of group.members) {
      const u = (await scim(`/Users/${m.value}`)) as any;
      memberNames.add(`${u.name.givenName} ${u.name.familyName}`.trim());
    }
    const name = `${user.name.givenName} ${user.name.familyName}`.trim();
    await expand('Groups');
    await contextMenu(row(GROUP));
    const p = ex.script([name]);
    await chooseMenu('Add Group Member…');
    await waitFor(
      'the member added',
      async () => {
        const g = (await scim(`/Groups/${group.id}`)) as any;
        return g.members.some((m: any) => m.value === user.id) ? true : undefined;
      },
      30_000,
    );
    const offered: string[] = p.offered.get(`User to add to ${GROUP}`) ?? [];
    assert.ok(offered.includes(name), offered.join(', '));
    for (const m of memberNames) assert.ok(!offered.includes(m), `${m} is a member: not offered`);
    await screenshot('journeys/admin-group');
    // Leave the sandbox as it was.
    ex.script([]);
    await vscode.commands.executeCommand('dashboardPlatform.explorer.removeGroupMember', {
      group: GROUP,
      userName: USER,
    });
  });
});
