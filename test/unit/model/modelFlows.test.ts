// The model folder's source-control and branch flows (src/model/gitFlows.ts, branchFlows.ts) in
// plain Node with a stand-in for `vscode` and a recording build client: the exact calls sent, what
// the user is asked and told on success, refusal and an unknown outcome, and that a refused or
// cancelled flow sends nothing (the default branch is never committed read-only, merged into
// itself, or deleted; a production merge or unlock needs the deployment's name typed).
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import type * as BranchFlowsModule from '../../../src/model/branchFlows';
import type * as GitFlowsModule from '../../../src/model/gitFlows';
import type * as MountsModule from '../../../src/model/mounts';
import type * as StateModule from '../../../src/model/modelBranchState';
import type * as SearchModule from '../../../src/model/searchFlow';
import type * as NotebookBranchModule from '../../../src/model/notebookBranch';
import { installModelStandIn, ScriptedUi, useUi } from './modelStandIn';

interface FakeBranch {
  name: string;
  parentBranch?: string | null;
}

/** A build client that records every write and answers from `answers`. */
function fakeBuild(branches: FakeBranch[], answers: Record<string, unknown> = {}) {
  const sent: string[] = [];
  const rec =
    (name: string, answer: unknown) =>
    async (...a: unknown[]) => {
      sent.push(`${name} ${a.map((x) => JSON.stringify(x)).join(' ')}`);
      if (answer instanceof Error) throw answer;
      return answer;
    };
  const client = {
    allBranches: async () => branches,
    listFiles: async () => [{ path: 'model/cubes/orders.yml', content: 'cubes: []\n' }],
    fileHashes: async () => new Map<string, string>(),
    createBranch: async (d: number, body: { name: string; from?: string }) => {
      sent.push(`createBranch ${d} ${JSON.stringify(body)}`);
      branches.push({ name: body.name, parentBranch: body.from ?? 'main' });
      return { name: body.name };
    },
    startDevMode: rec('startDevMode', undefined),
    stopDevMode: rec('stopDevMode', undefined),
    removeBranch: rec('removeBranch', undefined),
    commit: rec('commit', answers.commit ?? { success: true }),
    pull: rec('pull', answers.pull ?? { buildTriggered: true }),
    mergeIntoParent: rec('mergeIntoParent', answers.mergeIntoParent ?? { merged: true }),
    mergeToDefault: rec('mergeToDefault', answers.mergeToDefault ?? { merged: true }),
  };
  return { sent, client };
}

const BRANCHES = (): FakeBranch[] => [
  { name: 'main', parentBranch: null },
  { name: 'dev-ann', parentBranch: 'main' },
  { name: 'dev-bob', parentBranch: 'dev-ann' },
];

describe('model: commit, pull, merge and branch flows (stand-in vscode, recording client)', () => {
  let restore: () => void;
  let Mounts: typeof MountsModule.Mounts;
  let Mount: typeof MountsModule.Mount;
  let BranchFlows: typeof BranchFlowsModule.BranchFlows;
  let GitFlows: typeof GitFlowsModule.GitFlows;
  let ModelBranchState: typeof StateModule.ModelBranchState;
  let searchModel: typeof SearchModule.searchModel;
  let pickNotebookBranch: typeof NotebookBranchModule.pickNotebookBranch;

  before(() => {
    restore = installModelStandIn();
    /* eslint-disable @typescript-eslint/no-require-imports */
    ({ Mounts, Mount } = require('../../../src/model/mounts') as typeof MountsModule);
    ({ BranchFlows } = require('../../../src/model/branchFlows') as typeof BranchFlowsModule);
    ({ GitFlows } = require('../../../src/model/gitFlows') as typeof GitFlowsModule);
    ({ ModelBranchState } = require('../../../src/model/modelBranchState') as typeof StateModule);
    ({ searchModel } = require('../../../src/model/searchFlow') as typeof SearchModule);
    ({ pickNotebookBranch } = require('../../../src/model/notebookBranch') as typeof NotebookBranchModule);
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
  after(() => restore());

  interface Setup {
    branch?: string;
    branches?: FakeBranch[];
    answers?: Record<string, unknown>;
    production?: boolean;
    ui?: ScriptedUi;
    /** Mount these too (same deployment), e.g. to see a merge reload them. */
    also?: string[];
    deployments?: { id: number; name: string; deploymentUrl?: string }[];
  }

  function setup({
    branch = 'dev-ann',
    branches = BRANCHES(),
    answers,
    production = false,
    ui = new ScriptedUi(),
    also = [],
    deployments = [{ id: 1, name: 'Sales' }],
  }: Setup = {}) {
    useUi(ui);
    const { sent, client } = fakeBuild(branches, answers);
    const logs: string[] = [];
    const services = {
      clients: {
        build: async () => client,
        platform: async () => ({
          listDeployments: async () => ({ items: deployments }),
          getDeployment: async (id: number) => deployments.find((d) => d.id === id) ?? { id, name: `#${id}` },
        }),
      },
      profiles: { active: () => ({ profile: { name: 'Sandbox', production } }) },
      modelBranch: { current: { deploymentId: 1, deploymentName: 'Sales', branch: 'dev-bob' } },
      log: { info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m) },
      context: { globalStorageUri: { scheme: 'file', authority: '', path: '/tmp/dp-storage' } },
    };
    const mounts = new Mounts(services as never);
    const announced: string[] = [];
    const flows = new BranchFlows(services as never, mounts, (m) => announced.push(m.branch));
    const reloaded: string[] = [];
    const git = new GitFlows(services as never, mounts, flows, async (m) => void reloaded.push(m.branch));
    const mount = mounts.add(new Mount(1, 'Sales', branch, 'main'));
    for (const b of also) mounts.add(new Mount(1, 'Sales', b, 'main'));
    return { ui, services, sent, logs, mounts, flows, git, mount, reloaded, announced };
  }

  const outcome = (p: Promise<unknown>) =>
    p.then(
      (v) => ({ value: v }),
      (e: Error) => ({ error: e.message }),
    );

  describe('commit', () => {
    const cases: {
      what: string;
      answer?: unknown;
      typed?: string[];
      message?: string;
      result: unknown;
      sent: string[];
      shown: string[];
    }[] = [
      {
        what: 'a confirmed commit enters dev mode on the branch first and says so',
        typed: ['  add orders cube  '],
        result: { value: true },
        sent: ['startDevMode 1 {"branchName":"dev-ann"}', 'commit 1 {"message":"add orders cube"}'],
        shown: ['info: Committed to dev-ann: "add orders cube".'],
      },
      {
        what: 'a message given by the caller is not asked for',
        message: 'from a test',
        result: { value: true },
        sent: ['startDevMode 1 {"branchName":"dev-ann"}', 'commit 1 {"message":"from a test"}'],
        shown: ['info: Committed to dev-ann: "from a test".'],
      },
      {
        what: 'a refusal (success: false) is a warning, not a success',
        answer: { success: false },
        message: 'm',
        result: { value: false },
        sent: ['startDevMode 1 {"branchName":"dev-ann"}', 'commit 1 {"message":"m"}'],
        shown: ['warn: The server did not commit dev-ann.'],
      },
      {
        what: 'an answer without success says the outcome is unknown and how to find out',
        answer: {},
        message: 'm',
        result: { value: false },
        sent: ['startDevMode 1 {"branchName":"dev-ann"}', 'commit 1 {"message":"m"}'],
        shown: [
          'warn: The server answered without saying whether dev-ann was committed. Pull the branch or look at its history to see.',
        ],
      },
      {
        what: 'a dismissed message box sends nothing',
        typed: [undefined as unknown as string],
        result: { error: 'Canceled' },
        sent: [],
        shown: [],
      },
      {
        what: 'a blank message sends nothing',
        typed: ['   '],
        result: { error: 'Canceled' },
        sent: [],
        shown: [],
      },
    ];
    for (const c of cases) {
      it(c.what, async () => {
        const s = setup({ ui: new ScriptedUi([], c.typed ?? []), answers: { commit: c.answer } });
        const r = await outcome(s.git.commit(s.mount.root, c.message ? { message: c.message } : {}));
        assert.deepEqual(r, c.result);
        assert.deepEqual(s.sent, c.sent);
        assert.deepEqual(s.ui.shown, c.shown);
      });
    }

    it('asks for the message in a box that refuses a blank one, titled with the branch', async () => {
      const s = setup({ ui: new ScriptedUi([], ['x']) });
      await s.git.commit(s.mount.root);
      assert.equal(s.ui.inputs.length, 1);
      assert.equal(s.ui.inputs[0]!.title, 'Commit to dev-ann');
      assert.equal(s.ui.inputs[0]!.prompt, 'Message');
      assert.equal(s.ui.inputs[0]!.value, '');
      assert.equal(s.ui.inputs[0]!.validate!('  '), 'Enter a message');
      assert.equal(s.ui.inputs[0]!.validate!(' a '), undefined);
      assert.deepEqual(s.ui.progress, ['Committing to dev-ann…']);
    });

    it('refuses the read-only default branch before asking anything, and commits it once unlocked', async () => {
      const s = setup({ branch: 'main' });
      const r = await outcome(s.git.commit(s.mount.root, { message: 'm' }));
      assert.deepEqual(r, {
        error:
          '"main" is the read-only default branch: create a branch for your changes, or unlock it first.',
      });
      assert.deepEqual(s.sent, []);
      assert.equal(s.ui.inputs.length, 0);
      s.mount.unlocked = true;
      assert.deepEqual(await outcome(s.git.commit(s.mount.root, { message: 'm' })), { value: true });
      assert.deepEqual(s.sent.at(-1), 'commit 1 {"message":"m"}');
    });

    it('enters dev mode once for the branch: a second commit goes straight to the server', async () => {
      const s = setup();
      await s.git.commit(s.mount.root, { message: 'one' });
      await s.git.commit(s.mount.root, { message: 'two' });
      assert.deepEqual(s.sent, [
        'startDevMode 1 {"branchName":"dev-ann"}',
        'commit 1 {"message":"one"}',
        'commit 1 {"message":"two"}',
      ]);
    });
  });

  describe('pull', () => {
    for (const [triggered, said] of [
      [true, 'info: Pulled dev-ann: new changes, a build was started.'],
      [false, 'info: Pulled dev-ann: already up to date.'],
    ] as const) {
      it(`says whether a build started (${String(triggered)}) after reloading the branch`, async () => {
        const s = setup({ answers: { pull: { buildTriggered: triggered } } });
        assert.equal(await s.git.pull(s.mount.root), triggered);
        assert.deepEqual(s.sent, ['pull 1 {"branchName":"dev-ann"}']);
        assert.deepEqual(s.reloaded, ['dev-ann']);
        assert.deepEqual(s.ui.shown, [said]);
        assert.deepEqual(s.ui.progress, ['Pulling dev-ann…']);
      });
    }
  });

  describe('merge into the parent', () => {
    it('names the parent, asks in a modal, merges, reloads the open branches of the deployment', async () => {
      const s = setup({ branch: 'dev-bob', ui: new ScriptedUi([], [], ['Merge']), also: ['dev-ann'] });
      await s.flows.ensureDevMode(s.mount);
      assert.equal(await s.git.mergeIntoParent(s.mount.root), true);
      assert.deepEqual(s.ui.shown, [
        'warn: Merge dev-bob into dev-ann? [Merge] (modal)',
        'info: Merged dev-bob into dev-ann.',
      ]);
      assert.deepEqual(s.ui.details, ['Committed changes of the branch go into its parent branch.']);
      assert.deepEqual(s.sent, [
        'startDevMode 1 {"branchName":"dev-bob"}',
        'mergeIntoParent 1 {"branchName":"dev-bob","message":"Merge dev-bob into dev-ann"}',
      ]);
      assert.deepEqual(s.reloaded.sort(), ['dev-ann', 'dev-bob']);
      // The merge may have moved dev mode: the next write enters it again.
      await s.flows.ensureDevMode(s.mount);
      assert.equal(s.sent.at(-1), 'startDevMode 1 {"branchName":"dev-bob"}');
    });

    it('a declined modal sends nothing; the default branch is refused', async () => {
      const s = setup({ ui: new ScriptedUi([], [], [undefined]) });
      assert.equal(await s.git.mergeIntoParent(s.mount.root), false);
      assert.deepEqual(s.sent, []);
      assert.deepEqual(s.reloaded, []);
      const d = setup({ branch: 'main' });
      assert.deepEqual(await outcome(d.git.mergeIntoParent(d.mount.root, { confirm: true })), {
        error: '"main" is the default branch; it has no parent to merge into.',
      });
      assert.deepEqual(d.sent, []);
    });

    it('a branch the server does not list merges into "its parent"', async () => {
      const s = setup({ branch: 'unlisted', ui: new ScriptedUi([], [], ['Merge']) });
      assert.equal(await s.git.mergeIntoParent(s.mount.root), true);
      assert.deepEqual(s.ui.shown[0], 'warn: Merge unlisted into its parent? [Merge] (modal)');
      assert.deepEqual(s.sent, [
        'mergeIntoParent 1 {"branchName":"unlisted","message":"Merge unlisted into its parent"}',
      ]);
    });

    it('a merge the server did not make is a warning naming why it may be', async () => {
      const s = setup({ answers: { mergeIntoParent: { merged: false } } });
      assert.equal(await s.git.mergeIntoParent(s.mount.root, { confirm: true, message: 'mine' }), false);
      assert.deepEqual(s.sent, ['mergeIntoParent 1 {"branchName":"dev-ann","message":"mine"}']);
      assert.deepEqual(s.ui.shown, [
        'warn: The server did not merge dev-ann (nothing to merge, or a conflict).',
      ]);
    });
  });

  describe('merge to the default branch', () => {
    const cases: {
      what: string;
      production?: boolean;
      buttons: (string | undefined)[];
      typed: (string | undefined)[];
      answer?: unknown;
      result: boolean;
      sent: string[];
      shown: string[];
    }[] = [
      {
        what: 'confirmed, with the message asked (prefilled)',
        buttons: ['Merge to Default'],
        typed: ['ship it'],
        result: true,
        sent: ['mergeToDefault 1 {"branchName":"dev-ann","message":"ship it"}'],
        shown: [
          'warn: Merge dev-ann into main of Sales? [Merge to Default] (modal)',
          'info: Merged dev-ann into main.',
        ],
      },
      {
        what: 'declined: nothing sent',
        buttons: [undefined],
        typed: [],
        result: false,
        sent: [],
        shown: ['warn: Merge dev-ann into main of Sales? [Merge to Default] (modal)'],
      },
      {
        what: 'production: the deployment name typed wrong sends nothing',
        production: true,
        buttons: ['Merge to Default'],
        typed: ['sales'],
        result: false,
        sent: [],
        shown: ['warn: Merge dev-ann into main of Sales? [Merge to Default] (modal)'],
      },
      {
        what: 'production: the name typed, then the message',
        production: true,
        buttons: ['Merge to Default'],
        typed: ['Sales', 'release'],
        result: true,
        sent: ['mergeToDefault 1 {"branchName":"dev-ann","message":"release"}'],
        shown: [
          'warn: Merge dev-ann into main of Sales? [Merge to Default] (modal)',
          'info: Merged dev-ann into main.',
        ],
      },
      {
        what: 'not merged by the server: a warning',
        buttons: ['Merge to Default'],
        typed: ['m'],
        answer: { merged: false },
        result: false,
        sent: ['mergeToDefault 1 {"branchName":"dev-ann","message":"m"}'],
        shown: [
          'warn: Merge dev-ann into main of Sales? [Merge to Default] (modal)',
          'warn: The server did not merge dev-ann into main.',
        ],
      },
    ];
    for (const c of cases) {
      it(c.what, async () => {
        const s = setup({
          production: c.production,
          ui: new ScriptedUi([], c.typed, c.buttons),
          answers: { mergeToDefault: c.answer },
        });
        assert.equal(await s.git.mergeToDefault(s.mount.root), c.result);
        assert.deepEqual(s.sent, c.sent);
        assert.deepEqual(s.ui.shown, c.shown);
        assert.equal(
          s.ui.details[0]!.endsWith(' This is a PRODUCTION profile.'),
          c.production === true,
          s.ui.details[0],
        );
      });
    }

    it('asks the production name in a box that accepts only the exact name, and prefills the message', async () => {
      const s = setup({
        production: true,
        ui: new ScriptedUi([], ['Sales', undefined], ['Merge to Default']),
      });
      await assert.rejects(s.git.mergeToDefault(s.mount.root), { name: 'Canceled' });
      assert.deepEqual(s.sent, []);
      const [name, message] = s.ui.inputs;
      assert.equal(name!.prompt, 'Type "Sales" to merge into its default branch');
      assert.equal(name!.validate!('Sales'), undefined);
      assert.equal(name!.validate!('sales'), 'Type Sales');
      assert.equal(message!.title, 'Merge dev-ann into main');
      assert.equal(message!.value, 'Merge dev-ann');
    });

    it('the default branch is refused without a question', async () => {
      const s = setup({ branch: 'main' });
      assert.deepEqual(await outcome(s.git.mergeToDefault(s.mount.root)), {
        error: '"main" is the default branch already.',
      });
      assert.deepEqual([s.sent, s.ui.shown], [[], []]);
    });
  });

  describe('delete a branch', () => {
    it('offers the dev branches only (marked open, in dev mode here), confirms naming the branch, deletes', async () => {
      const s = setup({ ui: new ScriptedUi(['dev-bob'], [], ['Delete Branch']), also: ['dev-bob'] });
      await s.flows.ensureDevMode(s.mount);
      const bob = s.mounts.get(1, 'dev-bob')!;
      assert.equal(await s.flows.deleteBranch(bob.root), 'dev-bob');
      assert.deepEqual(s.ui.offered, [
        [
          '$(git-branch) dev-ann — from main · dev mode here · open',
          '$(git-branch) dev-bob — from dev-ann · open',
        ],
      ]);
      assert.deepEqual(s.ui.pickOptions, [
        { title: 'Delete a branch of Sales', placeHolder: 'The branch to delete' },
      ]);
      assert.deepEqual(s.sent, [
        'startDevMode 1 {"branchName":"dev-ann"}',
        'removeBranch 1 {"branchName":"dev-bob"}',
      ]);
      assert.equal(s.ui.shown[0], 'warn: Delete the branch "dev-bob" of Sales? [Delete Branch] (modal)');
      assert.equal(
        s.ui.details[0],
        'Its changes that are not merged are lost for everyone, and this cannot be undone. Its open model switches to "main".',
      );
      assert.equal(s.ui.shown.at(-1), 'info: Branch "dev-bob" of Sales deleted.');
      // The open model of the deleted branch now shows the default branch.
      assert.equal(s.mounts.get(1, 'dev-bob'), undefined);
      assert.ok(s.mounts.get(1, 'main'));
      assert.ok(s.logs.includes('Deleted the branch "dev-bob" of Sales.'));
    });

    it('deleting the branch in dev mode here forgets dev mode: going back to it enters it again', async () => {
      const s = setup({ also: ['dev-bob'] });
      const bob = s.mounts.get(1, 'dev-bob')!;
      await s.flows.ensureDevMode(bob);
      await s.flows.deleteBranch(s.mount.root, { branch: 'dev-bob', confirm: true });
      await s.flows.ensureDevMode(bob);
      assert.deepEqual(s.sent, [
        'startDevMode 1 {"branchName":"dev-bob"}',
        'removeBranch 1 {"branchName":"dev-bob"}',
        'startDevMode 1 {"branchName":"dev-bob"}',
      ]);
    });

    const refusals: {
      what: string;
      args?: { branch?: string; confirm?: boolean };
      branches?: FakeBranch[];
      ui?: ScriptedUi;
      result: unknown;
      shown?: string[];
    }[] = [
      {
        what: 'the default branch named',
        args: { branch: 'main', confirm: true },
        result: {
          error: '"main" is the default branch of Sales: it cannot be deleted. Pick a dev branch to delete.',
        },
      },
      {
        what: 'a branch the server does not have',
        args: { branch: 'gone', confirm: true },
        result: { error: 'Sales has no branch "gone" (it may be deleted already). Pick one from the list.' },
      },
      {
        what: 'only the default branch there',
        branches: [{ name: 'main', parentBranch: null }],
        result: { value: undefined },
        shown: ['info: Sales has only its default branch "main", which cannot be deleted.'],
      },
      { what: 'the pick dismissed', ui: new ScriptedUi([undefined]), result: { value: undefined } },
      {
        what: 'the modal declined',
        args: { branch: 'dev-bob' },
        ui: new ScriptedUi([], [], [undefined]),
        result: { value: undefined },
        shown: ['warn: Delete the branch "dev-bob" of Sales? [Delete Branch] (modal)'],
      },
    ];
    for (const r of refusals) {
      it(`sends nothing when refused or cancelled: ${r.what}`, async () => {
        const s = setup({ branches: r.branches, ui: r.ui });
        assert.deepEqual(await outcome(s.flows.deleteBranch(s.mount.root, r.args)), r.result);
        assert.deepEqual(s.sent, []);
        if (r.shown) assert.deepEqual(s.ui.shown, r.shown);
      });
    }

    it('with no model open, asks for the deployment first (one deployment: no question)', async () => {
      const s = setup({
        ui: new ScriptedUi(['Sales EU', 'dev-ann'], [], ['Delete Branch']),
        deployments: [
          { id: 1, name: 'Sales' },
          { id: 2, name: 'Sales EU' },
        ],
      });
      s.mounts.remove(s.mount);
      assert.equal(await s.flows.deleteBranch(), 'dev-ann');
      assert.deepEqual(s.ui.offered[0], ['Sales', 'Sales EU']);
      assert.deepEqual(s.sent, ['removeBranch 2 {"branchName":"dev-ann"}']);
    });
  });

  describe('unlock the default branch', () => {
    const cases: {
      what: string;
      branch?: string;
      production?: boolean;
      buttons?: (string | undefined)[];
      typed?: (string | undefined)[];
      unlocked: boolean;
      shown: string[];
    }[] = [
      {
        what: 'a dev branch needs no unlocking',
        branch: 'dev-ann',
        unlocked: false,
        shown: ['info: "dev-ann" is not the default branch; it is editable.'],
      },
      {
        what: 'confirmed',
        buttons: ['Unlock'],
        unlocked: true,
        shown: ['warn: Edit the default branch "main" of Sales directly? [Unlock] (modal)'],
      },
      {
        what: 'declined',
        buttons: [undefined],
        unlocked: false,
        shown: ['warn: Edit the default branch "main" of Sales directly? [Unlock] (modal)'],
      },
      {
        what: 'production, name typed wrong',
        production: true,
        buttons: ['Unlock'],
        typed: ['SALES'],
        unlocked: false,
        shown: ['warn: Edit the default branch "main" of Sales directly? [Unlock] (modal)'],
      },
      {
        what: 'production, name typed',
        production: true,
        buttons: ['Unlock'],
        typed: ['Sales'],
        unlocked: true,
        shown: ['warn: Edit the default branch "main" of Sales directly? [Unlock] (modal)'],
      },
    ];
    for (const c of cases) {
      it(c.what, async () => {
        const s = setup({
          branch: c.branch ?? 'main',
          production: c.production,
          ui: new ScriptedUi([], c.typed ?? [], c.buttons ?? []),
        });
        await s.flows.unlock(s.mount.root);
        assert.equal(s.mount.unlocked, c.unlocked);
        assert.equal(s.mount.readonly, c.branch === undefined && !c.unlocked);
        assert.deepEqual(s.ui.shown, c.shown);
        // An unlocked branch is announced, so open editors of it become writable.
        assert.deepEqual(s.announced, c.unlocked ? ['main'] : []);
        assert.equal(s.ui.inputs.length, c.typed?.length ?? 0);
        if (c.buttons) assert.equal(s.ui.details[0]!.includes('PRODUCTION'), c.production === true);
        assert.deepEqual(s.sent, []);
      });
    }
  });

  describe('dev mode', () => {
    it('concurrent callers enter dev mode with one request', async () => {
      const s = setup();
      await Promise.all([s.flows.ensureDevMode(s.mount), s.flows.ensureDevMode(s.mount)]);
      await s.flows.ensureDevMode(s.mount);
      assert.deepEqual(s.sent, ['startDevMode 1 {"branchName":"dev-ann"}']);
    });

    it('a failed entry is not remembered: the next write tries again', async () => {
      const s = setup();
      const build = await (s.mounts.build() as Promise<unknown> as Promise<{ startDevMode: unknown }>);
      let calls = 0;
      build.startDevMode = async () => {
        calls++;
        if (calls === 1) throw new Error('down');
      };
      await assert.rejects(s.flows.ensureDevMode(s.mount), /down/);
      await s.flows.ensureDevMode(s.mount);
      await s.flows.ensureDevMode(s.mount);
      assert.equal(calls, 2);
    });

    it('Exit Dev Mode stops it on the server, shows the default branch, and says the branch stays', async () => {
      const s = setup();
      await s.flows.ensureDevMode(s.mount);
      const shown = await s.flows.exitDevMode(s.mount.root);
      assert.equal(shown.branch, 'main');
      assert.deepEqual(s.sent, ['startDevMode 1 {"branchName":"dev-ann"}', 'stopDevMode 1']);
      assert.equal(s.mounts.get(1, 'dev-ann'), undefined);
      assert.deepEqual(s.ui.shown, [
        'info: Dev mode is off on Sales. The branch "dev-ann" stays on the server; the model shows "main" (read-only). Pick the branch again to go on with it.',
      ]);
      assert.ok(s.logs.includes('Left dev mode on Sales (was "dev-ann").'));
    });

    it('Exit Dev Mode on the default branch keeps it in view and says only that dev mode is off', async () => {
      const s = setup({ branch: 'main' });
      assert.equal(await s.flows.exitDevMode(s.mount.root), s.mount);
      assert.deepEqual(s.sent, ['stopDevMode 1']);
      assert.deepEqual(s.ui.shown, ['info: Dev mode is off on Sales.']);
    });

    it('Exit Dev Mode with no default branch is refused before the server is told', async () => {
      const s = setup({ branches: [] });
      await assert.rejects(s.flows.exitDevMode(s.mount.root), {
        message: 'Sales has no default branch to go back to.',
      });
      assert.deepEqual(s.sent, []);
    });
  });

  describe('branch picks and new branches', () => {
    it('the switch pick offers Exit dev mode on a dev branch, marks the default and the current', async () => {
      const s = setup({ ui: new ScriptedUi([undefined]) });
      await assert.rejects(s.flows.switchBranch(s.mount.root), { name: 'Canceled' });
      assert.deepEqual(s.ui.offered[0], [
        '$(debug-stop) Exit dev mode — back to main, read-only',
        '$(add) Create branch…',
        '$(git-branch) main — default, read-only',
        '$(git-branch) dev-ann — from main · current',
        '$(git-branch) dev-bob — from dev-ann',
      ]);
      const d = setup({ branch: 'main', ui: new ScriptedUi([undefined]) });
      await assert.rejects(d.flows.switchBranch(d.mount.root), { name: 'Canceled' });
      assert.equal(d.ui.offered[0]![0], '$(add) Create branch…');
    });

    it('switching to another branch enters dev mode on it and replaces the one in view', async () => {
      const s = setup({ ui: new ScriptedUi(['dev-bob']) });
      const m = await s.flows.switchBranch(s.mount.root);
      assert.equal(m.branch, 'dev-bob');
      assert.deepEqual(s.sent, ['startDevMode 1 {"branchName":"dev-bob"}']);
      assert.equal(s.mounts.get(1, 'dev-ann'), undefined);
      assert.deepEqual(s.ui.progress, ['Loading Sales · dev-bob']);
    });

    it('Create branch… asks a name (validated), creates it from the branch in view in dev mode', async () => {
      const s = setup({ ui: new ScriptedUi(['Create branch…'], [' feature-x '], []) });
      const m = await s.flows.switchBranch(s.mount.root);
      assert.equal(m.branch, 'feature-x');
      assert.deepEqual(s.sent, ['createBranch 1 {"name":"feature-x","from":"dev-ann","activate":true}']);
      const box = s.ui.inputs[0]!;
      assert.equal(box.title, 'New branch from dev-ann');
      assert.deepEqual(
        ['', 'a b', 'dev-bob', ' ok '].map((v) => box.validate!(v)),
        ['Enter a name', 'No spaces in a branch name', 'That branch exists; pick it instead', undefined],
      );
    });

    it('a new branch from a branch gone from the server starts from the default branch', async () => {
      const s = setup({ branch: 'lost' });
      const m = await s.flows.newBranch(s.mount.root, 'again');
      assert.equal(m.branch, 'again');
      assert.deepEqual(s.sent, ['createBranch 1 {"name":"again","from":"main","activate":true}']);
    });

    it('a branch that fails to load as not found is removed and named in the error', async () => {
      const s = setup();
      const build = (await s.mounts.build()) as unknown as { listFiles: unknown };
      build.listFiles = async () => {
        throw new ApiError('notFound', 'no such branch', { status: 404 });
      };
      await assert.rejects(s.flows.open({ deploymentId: 1, branch: 'main' }), (e: Error) => {
        assert.match(
          e.message,
          /^The branch "main" of Sales is not on the server \(no such branch\)\. Pick or create a branch again/,
        );
        return true;
      });
      assert.equal(s.mounts.get(1, 'main'), undefined);
    });

    it('the deployment pick: several offered with their URLs (searchable); dismissed is a cancel, nothing read', async () => {
      const deployments = [
        { id: 1, name: 'Sales', deploymentUrl: 'https://sales.example' },
        { id: 2, name: 'Ops' },
      ];
      const s = setup({ deployments, ui: new ScriptedUi(['Ops', undefined]) });
      assert.deepEqual(await s.flows.pickDeployment(), deployments[1]);
      assert.deepEqual(s.ui.offered[0], ['Sales — https://sales.example', 'Ops']);
      assert.deepEqual(s.ui.pickOptions[0], {
        title: 'Open Data Model: deployment',
        matchOnDescription: true,
      });
      await assert.rejects(s.flows.open(), { name: 'Canceled' });
      assert.deepEqual(s.sent, []);
    });

    it('a failure other than "not found" while loading a branch is passed on as it is', async () => {
      for (const thrown of [new ApiError('auth', 'The token expired.', { status: 401 }), new Error('boom')]) {
        const s = setup();
        const build = (await s.mounts.build()) as unknown as { listFiles: unknown };
        build.listFiles = async () => {
          throw thrown;
        };
        await assert.rejects(s.flows.open({ deploymentId: 1, branch: 'main' }), (e) => e === thrown);
      }
    });

    it('Open Data Model takes the deployment given without a pick, else the one picked', async () => {
      const deployments = [
        { id: 1, name: 'Sales' },
        { id: 2, name: 'Ops' },
      ];
      const given = setup({ deployments });
      const m = await given.flows.open({ deploymentId: 2, branch: 'main', addFolder: false });
      assert.deepEqual([m.deploymentId, m.deploymentName, m.branch], [2, 'Ops', 'main']);
      assert.deepEqual(given.ui.offered, []);
      const picked = setup({ deployments, ui: new ScriptedUi(['Ops']) });
      const p = await picked.flows.open({ branch: 'main', addFolder: false });
      assert.deepEqual([p.deploymentId, p.deploymentName], [2, 'Ops']);
      assert.deepEqual(picked.ui.offered, [['Sales', 'Ops']]);
    });

    it('the deployment pick: none is an error, one is taken without a question', async () => {
      const none = setup({ deployments: [] });
      await assert.rejects(none.flows.pickDeployment(), { message: 'This profile has no deployments.' });
      const one = setup();
      assert.deepEqual(await one.flows.pickDeployment(), { id: 1, name: 'Sales' });
      assert.deepEqual(one.ui.offered, []);
    });
  });

  describe('a branch lost from the server', () => {
    it('still listed: reloads quietly, nothing asked', async () => {
      const s = setup();
      s.mount.missing = true;
      const changed: unknown[] = [];
      s.mounts.onDidChange((m) => changed.push(m));
      await s.flows.recoverLost(s.mount);
      assert.equal(s.mount.missing, false);
      // The status bar hears that the branch is back.
      assert.deepEqual(changed, [s.mount]);
      assert.deepEqual(s.ui.shown, []);
      assert.deepEqual(s.announced, ['dev-ann']);
    });

    it('gone: asks once, "Create Again" creates it from the default branch and mounts it in place', async () => {
      const s = setup({ branch: 'gone', ui: new ScriptedUi([], [], ['Create Again']) });
      await Promise.all([s.flows.recoverLost(s.mount), s.flows.recoverLost(s.mount)]);
      assert.deepEqual(s.ui.shown, [
        'warn: The branch "gone" of Sales is not on the server any more. [Switch to main, Create Again] (modal)',
      ]);
      // Created with activate: dev mode is on it already, so nothing more is sent.
      assert.deepEqual(s.sent, ['createBranch 1 {"name":"gone","from":"main","activate":true}']);
      assert.equal(s.mounts.get(1, 'gone')?.missing, false);
    });

    it('gone: "Switch to main" shows the default branch; dismissing changes nothing', async () => {
      const s = setup({ branch: 'gone', ui: new ScriptedUi([], [], ['Switch to main']) });
      await s.flows.recoverLost(s.mount);
      assert.ok(s.mounts.get(1, 'main'));
      assert.equal(s.mounts.get(1, 'gone'), undefined);
      assert.deepEqual(s.sent, []);
      const d = setup({ branch: 'gone', ui: new ScriptedUi([], [], [undefined]) });
      await d.flows.recoverLost(d.mount);
      assert.equal(d.mount.missing, true);
      assert.equal(d.mounts.get(1, 'gone'), d.mount);
      assert.deepEqual(d.sent, []);
    });
  });

  describe('the branch in view, shared with the chat and notebooks', () => {
    it('tells its listeners of a change once, and of every rebuild', () => {
      const state = new ModelBranchState();
      const seen: unknown[] = [];
      const rebuilt: unknown[] = [];
      state.onDidChange((t) => seen.push(t));
      state.onDidRebuild((r) => rebuilt.push(r));
      const a = { deploymentId: 1, deploymentName: 'Sales', branch: 'dev-ann' };
      state.set(a);
      state.set({ ...a });
      state.set({ ...a, branch: 'dev-bob' });
      state.set({ ...a, branch: 'dev-bob', deploymentName: 'Sales 2' });
      state.set({ ...a, branch: 'dev-bob', deploymentName: 'Sales 2', deploymentId: 2 });
      state.set(undefined);
      state.set(undefined);
      state.rebuilt(1, 'dev-ann');
      assert.deepEqual(seen, [
        a,
        { ...a, branch: 'dev-bob' },
        { ...a, branch: 'dev-bob', deploymentName: 'Sales 2' },
        { deploymentId: 2, deploymentName: 'Sales 2', branch: 'dev-bob' },
        undefined,
      ]);
      assert.equal(state.current, undefined);
      assert.deepEqual(rebuilt, [{ deploymentId: 1, branch: 'dev-ann' }]);
      state.dispose();
      state.rebuilt(1, 'x');
      state.set(a);
      assert.equal(rebuilt.length, 1);
      assert.equal(seen.length, 5);
    });
  });

  describe('Search in Data Model', () => {
    async function searching(ui = new ScriptedUi()) {
      const s = setup({ ui });
      await s.mount.load(s.mounts.build);
      s.mount.files.set('model/cubes/b.yml', {
        content: new TextEncoder().encode('cubes:\n  - name: Orders_B\n'),
        mtime: 0,
      });
      s.mount.files.set('model/cubes/unread.yml', { mtime: 0 });
      return s;
    }

    it('finds the text in every file, case-insensitively, with unsaved editor text first', async () => {
      const s = await searching();
      s.ui.documents = [
        { uri: s.mount.uri('model/cubes/orders.yml'), getText: () => 'x\n- name: orders_new\r\nend' },
      ];
      const found = await searchModel(s.mounts, s.flows, s.mount.root, { query: 'ORDERS', noPicker: true });
      assert.deepEqual(
        found!.map((m) => [m.path, m.line, m.column, m.text, String(m.uri)]),
        [
          ['model/cubes/b.yml', 1, 10, '  - name: Orders_B', 'dpmodel://1/dev-ann/model/cubes/b.yml'],
          [
            'model/cubes/orders.yml',
            1,
            8,
            '- name: orders_new',
            'dpmodel://1/dev-ann/model/cubes/orders.yml',
          ],
        ],
      );
      assert.deepEqual(s.ui.shown, []);
      assert.deepEqual(s.ui.offered, []);
    });

    it('no match is said so; a match picked opens the file with the text selected', async () => {
      const none = await searching();
      assert.deepEqual(await searchModel(none.mounts, none.flows, none.mount.root, { query: 'zzz' }), []);
      assert.deepEqual(none.ui.shown, ['info: No "zzz" in the files of Sales · dev-ann.']);
      assert.deepEqual(none.ui.offered, []);
      const s = await searching(new ScriptedUi(['model/cubes/b.yml:2'], ['name: orders']));
      const found = await searchModel(s.mounts, s.flows, s.mount.root);
      assert.equal(found!.length, 1);
      assert.equal(s.ui.inputs[0]!.title, 'Search in Sales · dev-ann');
      assert.equal(s.ui.inputs[0]!.validate!(' '), 'Type some text to find');
      assert.deepEqual(s.ui.offered, [['$(file) model/cubes/b.yml:2 — - name: Orders_B']]);
      assert.deepEqual(s.ui.pickOptions, [
        { title: '1 matches of "name: orders" in dev-ann', matchOnDescription: true },
      ]);
      const [cmd, uri, options] = s.ui.commands[0] as [
        string,
        unknown,
        { selection: Record<string, number> },
      ];
      assert.equal(cmd, 'showTextDocument');
      assert.equal(String(uri), 'dpmodel://1/dev-ann/model/cubes/b.yml');
      assert.deepEqual(
        { ...options.selection },
        { startLine: 1, startCharacter: 4, endLine: 1, endCharacter: 16 },
      );
      const cancelled = await searching(new ScriptedUi([], [undefined]));
      assert.equal(await searchModel(cancelled.mounts, cancelled.flows, cancelled.mount.root), undefined);
    });
  });

  describe('Run Notebook on a Dev Branch', () => {
    const notebook = (metadata?: Record<string, unknown>, notebookType = 'dashboard-platform-notebook') => ({
      uri: { toString: () => 'file:///q.dpnb' },
      notebookType,
      metadata,
    });
    const cases: {
      what: string;
      metadata?: Record<string, unknown>;
      args?: Record<string, unknown>;
      picks?: (string | undefined)[];
      result: string | undefined;
      offered?: string[];
      edits: unknown[];
    }[] = [
      {
        what: 'offers the deployment itself and its dev branches (current, open in the editor); the pick is kept in the metadata',
        metadata: { deploymentId: 1, devBranch: 'dev-ann', other: 'kept' },
        picks: ['dev-bob'],
        result: 'dev-bob',
        offered: [
          '$(discard) Sales itself (no dev branch)',
          '$(git-branch) dev-ann — current',
          '$(git-branch) dev-bob — open in the editor',
          '$(add) Create branch… — from main',
        ],
        edits: [['file:///q.dpnb', [{ metadata: { deploymentId: 1, devBranch: 'dev-bob', other: 'kept' } }]]],
      },
      {
        what: 'the deployment itself clears the branch with null (a metadata edit merges)',
        metadata: { deploymentId: 1, devBranch: 'dev-ann' },
        picks: ['Sales itself (no dev branch)'],
        result: undefined,
        edits: [['file:///q.dpnb', [{ metadata: { deploymentId: 1, devBranch: null } }]]],
      },
      {
        what: 'without a branch the deployment itself is marked current',
        metadata: { deploymentId: 1 },
        picks: [undefined],
        result: undefined,
        offered: [
          '$(discard) Sales itself (no dev branch) — current',
          '$(git-branch) dev-ann',
          '$(git-branch) dev-bob — open in the editor',
          '$(add) Create branch… — from main',
        ],
        edits: [],
      },
      {
        what: 'dismissed: the branch it had, nothing written',
        metadata: { deploymentId: 1, devBranch: 'dev-ann' },
        picks: [undefined],
        result: 'dev-ann',
        edits: [],
      },
      {
        what: 'a branch given is written without a question',
        metadata: { deploymentId: 1 },
        args: { branch: 'dev-ann' },
        result: 'dev-ann',
        offered: [],
        edits: [['file:///q.dpnb', [{ metadata: { deploymentId: 1, devBranch: 'dev-ann' } }]]],
      },
    ];
    for (const c of cases) {
      it(c.what, async () => {
        const s = setup({ ui: new ScriptedUi(c.picks ?? []) });
        s.ui.activeNotebook = notebook(c.metadata);
        assert.equal(
          await pickNotebookBranch({ ...s.services } as never, s.mounts, s.flows, c.args ?? {}),
          c.result,
        );
        if (c.offered) assert.deepEqual(s.ui.offered, c.offered.length ? [c.offered] : []);
        assert.deepEqual(s.ui.edits, c.edits);
        assert.deepEqual(s.sent, []);
      });
    }

    it('refuses anything but a query notebook', async () => {
      const s = setup();
      await assert.rejects(pickNotebookBranch(s.services as never, s.mounts, s.flows, {}), {
        message: 'Open a query notebook first (New Query Notebook), then choose the branch it runs on.',
      });
      s.ui.activeNotebook = notebook({}, 'jupyter-notebook');
      await assert.rejects(
        pickNotebookBranch(s.services as never, s.mounts, s.flows, {}),
        /Open a query notebook first/,
      );
      assert.deepEqual(s.ui.edits, []);
    });
  });
});
