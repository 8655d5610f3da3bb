// Embed groups and provisioning through their commands in plain Node with a recording client:
// the description saved trimmed after the production question naming it, a delete whose modal
// says what happens to the members, the tenant picked by name with its display name, and a file
// that cannot be read said by its name before anything is sent.
import assert from 'node:assert/strict';
import type * as GroupsModule from '../../../src/admin/embedGroupCommands';
import type * as ProvisioningModule from '../../../src/admin/embedUserProvisioning';
import { adminWorld, loadPrompter, recorder, ROOTS, standIn, type AdminWorld } from './adminStandIn';

/* eslint-disable @typescript-eslint/no-require-imports */
const load = () => ({
  ...loadPrompter(),
  ...(require('../../../src/admin/embedGroupCommands') as typeof GroupsModule),
  ...(require('../../../src/admin/embedUserProvisioning') as typeof ProvisioningModule),
});
/* eslint-enable @typescript-eslint/no-require-imports */

describe('admin: embed group edits and deletes, provisioning from a file', () => {
  let m: ReturnType<typeof load>;
  let restore: () => void;
  before(() => ({ modules: m, restore } = standIn(load)));
  after(() => restore());

  function world(w: AdminWorld & { members?: number; groups?: unknown[] } = {}) {
    const calls: string[] = [];
    const admin = {
      listEmbedTenants: async () => ({
        items: [{ name: 'acme', displayName: 'Acme Inc' }, { name: 'beta' }],
      }),
      listEmbedGroups: async () => ({
        items: w.groups ?? [{ id: 11, name: 'viewers', description: 'old', userCount: 2 }],
      }),
      ...recorder(calls, {
        listEmbedGroupMembers: () => ({
          items: Array.from({ length: w.members ?? 0 }, (_, i) => ({ id: 100 + i })),
        }),
        updateEmbedGroup: (_t: never, _id: never, b: { description: string }) => ({
          id: 11,
          name: 'viewers',
          ...b,
        }),
        removeEmbedGroupMembers: () => ({}),
        deleteEmbedGroup: () => undefined,
      }),
    };
    const x = adminWorld(m, { admin }, w);
    return {
      ...x,
      calls,
      groups: new m.EmbedGroupCommands(x.deps),
      provisioning: new m.EmbedUserProvisioning(x.deps),
    };
  }

  it('Edit Embed Group Description: picks the tenant by name, sends the description trimmed, says saved or cleared', async () => {
    const x = world({ answers: ['acme', '  Read-only dashboards  '] });
    await x.groups.editGroup({ group: 'viewers' });
    assert.deepEqual(
      x.prompter.rows.get('Edit Embed Group: embed tenant')?.map((r) => `${r.label} ${r.description}`),
      ['acme Acme Inc', 'beta undefined'],
    );
    assert.deepEqual(x.writes, ['Save the description of the embed group "viewers"']);
    assert.deepEqual(x.calls, ['updateEmbedGroup("acme", 11, {"description":"Read-only dashboards"})']);
    assert.deepEqual(x.refreshed, [ROOTS.embedTenants]);
    assert.deepEqual(x.shown.messages, ['info: Description of "viewers" saved.']);
    const cleared = world();
    await cleared.groups.editGroup({ tenant: 'acme', group: 'viewers', description: ' ' });
    assert.deepEqual(cleared.calls, ['updateEmbedGroup("acme", 11, {"description":""})']);
    assert.deepEqual(cleared.shown.messages, ['info: Description of "viewers" cleared.']);
  });

  it('a group command asks among the tenant’s groups; a tenant without groups says so, nothing sent', async () => {
    const x = world({ answers: ['viewers', 'for viewers'] });
    await x.groups.editGroup({ tenant: 'acme' });
    assert.deepEqual(x.questions.slice(0, 1), ['pick Edit Embed Group | Pick the group of acme']);
    assert.deepEqual(
      x.prompter.rows.get('Edit Embed Group')?.map((r) => `${r.label} · ${r.description} · ${r.detail}`),
      ['viewers · 2 members · old'],
    );
    assert.deepEqual(x.calls, ['updateEmbedGroup("acme", 11, {"description":"for viewers"})']);
    for (const run of [
      (c: ReturnType<typeof world>) => c.groups.editGroup({ tenant: 'beta' }),
      (c: ReturnType<typeof world>) => c.groups.deleteGroup({ tenant: 'beta' }),
    ]) {
      const none = world({ groups: [] });
      await assert.rejects(run(none), /^Error: beta has no groups: create one with Create Embed Group….$/);
      assert.deepEqual(none.questions, []);
      assert.deepEqual(none.calls, []);
    }
  });

  it('Delete Embed Group: the modal says whether members are removed first; declined, nothing is sent', async () => {
    const cases: [number, string, string][] = [
      [0, '', 'Delete'],
      [
        1,
        'Its 1 member is removed from it first (the users stay in the tenant). ',
        'Remove Members and Delete',
      ],
      [
        2,
        'Its 2 members are removed from it first (the users stay in the tenant). ',
        'Remove Members and Delete',
      ],
    ];
    for (const [members, first, action] of cases) {
      const x = world({ members });
      await x.groups.deleteGroup({ tenant: 'acme', group: 'viewers' });
      assert.deepEqual(x.confirmations, [
        `Delete the embed group "viewers" of acme? | ${first}Embed sessions naming it in tenantGroups are refused, and data-model policies written for it stop matching. This cannot be undone. | ${action}`,
      ]);
      assert.equal(x.calls[0], 'listEmbedGroupMembers("acme", 11, {"first":200})');
      assert.equal(x.calls.at(-1), 'deleteEmbedGroup("acme", 11)');
      assert.equal(x.calls.length, members > 0 ? 3 : 2, x.calls.join('\n'));
      assert.deepEqual(x.shown.messages, ['info: Embed group "viewers" deleted from acme.']);
    }
    const no = world({ members: 1, confirm: false });
    await assert.rejects(no.groups.deleteGroup({ tenant: 'acme', group: 'viewers' }), {
      name: 'UserCancelled',
    });
    assert.deepEqual(no.calls, ['listEmbedGroupMembers("acme", 11, {"first":200})']);
  });

  it('Create Embed Group: no action until the name is given, which the form says', async () => {
    const x = world({ answers: ['description', 'for viewers', 'name'] });
    const e = await x.groups.createGroup({ tenant: 'acme' }).then(
      () => undefined,
      (err: Error) => err,
    );
    assert.equal(e?.name, 'UserCancelled', String(e));
    assert.deepEqual(x.prompter.rows.get('Create Embed Group in acme'), [
      {
        label: 'Name',
        description: 'not set',
        detail: 'Unique in the tenant; it cannot be changed later (sessions name it in tenantGroups).',
      },
      {
        label: 'Description (optional)',
        description: 'for viewers',
        detail: 'What the group is for (at most 500 characters).',
      },
    ]);
    assert.equal(x.questions.at(-2), 'pick Create Embed Group in acme | Fill in Name, then Create the group');
    assert.deepEqual(x.calls, []);
  });

  it('Provision Embed Users from File: a new tenant may be typed; a file that cannot be read is named, nothing sent', async () => {
    const x = world({ answers: ['new-tenant'] });
    await assert.rejects(
      x.provisioning.provisionFromFile({ file: '/nonexistent/dp-users.csv' }),
      /^Error: Cannot read dp-users\.csv: ENOENT/,
    );
    assert.deepEqual(x.questions, [
      'pick Provision Embed Users: embed tenant | Pick the embed tenant, or type a new tenant name',
    ]);
    assert.deepEqual(x.calls, []);
  });
});
