// A user's own commands through UserCommands in plain Node with a recording client: create (the
// e-mail checked, the body sent), activate or deactivate (only the users it would change offered;
// a deactivation asked first), delete (a modal naming the user), group membership added or removed
// (only non-members offered; a removal asked first), and nothing sent when declined.
import assert from 'node:assert/strict';
import type * as UserModule from '../../../src/admin/userCommands';
import { adminWorld, loadPrompter, recorder, ROOTS, standIn, type AdminWorld } from './adminStandIn';

/* eslint-disable @typescript-eslint/no-require-imports */
const load = () => ({
  ...loadPrompter(),
  ...(require('../../../src/admin/userCommands') as typeof UserModule),
});
/* eslint-enable @typescript-eslint/no-require-imports */

const ADA = { id: 'u1', userName: 'ada@example.com', name: { givenName: 'Ada' }, active: true };
const BOB = { id: 'u2', userName: 'bob@example.com', active: false };
const CY = { id: 'u3', userName: 'cy@example.com' };

describe('admin: create, activate, delete users and their group membership', () => {
  let m: ReturnType<typeof load>;
  let restore: () => void;
  before(() => ({ modules: m, restore } = standIn(load)));
  after(() => restore());

  function world(w: AdminWorld & { users?: unknown[] } = {}) {
    const calls: string[] = [];
    const users = w.users ?? [ADA, BOB, CY];
    const admin = {
      listScimUsers: async (q: { filter?: string }) => ({
        items: q.filter
          ? users.filter((u) => q.filter!.includes(`"${(u as { userName: string }).userName}"`))
          : users,
      }),
      listScimGroups: async () => ({
        items: [
          {
            id: 'g1',
            displayName: 'Team',
            members: [
              { value: 'u1', display: 'Ada' },
              { value: 'u3', display: 'Cy' },
            ],
          },
        ],
      }),
      ...recorder(calls, {
        createUser: (b: { email: string }) => ({ id: 77, email: b.email }),
        setScimUserActive: () => ({}),
        deleteScimUser: () => undefined,
        changeGroupMembers: () => ({}),
      }),
    };
    const x = adminWorld(m, { admin }, w);
    return { ...x, calls, cmds: new m.UserCommands(x.deps) };
  }

  it('Create User checks the e-mail, sends it as the user name too, and the first name when given', async () => {
    const x = world({ answers: ['not-mail', ' grace@example.com ', ' Grace '] });
    await x.cmds.createUser();
    assert.deepEqual(x.prompter.refusals, ['Enter an e-mail address, like name@example.com.']);
    assert.deepEqual(x.calls, [
      'createUser({"email":"grace@example.com","username":"grace@example.com","firstName":"Grace"})',
    ]);
    assert.deepEqual(x.refreshed, [ROOTS.users]);
    assert.deepEqual(x.shown.messages, ['info: User grace@example.com created.']);
    const bare = world({ answers: ['h@example.com', ' '] });
    await bare.cmds.createUser();
    assert.deepEqual(bare.calls, ['createUser({"email":"h@example.com","username":"h@example.com"})']);
  });

  it('Activate offers only inactive users; Deactivate only active ones, asked first; the same state is said', async () => {
    const on = world({ answers: ['bob@example.com'] });
    await on.cmds.setActive(undefined, true);
    assert.deepEqual(on.prompter.offered.get('User to activate'), ['bob@example.com']);
    assert.deepEqual(on.confirmations, []);
    assert.deepEqual(on.calls, ['setScimUserActive("u2", true)']);
    assert.deepEqual(on.shown.messages, ['info: bob@example.com activated.']);
    assert.deepEqual(on.refreshed, [ROOTS.users]);
    const off = world({ answers: ['Ada'] });
    await off.cmds.setActive(undefined, false);
    // A user without `active` counts as active.
    assert.deepEqual(off.prompter.offered.get('User to deactivate'), ['Ada', 'cy@example.com']);
    assert.deepEqual(off.confirmations, [
      'Deactivate Ada? | Ada loses access and their sessions end. You can activate the user again later. | Deactivate',
    ]);
    assert.deepEqual(off.calls, ['setScimUserActive("u1", false)']);
    const no = world({ confirm: false });
    await assert.rejects(no.cmds.setActive({ userName: 'ada@example.com' }, false), {
      name: 'UserCancelled',
    });
    assert.deepEqual(no.calls, []);
    const already = world();
    await assert.rejects(
      already.cmds.setActive({ userName: 'ada@example.com' }, true),
      /^Error: Ada is already active\.$/,
    );
    await assert.rejects(
      already.cmds.setActive({ userName: 'bob@example.com' }, false),
      /^Error: bob@example\.com is already inactive\.$/,
    );
    assert.deepEqual(already.calls, []);
    const none = world({ users: [ADA] });
    await assert.rejects(none.cmds.setActive(undefined, true), /^Error: Every user is active\.$/);
    const noneOff = world({ users: [BOB] });
    await assert.rejects(noneOff.cmds.setActive(undefined, false), /^Error: No user is active\.$/);
  });

  it('Delete User names the user and user name in the modal; declined, nothing is sent', async () => {
    const x = world();
    await x.cmds.deleteUser({ userName: 'ada@example.com' });
    assert.deepEqual(x.confirmations, [
      'Delete the user Ada (ada@example.com)? | The user is removed from the tenant with their role assignments. This cannot be undone. | Delete',
    ]);
    assert.deepEqual(x.calls, ['deleteScimUser("u1")']);
    assert.deepEqual(x.shown.messages, ['info: User Ada deleted.']);
    const plain = world();
    await plain.cmds.deleteUser({ userName: 'cy@example.com' });
    assert.equal(plain.confirmations[0]?.split(' | ')[0], 'Delete the user cy@example.com?');
    const no = world({ confirm: false });
    await assert.rejects(no.cmds.deleteUser({ userName: 'ada@example.com' }), { name: 'UserCancelled' });
    assert.deepEqual(no.calls, []);
    const noId = world({ users: [{ userName: 'x@y.io' }] });
    await assert.rejects(
      noId.cmds.deleteUser({ userName: 'x@y.io' }),
      /^Error: The user "x@y\.io" has no SCIM id: refresh Users\.$/,
    );
  });

  it('Add Group Member offers only non-members; Remove names the member, asked first', async () => {
    const add = world({ answers: ['bob@example.com'] });
    await add.cmds.groupMember({ group: 'Team' }, 'add');
    assert.deepEqual(add.prompter.offered.get('User to add to Team'), ['bob@example.com']);
    assert.deepEqual(add.calls, ['changeGroupMembers("g1", {"add":["u2"]})']);
    assert.deepEqual(add.shown.messages, ['info: bob@example.com added to Team.']);
    assert.deepEqual(add.refreshed, [ROOTS.groups]);
    const member = world();
    await assert.rejects(
      member.cmds.groupMember({ group: 'Team', userName: 'ada@example.com' }, 'add'),
      /^Error: Ada is already a member of Team\.$/,
    );
    const remove = world({ answers: ['Cy'] });
    await remove.cmds.groupMember({ group: 'Team' }, 'remove');
    assert.deepEqual(remove.prompter.offered.get('Member of Team'), ['Ada', 'Cy']);
    assert.deepEqual(remove.confirmations, [
      'Remove Cy from the group Team? | Only the membership is removed; the user stays. | Remove Member',
    ]);
    assert.deepEqual(remove.calls, ['changeGroupMembers("g1", {"remove":["u3"]})']);
    assert.deepEqual(remove.shown.messages, ['info: Cy removed from Team.']);
    const byName = world();
    await byName.cmds.groupMember({ group: 'Team', userName: 'Ada' }, 'remove');
    assert.deepEqual(byName.calls, ['changeGroupMembers("g1", {"remove":["u1"]})']);
    const no = world({ confirm: false });
    await assert.rejects(no.cmds.groupMember({ group: 'Team', userName: 'Ada' }, 'remove'), {
      name: 'UserCancelled',
    });
    assert.deepEqual(no.calls, []);
    await assert.rejects(
      no.cmds.groupMember({ group: 'Nope' }, 'add'),
      /^Error: There is no group named "Nope"\.$/,
    );
  });
});
