// Where a query notebook's cells run, as the user reads it: the cell status bar item (profile,
// deployment by name, dev branch, signed out, missing profile), the deployment status bar entry and
// its picker (what is stored in the notebook), Select Notebook Profile (what is stored, what is
// cleared) and the name of a profile's default Data API. Plain Node with a stand-in for `vscode`;
// the platform and Data API clients are recording fakes (only their lists and claims matter here).
import assert from 'node:assert/strict';
import type * as DeploymentNameModule from '../../../src/notebook/deploymentName';
import type * as PickerModule from '../../../src/notebook/deploymentPicker';
import type * as ProfileModule from '../../../src/notebook/notebookProfile';
import type * as TargetModule from '../../../src/notebook/targetStatus';
import { fakeNotebook, installVscodeFake, type VsHooks } from './vscodeFake';

interface Dep {
  id: number;
  name: string;
  deploymentUrl?: string | null;
}

interface World {
  active?: string;
  profiles: { name: string; defaultDeploymentId?: number; production?: boolean; environment?: string }[];
  secrets: Set<string>;
  deployments: Dep[];
  /** The platform client fails (signed out, offline). */
  platformFails?: boolean;
  /** The Data API client cannot be made (no URL). */
  dataFails?: boolean;
  dataCalls: number;
  dataUrl: string;
  claims: Record<string, unknown>;
  listed: string[];
  warned: string[];
}

function servicesOf(w: World) {
  return {
    log: { warn: (m: string) => w.warned.push(m) },
    profiles: {
      get: (n: string) => w.profiles.find((p) => p.name.toLowerCase() === n.toLowerCase()),
      list: () => w.profiles,
      active: () =>
        w.active ? { profile: w.profiles.find((p) => p.name === w.active) ?? { name: w.active } } : undefined,
      isSandbox: (n: string) => n === 'Sandbox',
      hasSecret: async (kind: string, n: string) => w.secrets.has(`${kind}:${n}`),
      onDidChangeActiveProfile: () => ({ dispose: () => undefined }),
      onDidChangeProfiles: () => ({ dispose: () => undefined }),
      onDidChangeSecrets: () => ({ dispose: () => undefined }),
    },
    clients: {
      platform: async (profile?: string) => {
        if (w.platformFails) throw new Error('signed out');
        return {
          listDeployments: async (q: { first: number }) => {
            w.listed.push(`list ${profile ?? '(active)'} first=${q.first}`);
            return { items: w.deployments, hasMore: false };
          },
          getDeployment: async (id: number) => {
            w.listed.push(`get ${profile} ${id}`);
            const d = w.deployments.find((x) => x.id === id);
            if (!d) throw new Error('not found');
            return d;
          },
        };
      },
      data: async () => {
        w.dataCalls++;
        if (w.dataFails) throw new Error('no Data API URL');
        return { baseUrl: w.dataUrl, tokenClaims: async () => w.claims };
      },
    },
  };
}

describe('notebook target: profile, deployment and branch as the user reads them', () => {
  let fake: ReturnType<typeof installVscodeFake>;
  let hooks: VsHooks;
  let P: typeof ProfileModule;
  let T: typeof TargetModule;
  let D: typeof DeploymentNameModule;
  let K: typeof PickerModule;
  let w: World;

  before(() => {
    fake = installVscodeFake();
    hooks = fake.hooks;
    P = fake.load('../../../src/notebook/notebookProfile');
    T = fake.load('../../../src/notebook/targetStatus');
    D = fake.load('../../../src/notebook/deploymentName');
    K = fake.load('../../../src/notebook/deploymentPicker');
  });
  after(() => fake.uninstall());
  beforeEach(() => {
    hooks.reset();
    w = {
      active: 'Sandbox',
      profiles: [
        { name: 'Sandbox', environment: 'local' },
        { name: 'Prod', defaultDeploymentId: 2, production: true },
        { name: 'Dev' },
      ],
      secrets: new Set(['dataApiToken:Prod']),
      deployments: [
        { id: 1, name: 'Sales', deploymentUrl: 'https://sales.example' },
        { id: 2, name: 'Finance', deploymentUrl: null },
      ],
      dataUrl: 'https://data.example/cubejs-api',
      claims: {},
      listed: [],
      warned: [],
      dataCalls: 0,
    };
  });

  describe('the cell status bar item', () => {
    const table: {
      what: string;
      meta?: Record<string, unknown>;
      active?: string;
      secrets?: string[];
      text: string;
      tooltip: string;
      problem: boolean;
    }[] = [
      {
        what: 'the active profile, its Data API named by the deployment whose URL it is',
        text: '$(plug) Sandbox · Sales',
        tooltip: 'Cells run on the active profile "Sandbox", Sales. Click to pick the notebook\'s profile.',
        problem: false,
      },
      {
        what: "the notebook's profile (not the active one), its default deployment by name",
        meta: { profile: 'prod' },
        text: '$(plug) Prod · Finance',
        tooltip:
          'Cells run on the notebook\'s profile "Prod", Finance. The active profile stays "Sandbox". Click to pick the notebook\'s profile.',
        problem: false,
      },
      {
        what: 'a deployment the list does not name, and a dev branch',
        meta: { deploymentId: 9, devBranch: 'feat' },
        text: '$(plug) Sandbox · deployment 9 · branch feat (dev mode)',
        tooltip:
          'Cells run on the active profile "Sandbox", deployment 9 · branch feat (dev mode). Click to pick the notebook\'s profile.',
        problem: false,
      },
      {
        what: 'a profile with no token',
        meta: { profile: 'Dev' },
        text: '$(warning) Dev · signed out',
        tooltip:
          'Cells run on the notebook\'s profile "Dev", which has no token here. Set one (Set Token…) or click to pick another profile for this notebook. The active profile stays "Sandbox".',
        problem: true,
      },
      {
        what: 'a platform token is a token',
        meta: { profile: 'Dev', deploymentId: 1 },
        secrets: ['platformToken:Dev'],
        text: '$(plug) Dev · Sales',
        tooltip:
          'Cells run on the notebook\'s profile "Dev", Sales. The active profile stays "Sandbox". Click to pick the notebook\'s profile.',
        problem: false,
      },
      {
        what: 'a stored profile missing here',
        meta: { profile: 'Staging' },
        text: '$(warning) No profile "Staging" here',
        tooltip:
          'This notebook runs on the profile "Staging", which does not exist here. Pick a profile for the notebook (Select Notebook Profile…), or add a profile named "Staging". Click to pick one.',
        problem: true,
      },
      {
        what: 'no profile at all',
        active: '',
        text: '$(debug-disconnect) No profile',
        tooltip:
          'No profile is active and this notebook names none. Pick a profile for the notebook. Click to pick one.',
        problem: true,
      },
    ];
    for (const row of table) {
      it(row.what, async () => {
        if (row.active !== undefined) w.active = row.active || undefined;
        for (const s of row.secrets ?? []) w.secrets.add(s);
        w.dataUrl = 'https://sales.example/cubejs-api/';
        const status = new T.TargetStatus(servicesOf(w) as never);
        const nb = fakeNotebook(row.meta ?? {}, [{}, { kind: 1 }]);
        const d = await status.describe(nb as never);
        assert.deepEqual(
          { text: d.text, tooltip: d.tooltip, problem: d.problem },
          { text: row.text, tooltip: row.tooltip, problem: row.problem },
        );
        assert.deepEqual(d.command, {
          command: 'dashboardPlatform.notebook.selectProfile',
          title: 'Select Notebook Profile…',
          arguments: [{ notebook: 'file:///work/q.dpnb' }],
        });
        const items = (await status.provideCellStatusBarItems(nb.cells[0] as never)) as unknown as Record<
          string,
          unknown
        >[];
        assert.deepEqual(
          items.map((i) => [i.text, i.tooltip, i.alignment, i.command]),
          [[row.text, row.tooltip, 2, d.command]],
        );
        assert.deepEqual(await status.provideCellStatusBarItems(nb.cells[1] as never), [], 'markdown: none');
        status.dispose();
      });
    }

    it('lists deployments once per profile (any spelling) until profiles change', async () => {
      const status = new T.TargetStatus(servicesOf(w) as never);
      await status.describe(fakeNotebook({ deploymentId: 1 }) as never);
      await status.describe(fakeNotebook({ profile: 'SANDBOX', deploymentId: 2 }) as never);
      assert.deepEqual(w.listed, ['list Sandbox first=100']);
      assert.equal(
        (await status.describe(fakeNotebook({ deploymentId: 2 }) as never)).text,
        '$(plug) Sandbox · Finance',
      );
      status.dispose();
    });

    it("the default is looked up once per profile; without a Data API it is the profile's Data API", async () => {
      const status = new T.TargetStatus(servicesOf(w) as never);
      await status.describe(fakeNotebook() as never);
      await status.describe(fakeNotebook({ profile: 'SANDBOX' }) as never);
      assert.equal(w.dataCalls, 1);
      w.dataFails = true;
      const other = new T.TargetStatus(servicesOf(w) as never);
      assert.equal(
        (await other.describe(fakeNotebook() as never)).text,
        "$(plug) Sandbox · the profile's Data API",
      );
      status.dispose();
      other.dispose();
    });

    it('a failed deployment list leaves ids; a failed default names the Data API', async () => {
      w.platformFails = true;
      const status = new T.TargetStatus(servicesOf(w) as never);
      assert.equal(
        (await status.describe(fakeNotebook({ deploymentId: 1 }) as never)).text,
        '$(plug) Sandbox · deployment 1',
      );
      assert.equal(
        (await status.describe(fakeNotebook() as never)).text,
        '$(plug) Sandbox · Data API at data.example',
      );
      status.dispose();
    });
  });

  describe("the name of a profile's default Data API", () => {
    const table: {
      what: string;
      dataUrl?: string;
      claims?: Record<string, unknown>;
      deps?: Dep[];
      fails?: boolean;
      name: string;
    }[] = [
      {
        what: 'the deployment whose Data API URL it is',
        dataUrl: 'https://sales.example/cubejs-api',
        name: 'Sales',
      },
      {
        what: 'trailing slashes ignored',
        dataUrl: 'https://sales.example/cubejs-api//',
        name: 'Sales',
      },
      { what: 'the deployment the token was minted for', claims: { deploymentId: 2 }, name: 'Finance' },
      { what: 'the older claim name', claims: { deployment_id: '2' }, name: 'Finance' },
      {
        what: 'a claim naming no listed deployment',
        claims: { deploymentId: 7 },
        name: 'Data API at data.example',
      },
      { what: 'the only deployment there is', deps: [{ id: 5, name: 'Only' }], name: 'Only' },
      { what: 'no deployment to match', deps: [], name: 'Data API at data.example' },
      { what: 'the list failing', fails: true, name: 'Data API at data.example' },
      { what: 'a URL that does not parse', dataUrl: 'not a url', fails: true, name: 'Data API at not a url' },
    ];
    for (const row of table) {
      it(`${row.what}: ${row.name}`, async () => {
        if (row.dataUrl) w.dataUrl = row.dataUrl;
        if (row.claims) w.claims = row.claims;
        if (row.deps) w.deployments = row.deps;
        w.platformFails = row.fails;
        assert.equal(await D.defaultDeploymentName(servicesOf(w) as never, 'Sandbox'), row.name);
      });
    }
  });

  describe('the deployment status bar entry and its picker', () => {
    const editorOn = (nb: ReturnType<typeof fakeNotebook>) => (hooks.activeNotebookEditor = { notebook: nb });
    const flush = () => new Promise((r) => setTimeout(r, 0));

    it('names the notebook’s deployment, else the profile default, else what answers; hidden elsewhere', async () => {
      const nb = fakeNotebook({ deploymentId: 1 });
      editorOn(nb);
      w.dataUrl = 'https://sales.example/cubejs-api';
      const picker = new K.DeploymentPicker(
        servicesOf(w) as never,
        'dashboardPlatform.notebook.selectDeployment',
      );
      const item = hooks.statusItems[0]! as Record<string, unknown>;
      assert.equal(item.id, 'dashboardPlatform.notebook.deployment');
      assert.equal(item.name, 'Query Notebook Deployment');
      assert.equal(item.command, 'dashboardPlatform.notebook.selectDeployment');
      assert.equal(item.text, '$(server) Deployment 1', 'before the name is known');
      assert.equal(item.visible, true);
      await flush();
      assert.equal(item.text, '$(server) Sales');
      assert.equal(item.tooltip, 'Deployment this query notebook runs against. Click to change.');
      nb.metadata = { profile: 'Prod' };
      picker.update();
      await flush();
      assert.equal(item.text, '$(server) Finance (default)');
      nb.metadata = {};
      picker.update();
      assert.equal(item.text, '$(server) Sales', "what the profile's Data API answers for");
      // Looked up once each.
      assert.deepEqual(
        w.listed.filter((l) => l.startsWith('get')),
        ['get Sandbox 1', 'get Prod 2'],
      );
      hooks.activeNotebookEditor = { notebook: { ...nb, notebookType: 'jupyter-notebook' } };
      picker.update();
      assert.equal(item.visible, false);
      hooks.activeNotebookEditor = undefined;
      item.visible = true;
      picker.update();
      assert.equal(item.visible, false);
      picker.dispose();
      assert.equal(item.disposed, true);
    });

    it("until known, the profile's Data API; then the deployment it answers for", async () => {
      editorOn(fakeNotebook({}));
      w.dataUrl = 'https://sales.example/cubejs-api';
      const picker = new K.DeploymentPicker(servicesOf(w) as never, 'x');
      const item = hooks.statusItems[0] as Record<string, unknown>;
      assert.equal(item.text, "$(server) The profile's Data API");
      await flush();
      assert.equal(item.text, '$(server) Sales');
      w.platformFails = true;
      editorOn(fakeNotebook({ profile: 'Dev' }));
      picker.update();
      await flush();
      assert.equal(item.text, '$(server) Data API at sales.example', 'no list: the host');
      picker.dispose();
    });

    it('an unknown deployment stays "Deployment <id>" without asking again', async () => {
      const nb = fakeNotebook({ deploymentId: 9 });
      editorOn(nb);
      const picker = new K.DeploymentPicker(servicesOf(w) as never, 'x');
      await flush();
      picker.update();
      await flush();
      assert.equal((hooks.statusItems[0] as Record<string, unknown>).text, '$(server) Deployment 9');
      assert.deepEqual(
        w.listed.filter((l) => l.startsWith('get')),
        ['get Sandbox 9'],
      );
      picker.dispose();
    });

    const pickTable: {
      what: string;
      meta?: Record<string, unknown>;
      choose?: string;
      input?: string;
      value?: number | null;
      result: number | undefined;
      stored?: Record<string, unknown>;
    }[] = [
      {
        what: 'a listed deployment, and the active profile with it',
        choose: 'Finance',
        result: 2,
        stored: { deploymentId: 2, profile: 'Sandbox' },
      },
      {
        what: 'the profile default clears the choice',
        meta: { profile: 'Prod', deploymentId: 1, other: 'kept' },
        choose: '$(discard) Use the profile default',
        result: undefined,
        stored: { profile: 'Prod', other: 'kept' },
      },
      {
        what: 'a typed id',
        choose: '$(edit) Enter a deployment id…',
        input: ' 42 ',
        result: 42,
        stored: { deploymentId: 42, profile: 'Sandbox' },
      },
      {
        what: 'an empty typed id is the default',
        meta: { deploymentId: 1 },
        choose: '$(edit) Enter a deployment id…',
        input: '',
        result: undefined,
        stored: { profile: 'Sandbox' },
      },
      { what: 'a dismissed pick changes nothing', meta: { deploymentId: 1 }, result: 1 },
      {
        what: 'a dismissed id box changes nothing',
        meta: { deploymentId: 1 },
        choose: '$(edit) Enter a deployment id…',
        result: 1,
      },
      {
        what: 'an id given by the command',
        value: 7,
        result: 7,
        stored: { deploymentId: 7, profile: 'Sandbox' },
      },
      {
        what: 'null given by the command is the default',
        meta: { deploymentId: 3, profile: 'Prod' },
        value: null,
        result: undefined,
        stored: { profile: 'Prod' },
      },
    ];
    for (const row of pickTable) {
      it(`pick: ${row.what}`, async () => {
        const nb = fakeNotebook(row.meta ?? {});
        editorOn(nb);
        hooks.pick = (items) => items.find((i) => i.label === row.choose);
        hooks.input = () => row.input;
        const picker = new K.DeploymentPicker(servicesOf(w) as never, 'x');
        const got = await picker.pick(undefined, row.value);
        assert.equal(got, row.result);
        if (row.stored) {
          assert.equal(hooks.edits.length, 1);
          const [uri, edits] = hooks.edits[0]!;
          assert.equal(uri, nb.uri);
          assert.deepEqual(edits, [{ type: 'notebookMetadata', metadata: row.stored }]);
        } else assert.deepEqual(hooks.edits, [], 'nothing stored');
        picker.dispose();
      });
    }

    it('offers the profile’s deployments with the current one marked, and checks a typed id', async () => {
      const nb = fakeNotebook({ profile: 'Prod', deploymentId: 2 });
      editorOn(nb);
      hooks.pick = (items) => items.find((i) => i.label.startsWith('$(edit)'));
      hooks.input = () => undefined;
      const picker = new K.DeploymentPicker(servicesOf(w) as never, 'x');
      await picker.pick();
      const { items, options } = hooks.quickPicks[0]!;
      assert.deepEqual(
        (items as Record<string, unknown>[]).map((i) => [i.label, i.description]),
        [
          ['Sales', 'id 1'],
          ['Finance', 'id 2 · current'],
          ['$(discard) Use the profile default', undefined],
          ['$(edit) Enter a deployment id…', undefined],
        ],
      );
      assert.deepEqual(options, { title: 'Deployment for this notebook', matchOnDescription: true });
      assert.ok(w.listed.includes('list Prod first=100'));
      const box = hooks.inputBoxes[0]! as {
        value: string;
        prompt: string;
        validateInput(v: string): string | undefined;
      };
      assert.equal(box.value, '2');
      assert.equal(box.prompt, 'Deployment id; leave empty to use the profile default');
      assert.deepEqual(
        ['', ' 12 ', '1.5', 'abc', '-3'].map((v) => box.validateInput(v)),
        [
          undefined,
          undefined,
          'A whole number, or empty',
          'A whole number, or empty',
          'A whole number, or empty',
        ],
      );
      picker.dispose();
    });

    it('without a deployment list, still offers the default and a typed id, and logs why', async () => {
      w.platformFails = true;
      const nb = fakeNotebook({});
      editorOn(nb);
      const picker = new K.DeploymentPicker(servicesOf(w) as never, 'x');
      await picker.pick();
      assert.deepEqual(
        (hooks.quickPicks[0]!.items as { label: string }[]).map((i) => i.label),
        ['$(discard) Use the profile default', '$(edit) Enter a deployment id…'],
      );
      assert.deepEqual(w.warned, ['Could not list deployments for the picker: signed out']);
      picker.dispose();
    });

    it('keeps the stored spelling of the profile; stores none when there is no profile', async () => {
      const nb = fakeNotebook({ profile: 'prod' });
      editorOn(nb);
      const picker = new K.DeploymentPicker(servicesOf(w) as never, 'x');
      await picker.pick(undefined, 2);
      assert.deepEqual(hooks.edits[0]![1], [
        { type: 'notebookMetadata', metadata: { profile: 'prod', deploymentId: 2 } },
      ]);
      w.active = undefined;
      const bare = fakeNotebook({});
      editorOn(bare);
      await picker.pick(undefined, 5);
      assert.deepEqual(hooks.edits[1]![1], [{ type: 'notebookMetadata', metadata: { deploymentId: 5 } }]);
      picker.dispose();
    });

    it('the status bar shows the deployment picked at once', async () => {
      const nb = fakeNotebook({});
      editorOn(nb);
      hooks.onApply = (entries) => {
        for (const [, edits] of entries)
          for (const e of edits as { type: string; metadata: Record<string, unknown> }[])
            if (e.type === 'notebookMetadata') nb.metadata = e.metadata;
      };
      const picker = new K.DeploymentPicker(servicesOf(w) as never, 'x');
      await flush();
      await picker.pick(undefined, 2);
      assert.equal((hooks.statusItems[0] as Record<string, unknown>).text, '$(server) Deployment 2');
      await flush();
      assert.equal((hooks.statusItems[0] as Record<string, unknown>).text, '$(server) Finance');
      picker.dispose();
    });

    it('refuses when no query notebook is open', async () => {
      const picker = new K.DeploymentPicker(servicesOf(w) as never, 'x');
      await assert.rejects(picker.pick(), /^Error: Open a query notebook first\.$/);
      await assert.rejects(
        picker.pick({ ...fakeNotebook(), notebookType: 'jupyter-notebook' } as never, 1),
        /Open a query notebook first/,
      );
      assert.deepEqual(hooks.edits, []);
      picker.dispose();
    });
  });

  describe('Select Notebook Profile', () => {
    it('offers the profiles with what each is to this notebook, and stores the pick', async () => {
      const nb = fakeNotebook({ profile: 'Prod', deploymentId: 2, devBranch: 'b', other: 1 });
      hooks.activeNotebookEditor = { notebook: nb };
      hooks.pick = (items) => items.find((i) => i.label === 'Dev');
      assert.equal(await P.selectNotebookProfile(servicesOf(w) as never), 'Dev');
      const { items, options } = hooks.quickPicks[0]!;
      assert.deepEqual(
        (items as Record<string, unknown>[]).map((i) => [i.label, i.description]),
        [
          ['Sandbox', 'active · local'],
          ['Prod', 'this notebook · production'],
          ['Dev', ''],
        ],
      );
      assert.deepEqual(options, {
        title: 'Profile for this notebook',
        placeHolder: 'Cells run on this profile; the active profile stays as it is',
      });
      // Another profile: its deployments and branches are not this one's.
      assert.deepEqual(hooks.edits[0]![1], [
        { type: 'notebookMetadata', metadata: { profile: 'Dev', other: 1 } },
      ]);
    });

    it('the same profile (any spelling) keeps the deployment and branch', async () => {
      const nb = fakeNotebook({ profile: 'Prod', deploymentId: 2, devBranch: 'b' });
      hooks.notebookDocuments = [fakeNotebook(), nb];
      (nb.uri as { toString(): string }).toString = () => 'file:///other.dpnb';
      const got = await P.selectNotebookProfile(servicesOf(w) as never, {
        profile: 'PROD',
        notebook: 'file:///other.dpnb',
      });
      assert.equal(got, 'Prod');
      assert.deepEqual(hooks.quickPicks, [], 'named: no pick');
      assert.deepEqual(hooks.edits[0]![1], [
        { type: 'notebookMetadata', metadata: { profile: 'Prod', deploymentId: 2, devBranch: 'b' } },
      ]);
    });

    it('refuses an unknown profile, a missing notebook, and a failed edit; a dismissed pick stores nothing', async () => {
      const nb = fakeNotebook();
      hooks.activeNotebookEditor = { notebook: nb };
      await assert.rejects(
        P.selectNotebookProfile(servicesOf(w) as never, { profile: 'Nope' }),
        /^Error: There is no profile named "Nope"\.$/,
      );
      assert.equal(await P.selectNotebookProfile(servicesOf(w) as never), undefined);
      assert.deepEqual(hooks.edits, []);
      hooks.applyResult = false;
      await assert.rejects(
        P.selectNotebookProfile(servicesOf(w) as never, { profile: 'Dev' }),
        /^Error: Could not update the notebook\.$/,
      );
      await assert.rejects(
        P.selectNotebookProfile(servicesOf(w) as never, { profile: 'Dev', notebook: 'file:///none' }),
        /^Error: Open a query notebook first\.$/,
      );
      hooks.activeNotebookEditor = { notebook: { ...nb, notebookType: 'jupyter-notebook' } };
      await assert.rejects(P.selectNotebookProfile(servicesOf(w) as never), /Open a query notebook first/);
      hooks.activeNotebookEditor = undefined;
      await assert.rejects(
        P.selectNotebookProfile(servicesOf(w) as never),
        /^Error: Open a query notebook first\.$/,
      );
    });

    it('reads a stored profile only when it is a non-blank string', () => {
      assert.equal(P.storedProfile(fakeNotebook({ profile: 'Prod' }) as never), 'Prod');
      assert.equal(P.storedProfile(fakeNotebook({ profile: '  ' }) as never), undefined);
      assert.equal(P.storedProfile(fakeNotebook({ profile: 3 }) as never), undefined);
      assert.equal(P.storedProfile({ metadata: undefined } as never), undefined);
      assert.equal(T.storedProfile, P.storedProfile);
    });

    it('a signed-in profile: the sandbox, or a platform or Data API token', async () => {
      const s = servicesOf(w) as never;
      w.secrets = new Set(['platformToken:Dev']);
      assert.deepEqual(await Promise.all(['Sandbox', 'Dev', 'Prod'].map((n) => P.profileSignedIn(s, n))), [
        true,
        true,
        false,
      ]);
    });
  });
});
