// SCIM users and groups edited whole, through ScimEditCommands in plain Node: the one-page forms,
// the whole user or group sent (a replace keeps every e-mail the user had), a save that changes
// nothing sends nothing, and what the user is told once the service confirms.
import assert from 'node:assert/strict';
import type * as ScimEditModule from '../../../src/admin/scimEditCommands';
import { adminWorld, loadPrompter, recorder, ROOTS, standIn, type AdminWorld } from './adminStandIn';

/* eslint-disable @typescript-eslint/no-require-imports */
const load = () => ({
  ...loadPrompter(),
  ...(require('../../../src/admin/scimEditCommands') as typeof ScimEditModule),
});
/* eslint-enable @typescript-eslint/no-require-imports */

const SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ADA = {
  id: 'u1',
  userName: 'ada@example.com',
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  emails: [{ value: 'old@example.com' }, { value: 'ada@example.com', primary: true }],
  active: true,
  externalId: 'idp-1',
};
const BOB = { id: 'u2', userName: 'bob@example.com' };
const TEAM = {
  id: 'g1',
  displayName: 'Team',
  members: [
    { value: 'u1', display: 'Ada Lovelace' },
    { value: 'gone', display: 'Former' },
  ],
};

describe('admin: SCIM user and group forms', () => {
  let m: ReturnType<typeof load>;
  let restore: () => void;
  before(() => ({ modules: m, restore } = standIn(load)));
  after(() => restore());

  function world(w: AdminWorld & { users?: unknown[]; blankGroup?: boolean } = {}) {
    const calls: string[] = [];
    const users = w.users ?? [ADA, BOB];
    const admin = {
      listScimUsers: async (q: { filter?: string }) => (
        calls.push(`listScimUsers(${JSON.stringify(q)})`),
        {
          items: q.filter
            ? users.filter((u) => q.filter!.includes(`"${(u as { userName: string }).userName}"`))
            : users,
        }
      ),
      listScimGroups: async () => ({
        items: [TEAM, { id: 'g2', displayName: 'Ops' }, { displayName: 'no id' }],
      }),
      ...recorder(calls, {
        createScimUser: (b: Record<string, unknown>) => ({ id: 'u9', ...b }),
        getScimUser: (id: string) => users.find((u) => (u as { id: string }).id === id),
        replaceScimUser: (_id: never, b: Record<string, unknown>) => ({ id: 'u1', ...b }),
        getScimGroup: (id: string) => (id === 'g1' ? TEAM : { id, displayName: w.blankGroup ? '' : 'Ops' }),
        replaceScimGroup: (_id: never, b: Record<string, unknown>) => ({ id: 'g1', ...b }),
      }),
    };
    const x = adminWorld(m, { admin }, w);
    return { ...x, calls, cmds: new m.ScimEditCommands(x.deps) };
  }

  it('the form reads a user (the primary e-mail) and sends the whole user back, other e-mails kept', () => {
    const d = m.userDraftOf(ADA as never);
    assert.deepEqual(d, {
      userName: 'ada@example.com',
      givenName: 'Ada',
      familyName: 'Lovelace',
      email: 'ada@example.com',
      active: true,
      externalId: 'idp-1',
    });
    assert.deepEqual(m.userInputOf({ ...d, email: 'new@example.com' }, ADA as never), {
      schemas: [SCHEMA],
      userName: 'ada@example.com',
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      emails: [
        { value: 'new@example.com', primary: true },
        { value: 'old@example.com', primary: false },
      ],
      active: true,
      externalId: 'idp-1',
    });
    assert.deepEqual(
      m.userDraftOf({ emails: [{ value: 'first@x.io' }, { value: 'second@x.io' }] } as never).email,
      'first@x.io',
    );
    assert.deepEqual(m.userDraftOf(undefined), {
      userName: '',
      givenName: '',
      familyName: '',
      email: '',
      active: true,
      externalId: '',
    });
    assert.deepEqual(m.userInputOf({ ...m.userDraftOf(undefined), userName: ' x ', active: false }), {
      schemas: [SCHEMA],
      userName: 'x',
      active: false,
    });
  });

  it('Create SCIM User: the user name fills the e-mail; a bad e-mail holds the form; sends the user', async () => {
    const x = world({
      answers: [
        'Create User',
        'User name',
        ' ',
        'grace@example.com',
        'E-mail',
        'not-an-address',
        'grace.h@example.com',
        'Given name',
        ' Grace ',
        'Active',
        'off',
        'Create User',
      ],
    });
    await x.cmds.createUser();
    assert.deepEqual(x.prompter.rows.get('Create SCIM User: active'), [
      { label: 'on', description: undefined, detail: 'the user can sign in' },
      { label: 'off', description: undefined, detail: 'the user is deactivated' },
    ]);
    assert.deepEqual(
      x.questions.filter((q) => q.startsWith('input')),
      [
        'input Create SCIM User: user name | The unique name the user signs in with, usually their e-mail. | value=',
        'input Create SCIM User: e-mail | Primary e-mail address (empty for none). | value=grace@example.com',
        'input Create SCIM User: given name | First name (optional). | value=',
      ],
    );
    assert.deepEqual(x.prompter.refusals, [
      'Enter a user name.',
      'Enter an e-mail address, like name@example.com.',
    ]);
    assert.deepEqual(
      x.prompter.rows.get('Create SCIM User')?.map((r) => `${r.label}: ${r.description}`),
      [
        'Create User: ready',
        'User name: grace@example.com',
        'Given name: Grace',
        'Family name: (none)',
        'E-mail: grace.h@example.com',
        'Active: off',
        'External id: (none)',
      ],
    );
    assert.deepEqual(x.calls, [
      `createScimUser({"schemas":["${SCHEMA}"],"userName":"grace@example.com","name":{"givenName":"Grace"},"emails":[{"value":"grace.h@example.com","primary":true}],"active":false})`,
    ]);
    assert.deepEqual(x.refreshed, [ROOTS.users]);
    assert.deepEqual(x.shown.messages, ['info: User Grace created.']);
    // The first look of the form: what stands in the way.
    const first = world({ answers: ['Create User'] });
    await assert.rejects(first.cmds.createUser(), { name: 'UserCancelled' });
    assert.equal(first.prompter.rows.get('Create SCIM User')?.[0]?.description, 'not yet: enter a user name');
    const userNameOnly = world({ answers: ['User name', 'plainname', 'Active', 'on', 'Create User'] });
    await userNameOnly.cmds.createUser();
    assert.equal(
      userNameOnly.prompter.rows.get('Create SCIM User')?.find((r) => r.label === 'Active')?.description,
      'on',
    );
    assert.deepEqual(userNameOnly.calls, [
      `createScimUser({"schemas":["${SCHEMA}"],"userName":"plainname","active":true})`,
    ]);
    assert.deepEqual(userNameOnly.shown.messages, ['info: User plainname created.']);
  });

  it('Edit SCIM User reads the user afresh, sends the replace only when something changed', async () => {
    const x = world();
    const saved = await x.cmds.editUser({ user: 'ada@example.com', changes: { familyName: 'King' } });
    assert.deepEqual(x.calls, [
      'listScimUsers({"first":1,"filter":"userName eq \\"ada@example.com\\""})',
      'getScimUser("u1")',
      `replaceScimUser("u1", {"schemas":["${SCHEMA}"],"userName":"ada@example.com","name":{"givenName":"Ada","familyName":"King"},"emails":[{"value":"ada@example.com","primary":true},{"value":"old@example.com","primary":false}],"active":true,"externalId":"idp-1"})`,
    ]);
    assert.equal(saved.id, 'u1');
    assert.deepEqual(x.shown.messages, ['info: User Ada King saved.']);
    assert.deepEqual(x.refreshed, [ROOTS.users]);
    const same = world({ answers: ['bob@example.com', 'Save'] });
    await same.cmds.editUser();
    assert.deepEqual(same.prompter.offered.get('User to edit'), ['Ada Lovelace', 'bob@example.com']);
    assert.deepEqual(same.calls.slice(1), ['getScimUser("u2")']);
    assert.deepEqual(same.shown.messages, [
      'info: Nothing to save: bob@example.com already has these values.',
    ]);
    const missing = world();
    await assert.rejects(
      missing.cmds.editUser({ user: 'nobody@x.io' }),
      /^Error: There is no user named "nobody@x\.io"\.$/,
    );
    const noId = world({ users: [{ userName: 'x@y.io' }] });
    await assert.rejects(
      noId.cmds.editUser({ user: 'x@y.io' }),
      /^Error: This user has no SCIM id, so it cannot be edited\.$/,
    );
    const none = world({ users: [] });
    await assert.rejects(none.cmds.editUser(), /^Error: There are no users\.$/);
  });

  it('Edit Group: renames and changes members in one replace, and says what changed by name', async () => {
    const x = world({
      answers: [
        'Name',
        'ops',
        'x'.repeat(256),
        '  Core Team ',
        'Members',
        ['Ada Lovelace', 'bob@example.com'],
        'Save',
      ],
    });
    await x.cmds.editGroup({ group: 'Team' });
    assert.deepEqual(x.prompter.refusals, [
      'A group named ops already exists (names are compared without regard to case): pick another name.',
      'A group name has at most 255 characters (this one has 256).',
    ]);
    assert.deepEqual(
      x.manyRows.get('Edit Group Team: members')?.map((r) => `${r.label} ${r.checked}`),
      ['Ada Lovelace true', 'Former true', 'bob@example.com false'],
    );
    assert.deepEqual(
      x.prompter.rows.get('Edit Group Team')?.map((r) => `${r.label}: ${r.description}`),
      ['Save: ready', 'Name: Core Team', 'Members: 2: Ada Lovelace, bob@example.com'],
    );
    assert.deepEqual(x.questions.slice(0, 2), [
      'pick Edit Group Team | Pick a field to change it, then Save',
      'input Edit Group Team: name | The group’s name. | value=Team',
    ]);
    assert.deepEqual(x.prompter.offered.get('Edit Group Team: members'), [
      'Ada Lovelace',
      'Former',
      'bob@example.com',
    ]);
    assert.deepEqual(x.calls, [
      'getScimGroup("g1")',
      'listScimUsers({"first":200})',
      'replaceScimGroup("g1", {"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Core Team","members":[{"value":"u1"},{"value":"u2"}]})',
    ]);
    assert.deepEqual(x.shown.messages, [
      'info: Group Core Team saved: renamed from Team; added bob@example.com; removed Former.',
    ]);
    assert.deepEqual(x.refreshed, [ROOTS.groups]);
  });

  it('Edit Group from arguments: members by user name; nothing changed sends nothing; a taken name is refused', async () => {
    const add = world();
    await add.cmds.editGroup({ group: 'Ops', members: ['bob@example.com'] });
    assert.equal(
      add.calls.at(-1),
      'replaceScimGroup("g2", {"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Ops","members":[{"value":"u2"}]})',
    );
    assert.deepEqual(add.shown.messages, ['info: Group Ops saved: added bob@example.com.']);
    const same = world();
    await same.cmds.editGroup({ group: 'Ops', members: [] });
    assert.ok(!same.calls.some((c) => c.startsWith('replaceScimGroup')), same.calls.join('\n'));
    assert.deepEqual(same.shown.messages, ['info: Nothing to save: Ops already has these values.']);
    const taken = world();
    await assert.rejects(
      taken.cmds.editGroup({ group: 'Team', name: 'OPS' }),
      /^Error: Group not saved: A group named OPS already exists/,
    );
    const unknown = world();
    await assert.rejects(
      unknown.cmds.editGroup({ group: 'Team', members: ['carol'] }),
      /^Error: There is no user named "carol"\.$/,
    );
    const noGroup = world();
    await assert.rejects(
      noGroup.cmds.editGroup({ group: 'Nope' }),
      /^Error: There is no group named "Nope"\.$/,
    );
    // A form that cannot be saved says why, on the Save row and in the placeholder once picked.
    const blank = world({ answers: ['Members', '', 'Save'], blankGroup: true });
    await assert.rejects(blank.cmds.editGroup({ group: 'Ops' }), { name: 'UserCancelled' });
    assert.deepEqual(
      blank.prompter.rows.get('Edit Group ')?.map((r) => `${r.label}: ${r.description}`),
      ['Save: not yet: Enter a name.', 'Name: (none)', 'Members: 0: (none)'],
    );
    assert.equal(blank.questions.at(-1), 'pick Edit Group  | Save: Enter a name.');
    assert.deepEqual(
      blank.calls.filter((c) => c.startsWith('replace')),
      [],
    );
    // A user whose e-mail on record is not an address cannot be saved until it is fixed.
    const bad = world({
      users: [{ id: 'u5', userName: 'x', emails: [{ value: 'not-mail' }] }],
      answers: ['Save'],
    });
    await assert.rejects(bad.cmds.editUser({ user: 'x' }), { name: 'UserCancelled' });
    assert.equal(
      bad.prompter.rows.get('Edit User x')?.[0]?.description,
      'not yet: the e-mail is not an address',
    );
    const noId = world({ answers: ['no id'] });
    await assert.rejects(
      noId.cmds.editGroup(),
      /^Error: This group has no SCIM id, so it cannot be edited\.$/,
    );
    for (const w of [taken, unknown, noGroup, noId])
      assert.ok(!w.calls.some((c) => c.startsWith('replaceScimGroup')), w.calls.join('\n'));
  });
});
