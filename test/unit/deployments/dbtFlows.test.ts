// dbt sync through DbtFlows in plain Node (the stand-in of opsStandIn.ts): the branch picker and
// what a typed branch may be, the exact start request, the log as the user reads it, the end said
// once, the run picked for logs/cancel/result/files, and that a declined cancel sends nothing.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api';
import type * as DbtModule from '../../../src/deployments/dbtFlows';
import type * as ListNodeModule from '../../../src/explorer/nodes/listNode';
import { loadOps, opsWorld, recorder, reset, standIn, type World } from './opsStandIn';

/* eslint-disable @typescript-eslint/no-require-imports */
const load = () => ({
  ...loadOps(),
  ...(require('../../../src/deployments/dbtFlows') as typeof DbtModule),
  ListNode: (require('../../../src/explorer/nodes/listNode') as typeof ListNodeModule).ListNode,
});
/* eslint-enable @typescript-eslint/no-require-imports */

const CH = 'Dashboard Platform: dbt sync';

interface Setup extends World {
  branches?: unknown[] | Error;
  status?: Record<string, unknown>[];
  runs?: Record<string, unknown>[];
  files?: { items: unknown[]; pageInfo?: unknown }[];
  cancelFails?: unknown;
  startFails?: unknown;
}

describe('deployments: dbt sync flows', () => {
  let m: ReturnType<typeof load>;
  let restore: () => void;
  before(() => ({ modules: m, restore } = standIn(load)));
  after(() => restore());

  function world(w: Setup = {}) {
    const shown = reset();
    const calls: string[] = [];
    const statuses = [...(w.status ?? [{ status: 'COMPLETED' }])];
    const filePages = [...(w.files ?? [])];
    const ops = recorder(calls, {
      getDbtSyncLogs: () => [
        { timestamp: '2026-11-28T03:04:05Z', level: 'warn', phase: 'parse', message: 'two\nlines' },
        { message: 'no time' },
      ],
      cancelDbtSync: () => {
        if (w.cancelFails) throw w.cancelFails;
        return { message: 'ok' };
      },
      getDbtSyncResult: () => ({ cubes: 3 }),
      listDbtSyncs: () => ({ items: w.runs ?? [] }),
      listDbtSyncGeneratedFiles: () => filePages.shift() ?? { items: [] },
    });
    const client = {
      ops,
      getDeployment: async (id: number) => ({ id, name: 'Revenue' }),
      getDbtSyncJob: async () => statuses.shift() ?? { status: 'COMPLETED' },
      ...recorder(calls, {
        startDbtSync: () => {
          if (w.startFails) throw w.startFails;
          return { syncJobId: 'run-1', branchName: 'main' };
        },
      }),
    };
    const buildClient = {
      allBranches: async () => {
        if (w.branches instanceof Error) throw w.branches;
        return (
          w.branches ?? [
            { name: 'dev', parentBranch: 'main', isStagingEnvironmentEnabled: true },
            { name: 'plain' },
          ]
        );
      },
    };
    // The runs' list as the tree holds it (only its identity matters here).
    const runsNode = Object.create(m.ListNode.prototype) as object;
    const x = opsWorld(
      m,
      client,
      { shown: [{ deploymentId: 1, name: 'Revenue', lists: { dbtSyncs: runsNode } }], ...w },
      buildClient,
    );
    return { ...x, calls, shown, flows: new m.DbtFlows(x.ops, new m.GeneratedFiles()), runsNode };
  }

  it('Start dbt Sync offers the default, each branch and Other…; typed names are checked; sends the branch and output', async () => {
    const x = world({
      answers: ['Other…', '   ', 'a b', ' feature/x ', 'Keep the generated files for review (do not commit)'],
    });
    const job = await x.flows.start({ deploymentId: 1 });
    assert.equal(job.status, 'COMPLETED');
    assert.deepEqual(x.prompter.rows.get('Start dbt Sync (1/2)'), [
      {
        label: 'Default branch',
        description: 'the one the service picks (its answer names it)',
        detail: undefined,
      },
      { label: 'dev', description: 'from main · staging environment on', detail: undefined },
      { label: 'plain', description: '', detail: undefined },
      { label: 'Other…', description: 'a new branch, named next', detail: undefined },
    ]);
    assert.deepEqual(x.prompter.refusals, [
      'Enter a branch name, or pick "Default branch".',
      'A branch name has no spaces.',
    ]);
    assert.deepEqual(x.calls.slice(0, 1), ['startDbtSync(1, {"branchName":"feature/x","output":"files"})']);
    assert.deepEqual(x.logged, ['dbt sync run-1 started on "Revenue"']);
    assert.deepEqual(x.refreshed, [x.runsNode, x.runsNode]);
    assert.deepEqual(x.shown.messages, ['info: The dbt sync of "Revenue" completed. [Open Result]']);
    assert.deepEqual(x.ops.transcripts.get(CH), [
      '── dbt sync run-1: main of "Revenue" ──',
      '03:04:05 WARN  [parse] two lines',
      '--:--:-- INFO  no time',
      '── COMPLETED ──',
    ]);
    assert.deepEqual(x.questions, [
      'pick Start dbt Sync (1/2) | Cube branch to write the generated cubes to (type to search, or a new name) | typed: A new branch: the sync creates it',
      'input Start dbt Sync (1/2): other branch | Name of the Cube branch to write the generated cubes to (the sync creates it). | value= | e.g. dbt-sync/my-change',
      'pick Start dbt Sync (2/2) | ',
    ]);
    assert.deepEqual(x.prompter.offered.get('Start dbt Sync (2/2)'), [
      'Commit the generated files to the branch',
      'Keep the generated files for review (do not commit)',
    ]);
    assert.deepEqual(x.shown.progress, [
      { title: 'dbt sync main of "Revenue"', cancellable: true, reports: [{ message: 'COMPLETED' }] },
    ]);
    assert.equal(x.shown.channelLog[0], `${CH} shown (focus kept)`);
  });

  it('the default branch sends no branch; a branch that cannot be listed is said in the picker; Open Result opens it', async () => {
    const x = world({
      branches: new Error('Listing failed.'),
      answers: ['Default branch', 'Commit the generated files to the branch'],
    });
    x.shown.buttons = ['Open Result'];
    await x.flows.start({ deploymentId: 1 });
    assert.deepEqual(
      x.prompter.rows.get('Start dbt Sync (1/2)')?.[0]?.detail,
      "The deployment's branches could not be listed: Listing failed.",
    );
    assert.deepEqual(x.prompter.offered.get('Start dbt Sync (1/2)'), ['Default branch', 'Other…']);
    assert.deepEqual(x.calls[0], 'startDbtSync(1, {})');
    await new Promise((r) => setTimeout(r, 0));
    assert.deepEqual(
      x.jsonShown.map((j) => [j.key, j.name, j.value]),
      [['dbt-result:1:run-1', 'dbt-sync-run-1-result', { cubes: 3 }]],
    );
    // A branch named in the arguments asks nothing and commits.
    const given = world({ production: true });
    await given.flows.start({ deploymentId: 1, branchName: 'dev' });
    assert.deepEqual(given.prompter.asked, []);
    assert.deepEqual(given.confirmed, ['Start a dbt sync of "Revenue"']);
    assert.equal(given.calls[0], 'startDbtSync(1, {"branchName":"dev"})');
  });

  it('a start refused or declined follows nothing; one with an unknown outcome offers the check', async () => {
    const declined = world({ production: true, productionConfirm: false });
    await assert.rejects(declined.flows.start({ deploymentId: 1, branchName: 'dev' }));
    assert.deepEqual(declined.calls, []);
    const unknown = world({ startFails: new ApiError('unknownOutcome', 'No answer.') });
    const e = await unknown.flows.start({ deploymentId: 1, branchName: 'dev' }).then(
      () => undefined,
      (err: unknown) => err,
    );
    assert.ok(e instanceof ApiError && e.check?.command === 'dashboardPlatform.explorer.refresh', String(e));
    assert.equal(unknown.ops.transcripts.get(CH), undefined);
    assert.deepEqual(unknown.refreshed, []);
  });

  it('a start whose follow the user stops says the run goes on', async () => {
    const x = world({ status: [{ status: 'RUNNING', progress: { stage: 'compile' } }] });
    x.shown.cancelProgress = true;
    const job = await x.flows.start({ deploymentId: 1, branchName: 'dev' });
    assert.equal(job.status, 'RUNNING');
    assert.equal(x.ops.transcripts.get(CH)?.at(-1), '── stopped following (the sync goes on) ──');
    assert.deepEqual(x.shown.messages, [
      'info: Stopped following the dbt sync of "Revenue"; it keeps running on the server (Cancel dbt Sync stops it).',
    ]);
  });

  it('Show dbt Sync Logs of a finished run writes its whole log under a heading; no run says so', async () => {
    const x = world({ runs: [{ syncJobId: 'r9', status: 'FAILED', branchName: 'dev' }] });
    const lines = await x.flows.showLogs({ deploymentId: 1, syncJobId: 'r9' });
    assert.deepEqual(lines, [
      '── dbt sync r9: dev of "Revenue", FAILED ──',
      '03:04:05 WARN  [parse] two lines',
      '--:--:-- INFO  no time',
    ]);
    assert.deepEqual(x.calls, ['listDbtSyncs(1, {"first":50})', 'getDbtSyncLogs(1, "r9")']);
    const none = world({ runs: [{ syncJobId: 'r9', status: 'COMPLETED' }] });
    await assert.rejects(
      none.flows.cancel({ deploymentId: 1 }),
      /^Error: "Revenue" has no running dbt syncs\.$/,
    );
    const empty = world();
    await assert.rejects(empty.flows.showLogs({ deploymentId: 1 }), /^Error: "Revenue" has no dbt syncs\.$/);
  });

  it('Cancel dbt Sync offers the running runs, asks first, sends the cancel once and names the run', async () => {
    const runs = [
      { syncJobId: 'r1', status: 'COMPLETED', branchName: 'old' },
      { syncJobId: 'r2', status: 'RUNNING', branchName: 'dev' },
    ];
    const x = world({ runs, answers: ['dev · running'] });
    assert.equal(await x.flows.cancel({ deploymentId: 1 }), 'cancelled');
    assert.deepEqual(x.prompter.offered.get('Cancel dbt Sync'), ['dev · running']);
    assert.deepEqual(x.confirmations, [
      'Cancel the dbt sync of branch dev on "Revenue"? | The server stops the sync where it is; nothing it has not written yet is written. | Cancel Sync',
    ]);
    assert.deepEqual(x.calls.slice(1), ['cancelDbtSync(1, "r2")']);
    assert.deepEqual(x.shown.messages, ['info: Cancelled the dbt sync of branch dev on "Revenue".']);
    assert.deepEqual(x.refreshed, [x.runsNode]);
    const kept = world({ runs, confirm: false, answers: ['dev · running'] });
    assert.equal(await kept.flows.cancel({ deploymentId: 1 }), 'kept');
    assert.deepEqual(kept.calls, ['listDbtSyncs(1, {"first":50})']);
    const prodNo = world({ runs, production: true, productionConfirm: false });
    await assert.rejects(prodNo.flows.cancel({ deploymentId: 1, syncJobId: 'r2' }));
    assert.deepEqual(prodNo.calls, ['listDbtSyncs(1, {"first":50})']);
  });

  it('Open Generated Files reads every page, opens the picked file (YAML as YAML), or says none were kept', async () => {
    const x = world({
      runs: [{ syncJobId: 'r3', status: 'COMPLETED', branchName: 'dev' }],
      files: [
        {
          items: [{ path: 'model/a.yml', content: 'a: 1' }],
          pageInfo: { hasNextPage: true, endCursor: 'p2' },
        },
        { items: [{ path: '/model/b.js', content: 'cube()' }], pageInfo: { hasNextPage: false } },
      ],
      answers: ['model/a.yml'],
    });
    const docs = await x.flows.openGeneratedFiles({ deploymentId: 1, syncJobId: 'r3' });
    assert.equal(docs.length, 1);
    assert.deepEqual(x.calls.slice(1), [
      'listDbtSyncGeneratedFiles(1, "r3", {"first":100})',
      'listDbtSyncGeneratedFiles(1, "r3", {"first":100,"after":"p2"})',
    ]);
    assert.deepEqual(x.prompter.offered.get('Open Generated File'), [
      'All files',
      'model/a.yml',
      '/model/b.js',
    ]);
    assert.deepEqual(x.shown.opened, ['/1/r3/model/a.yml']);
    assert.deepEqual(x.shown.languages, ['/1/r3/model/a.yml yaml']);
    const all = world({
      runs: [{ syncJobId: 'r3', status: 'COMPLETED' }],
      files: [
        {
          items: [
            { path: 'a.yml', content: '' },
            { path: '/b.js', content: '' },
          ],
        },
      ],
    });
    const both = await all.flows.openGeneratedFiles({ deploymentId: 1, syncJobId: 'r3', paths: ['*'] });
    assert.equal(both.length, 2);
    assert.deepEqual(all.shown.opened, ['/1/r3/a.yml', '/1/r3/b.js']);
    assert.deepEqual(all.shown.languages, ['/1/r3/a.yml yaml']);
    const none = world({ runs: [{ syncJobId: 'r3', status: 'COMPLETED', branchName: 'dev' }] });
    await assert.rejects(
      none.flows.openGeneratedFiles({ deploymentId: 1, syncJobId: 'r3' }),
      /^Error: This dbt sync kept no files for review: it committed them to branch dev \(see Open dbt Sync Result for their paths\)\.$/,
    );
  });

  it('a branch typed in the picker is sent trimmed; a picked branch as named; progress says the stage', async () => {
    const typed = world({ answers: [' new-branch ', 'Commit the generated files to the branch'] });
    await typed.flows.start({ deploymentId: 1 });
    assert.equal(typed.calls[0], 'startDbtSync(1, {"branchName":"new-branch"})');
    const picked = world({
      answers: ['dev', 'Commit the generated files to the branch'],
      status: [
        { status: 'RUNNING', progress: { message: 'compiling models', stage: 'compile' } },
        { status: 'RUNNING', progress: { stage: 'write' } },
        { status: 'COMPLETED' },
      ],
    });
    await picked.flows.start({ deploymentId: 1 });
    assert.equal(picked.calls[0], 'startDbtSync(1, {"branchName":"dev"})');
    assert.deepEqual(picked.shown.progress[0]!.reports, [
      { message: 'compiling models' },
      { message: 'write' },
      { message: 'COMPLETED' },
    ]);
    // Each poll writes only the log lines not written yet.
    assert.deepEqual(
      picked.ops.transcripts.get(CH)?.filter((l) => l.includes('no time')),
      ['--:--:-- INFO  no time'],
    );
  });

  it('a cancel the service refused leaves a later FAILED a failure; one whose outcome is unknown counts as asked', async () => {
    const runs = [{ syncJobId: 'r2', status: 'RUNNING', branchName: 'dev' }];
    const refused = world({
      runs,
      cancelFails: new ApiError('forbidden', 'Not yours.'),
      status: [{ status: 'FAILED', error: 'x' }],
    });
    await assert.rejects(refused.flows.cancel({ deploymentId: 1, syncJobId: 'r2' }), /Not yours/);
    const after = await refused.flows.follow(1, 'r2', 'dev of "Revenue"');
    assert.equal(after.status, 'FAILED');
    assert.equal(refused.ops.transcripts.get(CH)?.at(-1), '── FAILED: x ──');
    const unknown = world({
      runs,
      cancelFails: new ApiError('unknownOutcome', 'No answer.'),
      status: [{ status: 'FAILED', error: 'x' }],
    });
    const e = await unknown.flows.cancel({ deploymentId: 1, syncJobId: 'r2' }).then(
      () => undefined,
      (err: unknown) => err,
    );
    assert.ok(e instanceof ApiError && e.check?.command === 'dashboardPlatform.explorer.refresh', String(e));
    assert.equal((await unknown.flows.follow(1, 'r2', 'dev')).status, 'CANCELLED');
    assert.deepEqual(unknown.shown.messages, []);
  });

  it('Show dbt Sync Logs of a running run follows it until it ends, then refreshes the runs', async () => {
    const x = world({
      runs: [{ syncJobId: 'r5', status: 'RUNNING', branchName: 'dev' }],
      answers: ['dev · running'],
    });
    const lines = await x.flows.showLogs({ deploymentId: 1 });
    assert.deepEqual(x.questions, ['pick dbt Sync | Pick a dbt sync']);
    assert.deepEqual(lines, [
      '── dbt sync r5: dev of "Revenue" ──',
      '03:04:05 WARN  [parse] two lines',
      '--:--:-- INFO  no time',
      '── COMPLETED ──',
    ]);
    assert.deepEqual(x.refreshed, [x.runsNode]);
    // A second call returns only its own lines.
    const again = await x.flows.showLogs({ deploymentId: 1, syncJobId: 'r5' });
    assert.equal(again[0], '── dbt sync r5: dev of "Revenue" ──');
    assert.equal(again.length, 4);
  });

  it('one generated file opens without a pick, as the preview; several open as tabs', async () => {
    const one = world({
      runs: [{ syncJobId: 'r3', status: 'COMPLETED' }],
      files: [{ items: [{ path: 'm.js', content: '' }] }],
    });
    await one.flows.openGeneratedFiles({ deploymentId: 1, syncJobId: 'r3' });
    assert.deepEqual(one.questions, []);
    assert.deepEqual(one.shown.opened, ['/1/r3/m.js']);
    assert.deepEqual(one.shown.showOptions, [{ preview: true }]);
    assert.deepEqual(one.shown.languages, []);
    const many = world({
      runs: [{ syncJobId: 'r3', status: 'COMPLETED' }],
      files: [
        {
          items: [
            { path: 'a.yaml.js', content: '' },
            { path: 'b.YAML', content: '' },
          ],
        },
      ],
      answers: ['All files'],
    });
    await many.flows.openGeneratedFiles({ deploymentId: 1, syncJobId: 'r3' });
    assert.deepEqual(many.questions, ['pick Open Generated File | Pick a generated file']);
    assert.deepEqual(many.shown.showOptions, [{ preview: false }, { preview: false }]);
    assert.deepEqual(many.shown.languages, ['/1/r3/b.YAML yaml']);
  });

  it('generated files are served read-only by their path under the run', () => {
    const files = new m.GeneratedFiles();
    const uri = files.uriFor(2, 'a/b', '//x/y.yml', 'content');
    assert.equal(uri.path, '/2/a%2Fb/x/y.yml');
    assert.equal(files.provideTextDocumentContent(uri), 'content');
    assert.equal(files.provideTextDocumentContent({ path: '/2/none' } as never), '');
  });
});
