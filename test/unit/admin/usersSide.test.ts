// The users side of Administration through UsersCommands in plain Node: user attributes (create,
// edit), a user's attribute values (an input that fits the type; clear after a modal), one action on
// many users (one modal naming them, the bulk API by platform id or SCIM per user, failures and
// unknown outcomes by name) and SCIM groups (create, rename, delete). Exact requests, words, and
// nothing sent when a removal is declined.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api';
import type * as UsersModule from '../../../src/admin/usersCommands';
import { adminWorld, loadPrompter, recorder, ROOTS, standIn, type AdminWorld } from './adminStandIn';

/* eslint-disable @typescript-eslint/no-require-imports */
const load = () => ({
  ...loadPrompter(),
  ...(require('../../../src/admin/usersCommands') as typeof UsersModule),
});
/* eslint-enable @typescript-eslint/no-require-imports */

const ATTRS = [
  { id: 3, name: 'region', displayName: 'Region', type: 'string' },
  { id: 4, name: 'limit', type: 'number' },
  { id: 5, name: 'beta', type: 'boolean' },
  { id: 6, name: 'teams', type: 'number_array' },
];
// Numeric SCIM ids are platform ids: the bulk API takes them.
const U7 = { id: '7', userName: 'ada@example.com', name: { givenName: 'Ada' } };
const U8 = { id: '8', userName: 'bob@example.com' };
const UUID = { id: '2b1f0c1e-0000-4000-8000-000000000009', userName: 'cy@example.com' };

interface Setup extends AdminWorld {
  users?: unknown[];
  bulk?: (action: string, ids: number[]) => unknown;
  scimFails?: Record<string, unknown>;
  values?: unknown[];
  /** What the service answers to a value set (it echoes the value when not given). */
  saved?: (value: unknown) => unknown;
  /** Receives each SCIM user list request's query. */
  listed?: unknown[];
}

describe('admin: user attributes, values, bulk actions and groups', () => {
  let m: ReturnType<typeof load>;
  let restore: () => void;
  before(() => ({ modules: m, restore } = standIn(load)));
  after(() => restore());

  function world(w: Setup = {}) {
    const calls: string[] = [];
    const users = w.users ?? [U7, U8];
    const admin = {
      listUserAttributes: async () => ({ items: ATTRS }),
      listScimUsers: async (q: { filter?: string }) => {
        w.listed?.push(q);
        return {
          items: q.filter
            ? users.filter((u) => q.filter!.includes(`"${(u as { userName: string }).userName}"`))
            : users,
        };
      },
      listScimGroups: async () => ({
        items: [
          { id: 'g1', displayName: 'Team', members: [{ value: '7' }] },
          { id: 'g2', displayName: 'Ops', members: [{ value: '7' }, { value: '8' }] },
          { id: 'g3', displayName: 'Empty' },
        ],
      }),
      getUserAttributeValues: async () => ({ items: w.values ?? [] }),
      ...recorder(calls, {
        createUserAttribute: (b: Record<string, unknown>) => ({ id: 9, ...b }),
        updateUserAttribute: (_id: never, b: Record<string, unknown>) => ({ id: 3, name: 'region', ...b }),
        setUserAttributeValue: (_u: never, _a: never, value: unknown) => w.saved?.(value) ?? { value },
        bulkUserAction: (action: string, ids: number[]) =>
          w.bulk?.(action, ids) ?? { succeeded: ids, failed: [] },
        setScimUserActive: (id: string) => {
          if (w.scimFails?.[id]) throw w.scimFails[id];
          return {};
        },
        deleteScimUser: (id: string) => {
          if (w.scimFails?.[id]) throw w.scimFails[id];
          return {};
        },
        createScimGroup: (name: string) => ({ id: 'g9', displayName: name }),
        renameScimGroup: (_id: never, name: string) => ({ id: 'g1', displayName: name }),
        deleteScimGroup: () => undefined,
      }),
    };
    const x = adminWorld(m, { admin }, w);
    return { ...x, calls, cmds: new m.UsersCommands(x.deps) };
  }

  it('Create User Attribute asks name, type and display name, and sends them trimmed', async () => {
    const x = world({ answers: [' ', ' tier ', 'string_array', '  '] });
    await x.cmds.createAttribute();
    assert.deepEqual(x.prompter.refusals, ['Enter a name.']);
    assert.deepEqual(x.questions, [
      'input Create User Attribute (1/3) | Name of the attribute (used in security contexts and embed sessions). | value= | e.g. region',
      'pick Create User Attribute (2/3) | The type of its values',
      'input Create User Attribute (3/3) | Display name (optional). | value=',
    ]);
    assert.deepEqual(x.prompter.offered.get('Create User Attribute (2/3)'), [
      'string',
      'number',
      'boolean',
      'string_array',
      'number_array',
    ]);
    assert.deepEqual(x.calls, ['createUserAttribute({"name":"tier","type":"string_array"})']);
    assert.deepEqual(x.refreshed, [ROOTS.userAttributes]);
    assert.deepEqual(x.shown.messages, ['info: User attribute "tier" created.']);
    const named = world();
    await named.cmds.createAttribute({ name: 'a', type: 'number', displayName: ' A ' });
    assert.deepEqual(named.calls, ['createUserAttribute({"name":"a","type":"number","displayName":"A"})']);
  });

  it('Edit User Attribute starts from its values, sends empty as null, refuses a default of the wrong type', async () => {
    const x = world({ answers: ['Region', ' Area ', '', ' eu '] });
    // What each box starts with, exactly: the text, or '' for a field the attribute does not have.
    const boxes: unknown[] = [];
    const input = x.prompter.input.bind(x.prompter);
    x.prompter.input = async (q) => (boxes.push(q.value), input(q));
    await x.cmds.editAttribute();
    assert.deepEqual(boxes, ['Region', '', '']);
    assert.deepEqual(x.prompter.rows.get('User attribute to edit')?.[0], {
      label: 'Region',
      description: 'region · string',
      detail: undefined,
    });
    assert.deepEqual(x.questions.slice(1), [
      'input Edit region (1/3) | Display name (empty for none). | value=Region',
      'input Edit region (2/3) | Description (empty for none). | value=',
      'input Edit region (3/3) | Default value, as text (type string). | value=',
    ]);
    assert.deepEqual(x.calls, [
      'updateUserAttribute(3, {"displayName":"Area","description":null,"defaultValue":"eu"})',
    ]);
    assert.deepEqual(x.shown.messages, ['info: User attribute "region" saved.']);
    const bad = world();
    await assert.rejects(
      bad.cmds.editAttribute({ attribute: 'limit', displayName: '', description: '', defaultValue: 'many' }),
      /^Error: Default value: Enter a number, e\.g\. 42 or 3\.5\.$/,
    );
    assert.deepEqual(bad.calls, []);
    const missing = world();
    await assert.rejects(
      missing.cmds.editAttribute({ attribute: 'nope' }),
      /^Error: There is no user attribute named "nope"\.$/,
    );
  });

  it('Set Value fits the type: a boolean picked, a number refused until it is one, arrays by commas', async () => {
    const bool = world({ answers: ['true'] });
    await bool.cmds.setValue({ userName: 'ada@example.com', attribute: 'beta' }, false);
    assert.deepEqual(bool.prompter.offered.get('beta for Ada'), ['true', 'false']);
    assert.deepEqual(bool.calls, ['setUserAttributeValue(7, 5, true)']);
    assert.deepEqual(bool.shown.messages, ['info: Ada\'s "beta" is now true.']);
    assert.deepEqual(bool.questions.slice(-1), ['pick beta for Ada | The value (a boolean)']);
    assert.deepEqual(
      bool.prompter.rows.get('beta for Ada')?.map((r) => r.label),
      ['true', 'false'],
    );
    const no = world({ answers: ['false'] });
    await no.cmds.setValue({ userName: 'ada@example.com', attribute: 'beta' }, false);
    assert.deepEqual(no.calls, ['setUserAttributeValue(7, 5, false)']);
    const text = world({ answers: ['eu'] });
    await text.cmds.setValue({ userName: 'ada@example.com', attribute: 'region' }, false);
    assert.deepEqual(text.questions.slice(-1), ['input Region for Ada | The value (string). | value=']);
    assert.deepEqual(text.shown.messages, ['info: Ada\'s "Region" is now eu.']);
    const listText = world({ answers: ['1,2'] });
    await listText.cmds.setValue({ userName: 'ada@example.com', attribute: 'teams' }, false);
    assert.deepEqual(listText.questions.slice(-1), [
      'input teams for Ada | Values separated by commas (numbers). | value=',
    ]);
    const num = world({ answers: ['lots', '12.5'] });
    await num.cmds.setValue({ userName: 'ada@example.com', attribute: 'limit' }, false);
    assert.deepEqual(num.prompter.refusals, ['Enter a number, e.g. 42 or 3.5.']);
    assert.deepEqual(num.questions.slice(-1), ['input limit for Ada | A number. | value=']);
    assert.deepEqual(num.calls, ['setUserAttributeValue(7, 4, 12.5)']);
    const arr = world({ answers: ['1, x'] });
    await assert.rejects(
      arr.cmds.setValue({ userName: 'ada@example.com', attribute: 'teams', value: '1, x' }, false),
      /^Error: teams: "x" is not a number: enter numbers separated by commas\.$/,
    );
    assert.deepEqual(arr.calls, []);
    const list = world();
    await list.cmds.setValue({ userName: 'ada@example.com', attribute: 'teams', value: '1, 2' }, false);
    assert.deepEqual(list.calls, ['setUserAttributeValue(7, 6, [1,2])']);
    assert.deepEqual(list.shown.messages, ['info: Ada\'s "teams" is now 1, 2.']);
    // The message says the value the service answered; an answer without one, the value sent.
    const answers: [(v: unknown) => unknown, string][] = [
      [() => ({ value: 'EU' }), 'info: Ada\'s "Region" is now EU.'],
      [() => ({}), 'info: Ada\'s "Region" is now eu.'],
    ];
    for (const [saved, message] of answers) {
      const s = world({ saved });
      await s.cmds.setValue({ userName: 'ada@example.com', attribute: 'region', value: 'eu' }, false);
      assert.deepEqual(s.calls, ['setUserAttributeValue(7, 3, "eu")']);
      assert.deepEqual(s.shown.messages, [message]);
    }
    const nobody = world();
    await assert.rejects(
      nobody.cmds.setValue({ userName: 'x@y.io', attribute: 'beta' }, false),
      /^Error: There is no user named "x@y\.io"\.$/,
    );
  });

  it('Clear Value offers the values set, asks naming them, and sends null; declined, nothing is sent', async () => {
    const values = [
      { userAttributeId: 3, name: 'region', displayName: 'Region', value: 'eu', type: 'string' },
    ];
    const x = world({ values, answers: ['bob@example.com', 'Region'] });
    await x.cmds.setValue(undefined, true);
    assert.deepEqual(x.prompter.rows.get('Value of bob@example.com to clear'), [
      { label: 'Region', description: 'eu', detail: undefined },
    ]);
    assert.deepEqual(x.confirmations, [
      'Clear bob@example.com\'s value of "Region"? | The user falls back to the attribute’s default value, if any. | Clear Value',
    ]);
    assert.deepEqual(x.calls, ['setUserAttributeValue(8, 3, null)']);
    assert.deepEqual(x.shown.messages, ['info: Cleared bob@example.com\'s value of "Region".']);
    const bare = world({
      values: [...values, { userAttributeId: 4, name: 'limit', value: 5, type: 'number' }],
      answers: ['bob@example.com', 'limit'],
    });
    await bare.cmds.setValue(undefined, true);
    assert.deepEqual(bare.prompter.offered.get('Value of bob@example.com to clear'), ['Region', 'limit']);
    assert.deepEqual(bare.calls, ['setUserAttributeValue(8, 4, null)']);
    const no = world({ values, confirm: false, answers: ['bob@example.com', 'Region'] });
    await assert.rejects(no.cmds.setValue(undefined, true), { name: 'UserCancelled' });
    assert.deepEqual(no.calls, []);
    const none = world({ answers: ['bob@example.com'] });
    await assert.rejects(
      none.cmds.setValue(undefined, true),
      /^Error: bob@example\.com has no attribute values set\.$/,
    );
  });

  it('a bulk action names every user in one modal, sends platform ids once, says who was done', async () => {
    const listed: unknown[] = [];
    const x = world({ answers: [['Ada', 'bob@example.com']], listed });
    const r = await x.cmds.many.bulk('DEACTIVATE');
    assert.deepEqual(listed, [{ first: 200 }]);
    assert.deepEqual(x.questions, ['pickMany Deactivate Users | Check the users (at most 100)']);
    assert.deepEqual(x.confirmations, [
      'Deactivate 2 users? | • Ada (ada@example.com)\n• bob@example.com\n\nThey lose access and their sessions end. You can activate them again later. | Deactivate',
    ]);
    assert.deepEqual(x.calls, ['bulkUserAction("DEACTIVATE", [7,8])']);
    assert.deepEqual(r, { succeeded: ['Ada', 'bob@example.com'], failed: [] });
    assert.deepEqual(x.shown.messages, ['info: 2 users deactivated.']);
    assert.deepEqual(x.refreshed, [ROOTS.users]);
    const one = world();
    await one.cmds.many.bulk('ACTIVATE', { userNames: ['bob@example.com'] });
    assert.equal(
      one.confirmations[0],
      'Activate bob@example.com? | • bob@example.com\n\nThey get their access back. | Activate',
    );
    assert.deepEqual(one.shown.messages, ['info: bob@example.com activated.']);
    const no = world({ confirm: false });
    await assert.rejects(no.cmds.many.bulk('DELETE', { userNames: ['ada@example.com'] }), {
      name: 'UserCancelled',
    });
    assert.deepEqual(no.calls, []);
    const none = world({ answers: [''] });
    await assert.rejects(none.cmds.many.bulk('DELETE'), /^Error: No users picked\.$/);
  });

  it('a bulk action with failures says who was not done and why; an unknown outcome names the users', async () => {
    const x = world({
      bulk: () => ({
        succeeded: [7],
        failed: [
          { userId: 8, error: { message: 'owner' } },
          { userId: null, error: { status: 409 } },
        ],
      }),
    });
    await assert.rejects(
      x.cmds.many.bulk('DELETE', { userNames: ['ada@example.com', 'bob@example.com'] }),
      /^Error: Delete: 1 of 2 deleted; not deleted: bob@example\.com: owner; user null: status 409$/,
    );
    const lost = world({
      bulk: () => {
        throw new ApiError('unknownOutcome', 'The connection dropped.');
      },
    });
    const e = await lost.cmds.many.bulk('DELETE', { userNames: ['ada@example.com', 'bob@example.com'] }).then(
      () => undefined,
      (err: unknown) => err,
    );
    assert.ok(e instanceof ApiError && e.kind === 'unknownOutcome', String(e));
    assert.equal(
      e.message,
      'It is unknown whether Ada, bob@example.com were deleted: The connection dropped. Refresh Users to see.',
    );
    assert.deepEqual(lost.refreshed, [ROOTS.users]);
  });

  it('users whose SCIM ids are not platform ids go one SCIM request each, in order, each outcome said', async () => {
    const x = world({ users: [U7, UUID] });
    await x.cmds.many.bulk('ACTIVATE', { userNames: ['ada@example.com', 'cy@example.com'] });
    assert.deepEqual(x.calls, ['setScimUserActive("7", true)', `setScimUserActive("${UUID.id}", true)`]);
    assert.deepEqual(x.shown.messages, ['info: 2 users activated.']);
    const del = world({ users: [UUID] });
    await del.cmds.many.bulk('DELETE', { userNames: ['cy@example.com'] });
    assert.deepEqual(del.calls, [`deleteScimUser("${UUID.id}")`]);
    const fails = world({ users: [U7, UUID], scimFails: { '7': new Error('refused') } });
    await assert.rejects(
      fails.cmds.many.bulk('DEACTIVATE', { userNames: ['ada@example.com', 'cy@example.com'] }),
      /^Error: Deactivate: 1 of 2 deactivated; not deactivated: Ada: refused$/,
    );
    assert.deepEqual(fails.calls, [
      'setScimUserActive("7", false)',
      `setScimUserActive("${UUID.id}", false)`,
    ]);
    const lost = world({
      users: [U7, UUID],
      scimFails: { [UUID.id]: new ApiError('unknownOutcome', 'No answer.') },
    });
    await assert.rejects(
      lost.cmds.many.bulk('DELETE', { userNames: ['ada@example.com', 'cy@example.com'] }),
      /^ApiError: It is unknown whether cy@example\.com was deleted \(Ada was\): No answer\. Refresh Users to see\.$/,
    );
  });

  it('groups: create and rename refuse taken names (any case), delete names the members that lose it', async () => {
    const c = world({ answers: ['', 'team', ' Data '] });
    await c.cmds.many.createGroup();
    assert.deepEqual(c.prompter.refusals, [
      'Enter a name.',
      'A group named team already exists (names are compared without regard to case): pick another name.',
    ]);
    assert.deepEqual(c.calls, ['createScimGroup("Data")']);
    assert.deepEqual(c.shown.messages, ['info: Group Data created.']);
    assert.deepEqual(c.refreshed, [ROOTS.groups]);
    const r = world({ answers: ['Team', 'OPS', 'TEAM'] });
    await r.cmds.many.renameGroup();
    // Its own name (in another case) is not taken.
    assert.equal(r.prompter.refusals.length, 1);
    assert.deepEqual(r.calls, ['renameScimGroup("g1", "TEAM")']);
    assert.deepEqual(r.shown.messages, ['info: Group Team renamed to TEAM.']);
    const cases: [string, string][] = [
      ['Team', '1 member loses the membership; the users themselves stay. This cannot be undone.'],
      ['Ops', '2 members lose the membership; the users themselves stay. This cannot be undone.'],
      ['Empty', '0 members lose the membership; the users themselves stay. This cannot be undone.'],
    ];
    for (const [group, detail] of cases) {
      const d = world();
      await d.cmds.many.deleteGroup({ group });
      assert.deepEqual(d.confirmations, [`Delete the group ${group}? | ${detail} | Delete Group`]);
      assert.equal(d.calls.length, 1);
      assert.deepEqual(d.shown.messages, [`info: Group ${group} deleted.`]);
    }
    const picked = world({ answers: ['Ops'] });
    await picked.cmds.many.deleteGroup();
    assert.deepEqual(picked.questions, ['pick Group to delete | Pick group to delete']);
    assert.deepEqual(picked.prompter.offered.get('Group to delete'), ['Team', 'Ops', 'Empty']);
    assert.deepEqual(picked.calls, ['deleteScimGroup("g2")']);
    const no = world({ confirm: false });
    await assert.rejects(no.cmds.many.deleteGroup({ group: 'Team' }), { name: 'UserCancelled' });
    assert.deepEqual(no.calls, []);
    await assert.rejects(
      no.cmds.many.deleteGroup({ group: 'Nope' }),
      /^Error: There is no group named "Nope"\.$/,
    );
  });
});
