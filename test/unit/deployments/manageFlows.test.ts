// Managing deployments as wholes through ManageFlows in plain Node (the stand-in of opsStandIn.ts):
// the writes each flow sends once the user has answered (create, connect, edit, delete, setup
// step), what the user is told after each outcome, and that a declined or refused flow sends nothing.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api';
import {
  domainRefusal,
  SETTING_EDITS,
  shownValue,
  stepChoices,
  stepWords,
  unchangedEdit,
  watchFirstBuild,
} from '../../../src/deployments/deploymentPlans';
import type * as ManageModule from '../../../src/deployments/manageFlows';
import { loadOps, opsWorld, recorder, reset, standIn, type World } from './opsStandIn';

/* eslint-disable @typescript-eslint/no-require-imports */
const load = () => ({
  ...loadOps(),
  ManageFlows: (require('../../../src/deployments/manageFlows') as typeof ManageModule).ManageFlows,
});
/* eslint-enable @typescript-eslint/no-require-imports */

const REGIONS = [
  { name: 'aws-us-east-1', title: 'US East (AWS)', provider: 'aws' },
  { name: 'gcp-eu', provider: 'gcp' },
];

interface Setup extends World {
  github?: { connected: boolean; linkUrl?: string };
  regions?: unknown[];
  installations?: unknown[];
  repos?: unknown[];
  branches?: unknown[];
  build?: string[];
  connectFails?: unknown;
  deployment?: Record<string, unknown>;
  deleted?: unknown;
  settings?: Record<string, unknown>;
}

describe('deployments: create, connect, edit, delete and set up', () => {
  let m: ReturnType<typeof load>;
  let restore: () => void;
  before(() => ({ modules: m, restore } = standIn(load)));
  after(() => restore());

  function world(w: Setup = {}) {
    const shown = reset();
    const calls: string[] = [];
    const listed: string[] = [];
    const statuses = [...(w.build ?? ['SUCCESS'])];
    const settings = w.settings ?? {
      name: 'Revenue',
      customDomain: null,
      releaseChannel: 'latest',
      deployBranchReadOnly: false,
    };
    const deployment = w.deployment ?? { id: 9, name: 'Revenue', creationStep: 'databases' };
    const build = recorder(calls, {
      createDeployment: () => ({ id: 9, name: 'Revenue' }),
      connectGithub: () => {
        if (w.connectFails) throw w.connectFails;
        return { ok: true };
      },
    });
    const client = {
      admin: {
        listRegions: async (q: unknown) => (
          listed.push(`listRegions(${JSON.stringify(q)})`),
          { items: w.regions ?? REGIONS }
        ),
      },
      getGithubStatus: async () => w.github ?? { connected: true },
      listGithubInstallations: async () => ({
        items: w.installations ?? [
          { login: 'acme', installationId: '12' },
          { login: 'broken', installationId: 'x' },
        ],
      }),
      listGithubRepositories: async (id: number) => (
        calls.push(`listGithubRepositories(${id})`),
        { items: w.repos ?? [{ name: 'model', htmlUrl: 'https://gh/acme/model' }] }
      ),
      listGithubBranches: async (login: string, repo: string, q: unknown) => (
        calls.push(`listGithubBranches(${login}, ${repo}, ${JSON.stringify(q)})`),
        { items: w.branches ?? [{ name: 'dev' }, { name: 'main', isDefault: true }] }
      ),
      ops: {
        getBuildStatus: async () => ({
          status: statuses.shift() ?? 'SUCCESS',
          errorText: 'dbt failed at line 3',
        }),
      },
      ...recorder(calls, {
        getDeploymentSettings: () => settings,
        updateDeployment: (_id: never, body: Record<string, unknown>) => ({ ...settings, ...body }),
        getDeployment: () => deployment,
        deleteDeployment: () => w.deleted ?? { success: true },
        advanceCreationStep: (_id: never, b: { creationStep: string }) => ({
          ...deployment,
          creationStep: b.creationStep,
        }),
        resetCreationStep: () => ({ ...deployment, creationStep: 'project' }),
      }),
    };
    const x = opsWorld(m, client, w, build);
    return { ...x, calls, listed, shown, flows: new m.ManageFlows(x.ops, async () => build as never) };
  }

  it('Create Deployment from a starter project: asks name, region, project; posts the body; says the build succeeded', async () => {
    const x = world({ answers: ['', '  Revenue ', 'gcp-eu', 'Empty starter project'] });
    x.shown.buttons = ['Continue Setup…'];
    assert.equal(await x.flows.createDeployment(), 9);
    assert.deepEqual(x.prompter.refusals, ['Type a name for the deployment.']);
    assert.deepEqual(x.prompter.asked, [
      'Create Deployment (Step 1 of 3)',
      'Create Deployment: Region (Step 2 of 3)',
      'Create Deployment: Project (Step 3 of 3)',
    ]);
    assert.deepEqual(x.questions, [
      'input Create Deployment | Name of the new deployment. | value=',
      'pick Create Deployment: Region | Where the deployment runs',
      'pick Create Deployment: Project | Where the data model comes from',
    ]);
    assert.deepEqual(
      x.prompter.rows.get('Create Deployment: Project')?.map((r) => `${r.label}: ${r.description}`),
      [
        'Empty starter project: scaffolded now; its first build starts at once',
        'GitHub repository: pick an account, a repository and its deploy branch',
      ],
    );
    assert.deepEqual(x.listed, ['listRegions({"first":200})']);
    assert.deepEqual(
      x.shown.progress.map((p) => [p.title, p.cancellable]),
      [
        ['Creating the deployment "Revenue"…', false],
        ['First build of "Revenue"…', true],
      ],
    );
    assert.deepEqual(x.prompter.rows.get('Create Deployment: Region'), [
      { label: 'US East (AWS)', description: 'aws-us-east-1', detail: undefined },
      { label: 'gcp-eu', description: 'gcp-eu', detail: undefined },
    ]);
    assert.deepEqual(x.calls, [
      'createDeployment({"name":"Revenue","cloudProvider":"gcp","creationMethod":"cubecloud","creationStep":"databases","deployMode":"git","isManaged":true,"region":"gcp-eu","targetPlatform":"gcp"})',
    ]);
    assert.deepEqual(x.refreshed, [x.deploymentsRoot]);
    assert.deepEqual(x.shown.messages, [
      'info: Deployment "Revenue" is ready to use: its first build succeeded. [Continue Setup…, Show Build Status]',
    ]);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(x.shown.commands, ['dashboardPlatform.explorer.continueSetup [{"deploymentId":9}]']);
  });

  it('the first build is said as it ended: failed with its error, another end as sent, still running', async () => {
    const failed = world({ build: ['FAILED'] });
    failed.shown.buttons = ['Show Build Status'];
    await failed.flows.createDeployment({ name: 'R', region: 'aws-us-east-1', source: 'starter' });
    assert.deepEqual(failed.shown.messages, [
      'warning: Deployment "Revenue" was created, but its first build failed: dbt failed at line 3 [Show Build Status]',
    ]);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(failed.shown.commands, [
      'dashboardPlatform.explorer.showBuildStatus [{"deploymentId":9}]',
    ]);
    const ended = world({ build: ['SKIPPED'] });
    await ended.flows.createDeployment({ name: 'R', region: 'aws-us-east-1', source: 'starter' });
    assert.deepEqual(ended.shown.messages, [
      'info: Deployment "Revenue" was created; its first build ended "SKIPPED". [Show Build Status]',
    ]);
    const running = world({ build: ['building'] });
    running.shown.cancelProgress = 'First build';
    await running.flows.createDeployment({ name: 'R', region: 'aws-us-east-1', source: 'starter' });
    assert.deepEqual(running.shown.messages, [
      'info: Deployment "Revenue" was created; its first build is still running. Watch it with Show Build Status. [Show Build Status]',
    ]);
    assert.deepEqual(running.shown.commands, []);
  });

  it('no region, or GitHub not linked: says what is missing and creates nothing', async () => {
    const none = world({ regions: [] });
    await assert.rejects(
      none.flows.createDeployment(),
      /^Error: This account lists no regions to create a deployment in\. Ask an account admin\.$/,
    );
    const unlinked = world({ github: { connected: false, linkUrl: 'https://link.example/gh' } });
    unlinked.shown.buttons = ['Link GitHub'];
    assert.equal(
      await unlinked.flows.createDeployment({ name: 'R', region: 'gcp-eu', source: 'github' }),
      undefined,
    );
    assert.deepEqual(unlinked.shown.messages, [
      'warning (modal): GitHub is not linked to your account [Link GitHub]',
    ]);
    assert.deepEqual(unlinked.shown.details, ['Link GitHub on GitHub, then run this command again.']);
    assert.deepEqual(unlinked.shown.external, ['https://link.example/gh']);
    assert.deepEqual(unlinked.calls, []);
    const noUrl = world({ github: { connected: false } });
    assert.equal(await noUrl.flows.connectRepository({ deploymentId: 9 }), false);
    assert.deepEqual(noUrl.shown.details, [
      'Link GitHub in the Cube Cloud console, then run this command again.',
    ]);
    assert.deepEqual(noUrl.shown.external, []);
    const noApp = world({
      installations: [{ login: 'broken', installationId: '0' }],
      github: { connected: true, linkUrl: 'https://app' },
    });
    assert.equal(await noApp.flows.connectRepository({ deploymentId: 9 }), false);
    assert.deepEqual(noApp.shown.messages, [
      'warning (modal): The Cube GitHub App is not installed on any GitHub account or organisation you can reach [Install the GitHub App]',
    ]);
    assert.deepEqual(noApp.calls, []);
  });

  it('Create Deployment from GitHub: picks account, repository and branch (default first), then connects', async () => {
    const x = world({ answers: ['R', 'US East (AWS)', 'GitHub repository', 'acme', 'model', 'main'] });
    await x.flows.createDeployment();
    assert.deepEqual(x.prompter.offered.get('Connect GitHub: Account'), ['acme']);
    assert.deepEqual(x.questions.slice(3), [
      'pick Connect GitHub: Account | The GitHub account or organisation of the repository',
      'pick Connect GitHub: Repository | Repositories of acme',
      'pick Connect GitHub: Deploy Branch | The branch the deployment serves',
    ]);
    assert.deepEqual(x.prompter.rows.get('Connect GitHub: Repository'), [
      { label: 'model', description: 'https://gh/acme/model', detail: undefined },
    ]);
    assert.deepEqual(x.prompter.rows.get('Connect GitHub: Deploy Branch'), [
      { label: 'main', description: 'default branch', detail: undefined },
      { label: 'dev', description: undefined, detail: undefined },
    ]);
    assert.deepEqual(x.calls, [
      'listGithubRepositories(12)',
      'listGithubBranches(acme, model, {"installationId":12,"first":100})',
      'createDeployment({"name":"R","cloudProvider":"aws","creationMethod":"github","creationStep":"github","deployMode":"git","isManaged":true,"region":"aws-us-east-1","targetPlatform":"aws"})',
      'connectGithub(9, {"installationId":12,"name":"model","deployBranchName":"main"})',
    ]);
    assert.deepEqual(x.shown.progressTitles.slice(0, 2), [
      'Creating the deployment "R"…',
      'Connecting acme/model (main)…',
    ]);
  });

  it('a connect that fails after the create says the deployment exists and what to do, by outcome', async () => {
    const args = {
      name: 'R',
      region: 'gcp-eu',
      source: 'github',
      owner: 'acme',
      repository: 'model',
      branch: 'dev',
    };
    const unknown = world({ connectFails: new ApiError('unknownOutcome', 'No answer.') });
    await assert.rejects(
      unknown.flows.createDeployment(args),
      /^Error: The deployment "Revenue" was created, but whether its repository was connected is unknown: No answer\. Open its settings \(Show Deployment Settings\) before connecting again\.$/,
    );
    const refused = world({ connectFails: new ApiError('forbidden', 'Not yours.') });
    await assert.rejects(
      refused.flows.createDeployment(args),
      /^Error: The deployment "Revenue" was created, but its repository was not connected: Not yours\. Use "Connect GitHub Repository…" on it in the Deployments list\.$/,
    );
    assert.deepEqual(refused.calls.slice(-1), [
      'connectGithub(9, {"installationId":12,"name":"model","deployBranchName":"dev"})',
    ]);
    const noRepos = world({ repos: [] });
    await assert.rejects(
      noRepos.flows.connectRepository({ deploymentId: 9, owner: 'acme' }),
      /^Error: The GitHub App can see no repository of acme: give it access/,
    );
  });

  it('Connect GitHub Repository on a deployment: confirms on production naming both, connects, watches the build', async () => {
    const x = world({ production: true, shown: [{ deploymentId: 9, name: 'Revenue' }] });
    assert.equal(
      await x.flows.connectRepository({ deploymentId: 9, owner: 'acme', repository: 'model', branch: 'dev' }),
      true,
    );
    assert.deepEqual(x.confirmed, ['Connect "Revenue" to acme/model']);
    assert.deepEqual(x.calls.slice(-1), [
      'connectGithub(9, {"installationId":12,"name":"model","deployBranchName":"dev"})',
    ]);
    assert.deepEqual(x.shown.progressTitles.at(-1), 'First build of "Revenue"…');
    const declined = world({ production: true, productionConfirm: false });
    await assert.rejects(
      declined.flows.connectRepository({
        deploymentId: 9,
        owner: 'acme',
        repository: 'model',
        branch: 'dev',
      }),
    );
    assert.ok(!declined.calls.some((c) => c.startsWith('connectGithub')), declined.calls.join('\n'));
  });

  it('Edit Deployment sends the one setting changed, updates an open settings document, says what was saved', async () => {
    const x = world({ answers: ['Custom domain', 'https://x', ' Cube.Example.com '] });
    const saved = await x.flows.editDeployment({ deploymentId: 9 });
    assert.deepEqual(
      x.prompter.rows.get('Edit Deployment "Revenue"')?.map((r) => `${r.label}: ${r.description}`),
      [
        'Name: Revenue',
        'Custom domain: none',
        'Release channel: latest',
        'Deploy branch read-only: Off',
        'Merges into the deploy branch allowed: none',
      ],
    );
    assert.equal(x.prompter.refusals.length, 1);
    assert.deepEqual(x.calls, [
      'getDeploymentSettings(9)',
      'updateDeployment(9, {"customDomain":"cube.example.com"})',
    ]);
    assert.deepEqual(x.jsonUpdated, [{ key: 'settings:9', value: saved }]);
    assert.deepEqual(x.refreshed, [x.deploymentsRoot]);
    assert.deepEqual(x.shown.messages, ['info: Saved: custom domain of "Revenue" is cube.example.com.']);
    assert.deepEqual(x.questions, [
      'pick Edit Deployment "Revenue" | The setting to change',
      'input Custom domain of "Revenue" | A host name; leave empty to remove it. | value=',
    ]);
    assert.deepEqual(x.shown.progressTitles, ['Saving custom domain of "Revenue"…']);
    const rename = world({ answers: ['Name', 'Sales'] });
    await rename.flows.editDeployment({ deploymentId: 9 });
    assert.equal(rename.questions[1], 'input Name of "Revenue" | The new name. | value=Revenue');
    const choice = world({ answers: ['Deploy branch read-only', 'On'] });
    await choice.flows.editDeployment({ deploymentId: 9 });
    assert.equal(choice.questions[1], 'pick Deploy branch read-only of "Revenue" | Now: Off');
    assert.deepEqual(choice.calls.slice(-1), ['updateDeployment(9, {"deployBranchReadOnly":true})']);
    // A value given that is not one of the setting's options is asked for.
    const odd = world({ answers: ['release'] });
    await odd.flows.editDeployment({ deploymentId: 9, setting: 'releaseChannel', value: 'nightly' });
    assert.deepEqual(odd.calls.slice(-1), ['updateDeployment(9, {"releaseChannel":"release"})']);
  });

  it('Edit Deployment: a choice marks the current one; the value it has already sends nothing', async () => {
    const same = world({ answers: ['Release channel', 'latest'] });
    await same.flows.editDeployment({ deploymentId: 9 });
    assert.deepEqual(same.prompter.rows.get('Release channel of "Revenue"'), [
      { label: 'latest', description: 'current', detail: undefined },
      { label: 'release', description: undefined, detail: undefined },
    ]);
    assert.deepEqual(same.calls, ['getDeploymentSettings(9)']);
    assert.deepEqual(same.shown.messages, [
      'info: Nothing to save: release channel of "Revenue" is already latest.',
    ]);
    const on = world({ production: true });
    await on.flows.editDeployment({ deploymentId: 9, setting: 'deployBranchReadOnly', value: true });
    assert.deepEqual(on.prompter.asked, []);
    assert.deepEqual(on.confirmed, ['Change deploy branch read-only of "Revenue"']);
    assert.deepEqual(on.calls, [
      'getDeploymentSettings(9)',
      'updateDeployment(9, {"deployBranchReadOnly":true})',
    ]);
    const renamed = world();
    await renamed.flows.editDeployment({ deploymentId: 9, setting: 'name', value: 'Sales' });
    assert.deepEqual(renamed.shown.messages, ['info: Renamed the deployment "Revenue" to "Sales".']);
    // A text value the setting refuses is asked again, from the value it has now.
    const bad = world({ answers: ['ok.example.com'] });
    await bad.flows.editDeployment({ deploymentId: 9, setting: 'customDomain', value: 'not a host' });
    assert.deepEqual(bad.prompter.asked, ['Custom domain of "Revenue"']);
    assert.deepEqual(bad.calls.slice(-1), ['updateDeployment(9, {"customDomain":"ok.example.com"})']);
  });

  it('Delete Deployment: asks naming it; on production the name is typed; each answer is said as it is', async () => {
    const x = world();
    assert.equal(await x.flows.deleteDeployment({ deploymentId: 9 }), 'deleted');
    assert.deepEqual(x.confirmations, [
      'Delete the deployment "Revenue"? | This deletes its data model, branches, environments, folders, reports, workbooks, notifications and env variables. It cannot be undone. | Delete',
    ]);
    assert.deepEqual(x.calls, ['getDeployment(9)', 'deleteDeployment(9)']);
    assert.deepEqual(x.shown.messages, ['info: Deployment "Revenue" deleted.']);
    assert.deepEqual(x.refreshed, [x.deploymentsRoot]);
    const declined = world({ confirm: false });
    await assert.rejects(declined.flows.deleteDeployment({ deploymentId: 9 }), { name: 'UserCancelled' });
    assert.deepEqual(declined.calls, ['getDeployment(9)']);
    const prod = world({ production: true, answers: ['revenue', 'Revenue'] });
    await prod.flows.deleteDeployment({ deploymentId: 9 });
    assert.deepEqual(prod.prompter.asked, [
      'Delete the deployment "Revenue"?',
      'Production: confirm by typing the deployment name',
    ]);
    assert.deepEqual(prod.prompter.refusals, ['Type Revenue']);
    const refused = world({ deleted: { success: false } });
    assert.equal(await refused.flows.deleteDeployment({ deploymentId: 9 }), 'refused');
    assert.deepEqual(refused.shown.messages, [
      'error: The server did not delete "Revenue" (it answered success: false).',
    ]);
    const unknown = world({ deleted: {} });
    assert.equal(await unknown.flows.deleteDeployment({ deploymentId: 9 }), 'unknown');
    assert.deepEqual(unknown.shown.messages, [
      'warning: The server answered without saying whether "Revenue" was deleted. Refresh the Deployments list to see whether it is still there.',
    ]);
  });

  it('Continue Setup advances to the step picked, or starts over; an open settings document reads again', async () => {
    const x = world({ answers: ['Ready: setup finished'], openJson: ['settings:9'] });
    assert.equal(await x.flows.continueSetup({ deploymentId: 9 }), 'ready');
    assert.equal(x.prompter.offered.get('Continue Setup of "Revenue"')?.[0], 'Ready: setup finished');
    assert.ok(
      !x.prompter.offered.get('Continue Setup of "Revenue"')?.includes('Databases: connect a data source'),
    );
    assert.equal(x.prompter.offered.get('Continue Setup of "Revenue"')?.at(-1), 'Start setup over');
    assert.deepEqual(x.prompter.offered.get('Continue Setup of "Revenue"'), [
      'Ready: setup finished',
      'Upload: upload the data model files',
      'Schema: generate the data model',
      'GitHub: connect a repository',
      'SSH: connect a git repository over SSH',
      'Demo: a demo project',
      'Start setup over',
    ]);
    assert.deepEqual(x.questions, [
      'pick Continue Setup of "Revenue" | Now at: Databases: connect a data source',
    ]);
    assert.deepEqual(x.refreshed, [x.deploymentsRoot]);
    assert.deepEqual(x.calls.slice(0, 2), [
      'getDeployment(9)',
      'advanceCreationStep(9, {"creationStep":"ready"})',
    ]);
    await new Promise((r) => setImmediate(r));
    assert.equal(x.jsonUpdated.length, 1);
    assert.equal(x.jsonUpdated[0]!.key, 'settings:9');
    assert.deepEqual(x.shown.messages, ['info: "Revenue" is now at setup step Ready: setup finished.']);
    for (const step of ['$reset', 'project']) {
      const over = world({ production: true });
      assert.equal(await over.flows.continueSetup({ deploymentId: 9, step }), 'project');
      assert.deepEqual(over.calls, ['getDeployment(9)', 'resetCreationStep(9)']);
      assert.deepEqual(over.confirmed, ['Change the setup step of "Revenue"']);
      assert.deepEqual(over.jsonUpdated, [], 'no settings document open: nothing read again');
    }
  });

  it('the plans: a setting as read, what counts as unchanged, the steps offered, the first build watched', async () => {
    const s = {
      name: 'R',
      customDomain: '',
      releaseChannel: 'latest',
      deployBranchReadOnly: true,
      deployBranchMergeAllowed: false,
    } as never;
    const shownCases: [string, string][] = [
      ['name', 'R'],
      ['customDomain', 'none'],
      ['releaseChannel', 'latest'],
      ['deployBranchReadOnly', 'On'],
      ['deployBranchMergeAllowed', 'Off'],
    ];
    for (const [key, text] of shownCases) assert.equal(shownValue(s, key as never), text, key);
    assert.equal(shownValue({ customDomain: null } as never, 'customDomain'), 'none');
    assert.equal(shownValue({} as never, 'customDomain'), 'none');
    const unchanged: [Record<string, unknown>, boolean][] = [
      [{ customDomain: null }, true],
      [{ customDomain: undefined }, true],
      [{ customDomain: 'x.io' }, false],
      [{ name: 'R' }, true],
      [{ name: 'R', releaseChannel: 'release' }, false],
      [{ deployBranchMergeAllowed: false }, true],
      [{ deployBranchMergeAllowed: true }, false],
    ];
    for (const [body, same] of unchanged)
      assert.equal(unchangedEdit(s, body as never), same, JSON.stringify(body));
    assert.equal(unchangedEdit({ customDomain: null } as never, { customDomain: '' } as never), true);
    assert.equal(unchangedEdit({ name: '' } as never, { name: null } as never), true);
    assert.equal(unchangedEdit({ name: 'a' } as never, { name: '' } as never), false);
    const merge = SETTING_EDITS.find((e) => e.key === 'deployBranchMergeAllowed')!;
    assert.ok(merge.kind === 'choice');
    assert.deepEqual(
      [merge.body(true), merge.body(false)],
      [{ deployBranchMergeAllowed: true }, { deployBranchMergeAllowed: false }],
    );
    const domain = SETTING_EDITS.find((e) => e.key === 'customDomain')!;
    assert.ok(domain.kind === 'text');
    assert.deepEqual(
      [domain.body('  '), domain.body(' A.Example.COM ')],
      [{ customDomain: '' }, { customDomain: 'a.example.com' }],
    );
    assert.equal(domainRefusal(' cube.example.com '), undefined);
    assert.deepEqual(
      stepChoices('project').map((c) => c.step),
      ['ready', 'upload', 'schema', 'github', 'ssh', 'databases', 'demo'],
    );
    assert.deepEqual(
      stepChoices('ready').map((c) => c.step),
      ['upload', 'schema', 'github', 'ssh', 'databases', 'demo'],
    );
    assert.equal(stepWords(undefined), 'not given');
    assert.equal(stepWords('newstep'), 'newstep');
    // Watched for the given rounds at most, each read once; the last status kept.
    let reads = 0;
    const running = await watchFirstBuild(
      async () => (reads++, { status: 'building' }),
      async () => true,
      3,
    );
    assert.deepEqual([running, reads], [{ outcome: 'running', status: { status: 'building' } }, 3]);
    assert.deepEqual(
      await watchFirstBuild(
        async () => ({ status: 'building' }),
        async () => true,
        0,
      ),
      { outcome: 'running' },
    );
    assert.equal(
      (
        await watchFirstBuild(
          async () => ({ status: 'NOT_SUCCEEDED' }),
          async () => true,
        )
      ).outcome,
      'ended',
    );
    assert.equal(
      (
        await watchFirstBuild(
          async () => ({ status: 'Succeeded' }),
          async () => true,
        )
      ).outcome,
      'succeeded',
    );
  });

  it('Show Deployment Settings opens the settings under the key edits update', async () => {
    const x = world();
    await x.flows.showSettings({ deploymentId: 9 });
    assert.deepEqual(
      x.jsonShown.map((j) => [j.key, j.name]),
      [['settings:9', 'deployment-settings-9']],
    );
  });
});
