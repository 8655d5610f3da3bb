// Administration commands started from a clicked tree row (or the row the view has selected), in
// plain Node with a recording client: Remove Group Member on a member's row removes that member
// without asking which; on the group's row it asks among its members; a row whose member has left
// the group since asks too. The removals of Account settings (an OAuth integration, an OIDC token
// config, one of my OAuth tokens) act on the clicked row's own item, by id, and ask when that item
// is gone from the list. Each case: the one request sent, the modal's words, the refresh.
import assert from 'node:assert/strict';
import type * as EmbedSettingsModule from '../../../src/admin/embedSettingsCommands';
import type * as UserModule from '../../../src/admin/userCommands';
import {
  adminWorld,
  loadPrompter,
  recorder,
  ROOTS,
  standIn,
  treeNode,
  type AdminWorld,
} from './adminStandIn';

/* eslint-disable @typescript-eslint/no-require-imports */
const load = () => ({
  ...loadPrompter(),
  ...(require('../../../src/admin/userCommands') as typeof UserModule),
  ...(require('../../../src/admin/embedSettingsCommands') as typeof EmbedSettingsModule),
});
/* eslint-enable @typescript-eslint/no-require-imports */

const TEAM = {
  id: 'g1',
  displayName: 'Team',
  members: [
    { value: 'u1', display: 'Ada' },
    { value: 'u3', display: 'Cy' },
  ],
};
const OPS = { id: 'g2', displayName: 'Ops', members: [{ value: 'u2', display: 'Bob' }] };

/** The Groups list, a group's row under it, and member rows under the group (as the tree makes them). */
const groupsRow = () => treeNode('adminSection', undefined);
const groupRow = (g: Record<string, unknown> = TEAM) => treeNode('scimGroup', g, undefined, groupsRow());
const memberRow = (value: string, display: string, group = groupRow()) =>
  treeNode('adminItem', { value, display, id: value }, undefined, group);

describe('admin: commands started from a clicked tree row', () => {
  let m: ReturnType<typeof load>;
  let restore: () => void;
  before(() => ({ modules: m, restore } = standIn(load)));
  after(() => restore());

  function users(w: AdminWorld = {}) {
    const calls: string[] = [];
    const admin = {
      listScimUsers: async () => ({ items: [] }),
      listScimGroups: async () => ({ items: [TEAM, OPS] }),
      ...recorder(calls, { changeGroupMembers: () => ({}) }),
    };
    const x = adminWorld(m, { admin }, w);
    return { ...x, calls, cmds: new m.UserCommands(x.deps) };
  }

  it('Remove Group Member on a member row removes that member, asking only the modal; on the group row it asks which', async () => {
    const cases: [string, AdminWorld, unknown, string[], string, string][] = [
      ['the member row clicked', {}, memberRow('u3', 'Cy'), [], 'Cy', 'u3'],
      ['the member row selected', { selection: memberRow('u3', 'Cy') }, undefined, [], 'Cy', 'u3'],
      ['the first member row', {}, memberRow('u1', 'Ada'), [], 'Ada', 'u1'],
      [
        'the group row',
        { answers: ['Cy'] },
        groupRow(),
        ['pick Member of Team | Pick member of team'],
        'Cy',
        'u3',
      ],
      [
        'a row whose member has left the group since',
        { answers: ['Ada'] },
        memberRow('u9', 'Gone'),
        ['pick Member of Team | Pick member of team'],
        'Ada',
        'u1',
      ],
    ];
    for (const [why, w, arg, questions, name, id] of cases) {
      const x = users(w);
      await x.cmds.groupMember(arg, 'remove');
      assert.deepEqual(x.questions, questions, why);
      assert.deepEqual(
        x.confirmations,
        [
          `Remove ${name} from the group Team? | Only the membership is removed; the user stays. | Remove Member`,
        ],
        why,
      );
      assert.deepEqual(x.calls, [`changeGroupMembers("g1", {"remove":["${id}"]})`], why);
      assert.deepEqual(x.shown.messages, [`info: ${name} removed from Team.`], why);
      assert.deepEqual(x.refreshed, [ROOTS.groups], why);
    }
    // The group's row: its members offered by name, no group asked.
    const g = users({ answers: ['Cy'] });
    await g.cmds.groupMember(groupRow(), 'remove');
    assert.deepEqual(g.prompter.offered.get('Member of Team'), ['Ada', 'Cy']);
    // Declined on the member row: nothing sent.
    const no = users({ confirm: false });
    await assert.rejects(no.cmds.groupMember(memberRow('u3', 'Cy'), 'remove'), { name: 'UserCancelled' });
    assert.deepEqual(no.calls, []);
    // A group row without members says so and sends nothing.
    const empty = users();
    await assert.rejects(
      empty.cmds.groupMember(groupRow({ id: 'g3', displayName: 'Empty' }), 'remove'),
      /^Error: Empty has no members\.$/,
    );
    assert.deepEqual(empty.calls, []);
  });

  function settings(w: AdminWorld = {}) {
    const calls: string[] = [];
    const admin = {
      listOAuthIntegrations: async () => ({
        items: [
          { id: 4, name: 'snow' },
          { id: 5, name: 'bricks' },
        ],
      }),
      listOidcTokenConfigs: async () => ({
        items: [
          { id: 2, name: 'deploy-token' },
          { id: 3, name: 'ci-token' },
        ],
      }),
      listUserOAuthTokens: async () => ({
        items: [
          { id: 1, integrationId: 4 },
          { id: 2, integrationId: 77 },
        ],
      }),
      ...recorder(calls, {
        deleteOAuthIntegration: () => undefined,
        deleteOidcTokenConfig: () => undefined,
        revokeUserOAuthToken: () => undefined,
      }),
    };
    const x = adminWorld(m, { admin }, w);
    return { ...x, calls, cmds: new m.EmbedSettingsCommands(x.deps) };
  }
  const settingRow = (data: Record<string, unknown>) =>
    treeNode('adminItem', data, undefined, treeNode('adminSection', undefined));

  it('removals on an Account settings row act on that row’s item by id; a row gone from the list asks which', async () => {
    const cases: [
      string,
      AdminWorld,
      unknown,
      'oauth' | 'oidc' | 'token',
      string[],
      string,
      string,
      string,
    ][] = [
      [
        'an OAuth integration row (the second)',
        {},
        settingRow({ id: 5, name: 'bricks' }),
        'oauth',
        [],
        'Delete the OAuth integration "bricks"? | Everything that uses "bricks" stops working. This cannot be undone. | Delete',
        'deleteOAuthIntegration(5)',
        'info: "bricks" deleted.',
      ],
      [
        'an OIDC token config row selected',
        { selection: settingRow({ id: 3, name: 'ci-token' }) },
        undefined,
        'oidc',
        [],
        'Delete the OIDC token config "ci-token"? | Everything that uses "ci-token" stops working. This cannot be undone. | Delete',
        'deleteOidcTokenConfig(3)',
        'info: "ci-token" deleted.',
      ],
      [
        'one of my tokens, for an integration not listed',
        {},
        settingRow({ id: 2, integrationId: 77 }),
        'token',
        [],
        'Revoke your OAuth token for integration 77? | You will need to sign in to the provider again. | Revoke',
        'revokeUserOAuthToken(77)',
        'info: OAuth token for integration 77 revoked.',
      ],
      [
        'an OAuth integration deleted elsewhere since',
        { answers: ['snow'] },
        settingRow({ id: 9, name: 'gone' }),
        'oauth',
        ['pick OAuth integration | Pick oauth integration'],
        'Delete the OAuth integration "snow"? | Everything that uses "snow" stops working. This cannot be undone. | Delete',
        'deleteOAuthIntegration(4)',
        'info: "snow" deleted.',
      ],
    ];
    for (const [why, w, arg, what, questions, confirmation, call, message] of cases) {
      const x = settings(w);
      await x.cmds.deleteListed(arg, what);
      assert.deepEqual(x.questions, questions, why);
      assert.deepEqual(x.confirmations, [confirmation], why);
      assert.deepEqual(x.calls, [call], why);
      assert.deepEqual(x.shown.messages, [message], why);
      assert.deepEqual(x.refreshed, [undefined], why);
      const no = settings({ ...w, confirm: false });
      await assert.rejects(no.cmds.deleteListed(arg, what), { name: 'UserCancelled' }, why);
      assert.deepEqual(no.calls, [], why);
    }
  });
});
