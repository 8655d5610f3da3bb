// Custom roles through RoleCommands in plain Node: the one-page form (what each row shows, what
// stands in the way of its action), the exact create/update/delete sent, a save that sends only
// what changed, and a declined delete that sends nothing. draftOf / policiesOf / draftProblem are
// the rules the form applies.
import assert from 'node:assert/strict';
import type * as RoleModule from '../../../src/admin/roleCommands';
import { adminWorld, loadPrompter, recorder, ROOTS, standIn, type AdminWorld } from './adminStandIn';

/* eslint-disable @typescript-eslint/no-require-imports */
const load = () => ({
  ...loadPrompter(),
  ...(require('../../../src/admin/roleCommands') as typeof RoleModule),
});
/* eslint-enable @typescript-eslint/no-require-imports */

const ANALYST = {
  id: 501,
  name: 'analyst',
  description: 'reads',
  policies: [
    { resourceType: 'Global', actions: ['AIBIExplore'], resources: ['All'] },
    { resourceType: 'Deployment', actions: ['DeploymentRead'], resources: ['7'] },
    { resourceType: 'Deployment', actions: ['SchemaRead'], resources: ['8'] },
  ],
};

describe('admin: custom role forms', () => {
  let m: ReturnType<typeof load>;
  let restore: () => void;
  before(() => ({ modules: m, restore } = standIn(load)));
  after(() => restore());

  function world(w: AdminWorld & { roles?: unknown[] } = {}) {
    const calls: string[] = [];
    const admin = {
      listRoles: async () => ({ items: w.roles ?? [ANALYST, { id: 502, name: 'ops' }] }),
      ...recorder(calls, {
        getRole: (id: number) => (w.roles ?? [ANALYST]).find((r) => (r as { id: number }).id === id),
        createRole: (b: { name: string }) => ({ id: 600, ...b }),
        updateRole: (_id: never, b: Record<string, unknown>) => ({ ...ANALYST, ...b }),
        deleteRole: () => undefined,
      }),
    };
    const client = {
      admin,
      listDeployments: async () => ({ items: [{ id: 7, name: 'Revenue' }, { id: 8 }] }),
    };
    const x = adminWorld(m, client, w);
    return { ...x, calls, cmds: new m.RoleCommands(x.deps) };
  }

  it('reads a role into the form: its tier, its first deployment grant; other policies kept', () => {
    const d = m.draftOf(ANALYST as never);
    assert.deepEqual(d, {
      name: 'analyst',
      description: 'reads',
      tier: 'AIBIExplore',
      deployments: ['7'],
      actions: ['DeploymentRead'],
      kept: [{ resourceType: 'Deployment', actions: ['SchemaRead'], resources: ['8'] }],
    });
    assert.deepEqual(m.policiesOf(d), ANALYST.policies);
    // A Global policy that is not one tier alone is kept; a second tier policy too.
    const odd = m.draftOf({
      id: 1,
      name: 'x',
      policies: [
        { resourceType: 'Global', actions: ['AIBIView', 'AIBIExplore'] },
        { resourceType: 'Global', actions: ['AIBIView'], resources: ['All'] },
        { resourceType: 'Global', actions: ['AIBIDevelop'], resources: ['All'] },
      ],
    } as never);
    assert.equal(odd.tier, 'AIBIView');
    assert.deepEqual(odd.kept, [
      { resourceType: 'Global', actions: ['AIBIView', 'AIBIExplore'], resources: [] },
      { resourceType: 'Global', actions: ['AIBIDevelop'], resources: ['All'] },
    ]);
    assert.deepEqual(m.draftOf(undefined), {
      name: '',
      description: '',
      tier: undefined,
      deployments: [],
      actions: [],
      kept: [],
    });
    // Deployments without actions (or the reverse) send no deployment policy.
    assert.deepEqual(m.policiesOf({ ...m.draftOf(undefined), deployments: ['All'] }), []);
    assert.deepEqual(m.policiesOf({ ...m.draftOf(undefined), actions: ['DeploymentRead'] }), []);
  });

  it('what stands in the way of a role: the name, a long description, deployments and actions apart', () => {
    const ok = { ...m.draftOf(undefined), name: 'r' };
    const cases: [Partial<RoleModule.RoleDraft>, string | undefined][] = [
      [{}, undefined],
      [{ name: ' ' }, 'Enter a name.'],
      [{ name: 'OPS' }, 'A role named OPS already exists: pick another name.'],
      [{ description: 'd'.repeat(255) }, undefined],
      [{ description: 'd'.repeat(256) }, 'A description has at most 255 characters (this one has 256).'],
      [{ deployments: ['7'] }, 'Pick the actions granted on the deployments.'],
      [{ actions: ['DeploymentRead'] }, 'Pick the deployments the actions apply to.'],
      [{ deployments: ['7'], actions: ['DeploymentRead'] }, undefined],
    ];
    for (const [change, problem] of cases)
      assert.equal(m.draftProblem({ ...ok, ...change }, ['ops']), problem, JSON.stringify(change));
  });

  it('Create Role: the form says what is missing until it is given, then creates exactly that', async () => {
    const x = world({
      answers: [
        'Create Role',
        'Name',
        'analyst',
        'auditor',
        'Description',
        'x'.repeat(256),
        '  audits  ',
        'Base role',
        'Viewer',
        'Deployments',
        ['Revenue'],
        'Create Role',
        'Deployment actions',
        ['DeploymentRead', 'SchemaUpdate'],
        'Create Role',
      ],
    });
    const made = await x.cmds.createRole();
    assert.deepEqual(x.prompter.refusals, [
      'A role named analyst already exists: pick another name.',
      'At most 255 characters (this has 256).',
    ]);
    const form = x.prompter.rows.get('Create Role')!;
    assert.deepEqual(
      form.map((r) => `${r.label}: ${r.description}`),
      [
        'Create Role: ready',
        'Name: auditor',
        'Description: audits',
        'Base role: Viewer',
        'Deployments: Revenue',
        'Deployment actions: DeploymentRead, SchemaUpdate (the console asks for Developer for these actions)',
      ],
    );
    assert.deepEqual(x.calls, [
      'createRole({"name":"auditor","description":"audits","policies":[{"resourceType":"Global","actions":["AIBIView"],"resources":["All"]},{"resourceType":"Deployment","actions":["DeploymentRead","SchemaUpdate"],"resources":["7"]}]})',
    ]);
    assert.equal(made.id, 600);
    assert.deepEqual(x.refreshed, [ROOTS.roles]);
    assert.deepEqual(x.shown.messages, ['info: Role auditor created.']);
  });

  it('the form names the deployments picked, and warns only of actions the base role does not give', async () => {
    const cases: [string, string[], string[], string, string][] = [
      ['Viewer', ['Revenue', 'Deployment 8'], ['DeploymentRead'], 'Revenue, Deployment 8', 'DeploymentRead'],
      [
        'Viewer',
        ['Deployment 8'],
        ['DownloadData', 'SchemaRead'],
        'Deployment 8',
        'DownloadData, SchemaRead (the console asks for Developer for these actions)',
      ],
    ];
    for (const [tier, deployments, actions, shownDeployments, shownActions] of cases) {
      const x = world({
        answers: [
          'Name',
          'r',
          'Base role',
          tier,
          'Deployments',
          deployments,
          'Deployment actions',
          actions,
          'Create Role',
        ],
      });
      await x.cmds.createRole();
      const rows = x.prompter.rows.get('Create Role')!;
      assert.equal(rows.find((r) => r.label === 'Deployments')?.description, shownDeployments);
      assert.equal(rows.find((r) => r.label === 'Deployment actions')?.description, shownActions);
    }
  });

  it('the form offers every deployment by name, All alone when checked, and the actions with their tier', async () => {
    const x = world({
      answers: [
        'Deployments',
        ['All deployments', 'Revenue'],
        'Name',
        'r',
        'Deployment actions',
        ['DownloadData'],
        'Create Role',
      ],
    });
    await x.cmds.createRole();
    assert.deepEqual(x.prompter.offered.get('Create Role: deployments'), [
      'All deployments',
      'Revenue',
      'Deployment 8',
    ]);
    const actions = x.manyRows.get('Create Role: deployment actions') ?? [];
    assert.ok(actions.length > 10, 'the published deployment actions are offered');
    assert.ok(!actions.some((a) => a.label.startsWith('AIBI')), 'no tier among the deployment actions');
    assert.equal(actions.find((a) => a.label === 'DownloadData')?.description, undefined);
    assert.equal(actions.find((a) => a.label === 'SchemaUpdate')?.description, 'Developer base role');
    assert.deepEqual(x.calls, [
      'createRole({"name":"r","policies":[{"resourceType":"Deployment","actions":["DownloadData"],"resources":["All"]}]})',
    ]);
    // The Developer base role (or none) gives these actions: no warning beside them.
    for (const tier of ['Developer', 'None']) {
      const t = world({
        answers: [
          'Name',
          'r',
          'Base role',
          tier,
          'Deployments',
          ['Revenue'],
          'Deployment actions',
          ['SchemaUpdate'],
          'Create Role',
        ],
      });
      await t.cmds.createRole();
      assert.equal(t.prompter.rows.get('Create Role')?.at(-1)?.description, 'SchemaUpdate', tier);
    }
    // Given by arguments: no form.
    const given = world();
    await given.cmds.createRole({ name: 'viewer-ish', tier: 'AIBIView' });
    assert.deepEqual(given.questions, []);
    assert.deepEqual(given.calls, [
      'createRole({"name":"viewer-ish","policies":[{"resourceType":"Global","actions":["AIBIView"],"resources":["All"]}]})',
    ]);
    // The form's first look: nothing given yet.
    const first = world({ answers: ['Create Role'] });
    await assert.rejects(first.cmds.createRole(), { name: 'UserCancelled' });
    assert.deepEqual(
      first.prompter.rows.get('Create Role')?.map((r) => `${r.label}: ${r.description}`),
      [
        'Create Role: not yet: Enter a name.',
        'Name: (none)',
        'Description: (none)',
        'Base role: (none: another role gives it)',
        'Deployments: (none)',
        'Deployment actions: (none)',
      ],
    );
    assert.deepEqual(first.calls, []);
  });

  it('Edit Role sends only what changed; the same values send nothing; other policies are kept and shown', async () => {
    const same = world({ answers: ['Save'] });
    await same.cmds.editRole({ role: 'analyst' });
    assert.deepEqual(same.calls, ['getRole(501)']);
    assert.deepEqual(same.shown.messages, ['info: Nothing to save: role analyst already has these values.']);
    assert.equal(
      same.prompter.rows.get('Edit Role analyst')?.at(-1)?.description,
      '1 kept as they are (Deployment)',
    );
    const x = world({ answers: ['Other policies', 'Description', '', 'Base role', 'Developer', 'Save'] });
    await x.cmds.editRole({ role: 'analyst' });
    assert.deepEqual(x.calls, [
      'getRole(501)',
      'updateRole(501, {"description":null,"policies":[{"resourceType":"Global","actions":["AIBIDevelop"],"resources":["All"]},{"resourceType":"Deployment","actions":["DeploymentRead"],"resources":["7"]},{"resourceType":"Deployment","actions":["SchemaRead"],"resources":["8"]}]})',
    ]);
    assert.deepEqual(x.shown.messages, [
      'info: Policies on other resource types are kept as they are; this form does not change them.',
      'info: Role analyst saved (description, policies).',
    ]);
    assert.deepEqual(x.refreshed, [ROOTS.roles]);
    // Renamed from arguments: only the name is sent; the role's own name is not "taken".
    const renamed = world();
    await renamed.cmds.editRole({ role: 'analyst', name: ' analysts ' });
    assert.deepEqual(renamed.calls, ['getRole(501)', 'updateRole(501, {"name":"analysts"})']);
  });

  it('a role that is not there, or none at all, is said; nothing is sent', async () => {
    const x = world();
    await assert.rejects(
      x.cmds.editRole({ role: 'nope' }),
      /^Error: There is no custom role named "nope"\.$/,
    );
    const none = world({ roles: [] });
    await assert.rejects(
      none.cmds.deleteRole(),
      /^Error: There are no custom roles \(built-in roles cannot be changed\)\.$/,
    );
    assert.deepEqual([...x.calls, ...none.calls], []);
  });

  it('Delete Role asks naming it (and again on production); declined at either, nothing is sent', async () => {
    const x = world({ answers: ['ops'] });
    await x.cmds.deleteRole();
    assert.deepEqual(x.prompter.offered.get('Role to delete'), ['analyst', 'ops']);
    assert.deepEqual(x.prompter.rows.get('Role to delete')?.[0]?.description, 'reads');
    assert.deepEqual(x.confirmations, [
      'Delete the role ops? | Every user and group holding it loses what it grants. This cannot be undone. | Delete Role',
    ]);
    assert.deepEqual(x.calls, ['deleteRole(502)']);
    assert.deepEqual(x.shown.messages, ['info: Role ops deleted.']);
    assert.deepEqual(x.refreshed, [ROOTS.roles]);
    const no = world({ confirm: false });
    await assert.rejects(no.cmds.deleteRole({ role: 'ops' }), { name: 'UserCancelled' });
    const prodNo = world({ production: true, confirm: [true, false] });
    await assert.rejects(prodNo.cmds.deleteRole({ role: 'ops' }), { name: 'UserCancelled' });
    assert.equal(
      prodNo.confirmations[1],
      'Delete Role on the production profile "Live"? | This profile is marked as production: the change applies to live data. | Continue',
    );
    const prodYes = world({ production: true, confirm: [true, true] });
    await prodYes.cmds.deleteRole({ role: 'ops' });
    assert.deepEqual([...no.calls, ...prodNo.calls, ...prodYes.calls], ['deleteRole(502)']);
  });
});
