// The dashboards commands around the publish (dashboardsFeature.ts, dashboardPrompts.ts), loaded in
// plain Node with the dashboards' stand-in for `vscode`: "Edit Dashboard" pulls a workbook's
// dashboard into a file (the save dialog, the file written, its deployment remembered, opened as
// JSON; dismissed writes nothing), the deployment and workbook pickers (lists, typed ids when a list
// cannot load, an empty list said so), "Attach AI Widget Thread" (the exact request, what is asked),
// and the arguments commands take (paths and URIs, argument objects, explorer nodes).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as FeatureModule from '../../../src/dashboards/dashboardsFeature';
import type * as FileModule from '../../../src/dashboards/dashboardFile';
import type * as PromptsModule from '../../../src/dashboards/dashboardPrompts';
import type { Services } from '../../../src/services';
import { recordingClient } from '../featureHarness';
import { memento, PROBES, useDashStandIn } from './dashStandIn';

const root = path.join(__dirname, '..', '..', '..', '..');
const demoText = fs.readFileSync(path.join(root, 'demo', 'revenue.dashboard.json'), 'utf8');
const demo = JSON.parse(demoText) as { config: Record<string, unknown>; title: string };

interface Options {
  deployments?: () => unknown;
  workbooks?: () => unknown;
  getDeployment?: () => unknown;
}

describe('dashboards: edit (pull), the pickers, attach a thread, command arguments', () => {
  const { sink, reset } = useDashStandIn();
  let featureMod: typeof FeatureModule;
  let fileMod: typeof FileModule;
  let prompts: typeof PromptsModule;
  let Uri: { file(p: string): { toString(): string; path: string }; parse(s: string): unknown };

  before(() => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    featureMod = require('../../../src/dashboards/dashboardsFeature') as typeof FeatureModule;
    fileMod = require('../../../src/dashboards/dashboardFile') as typeof FileModule;
    prompts = require('../../../src/dashboards/dashboardPrompts') as typeof PromptsModule;
    Uri = (require('vscode') as { Uri: typeof Uri }).Uri;
    /* eslint-enable @typescript-eslint/no-require-imports */
  });

  const workbook = {
    id: 1001,
    name: 'Revenue Q3',
    dashboardDraft: { ...demo.config, title: 'Draft title' },
  };

  function setup(o: Options = {}) {
    reset();
    const rec = recordingClient({
      listDeployments:
        o.deployments ?? (async () => ({ items: [{ id: 7, name: 'Staging', region: 'eu' }, { id: 9 }] })),
      listWorkbooks: o.workbooks ?? (async () => ({ items: [{ id: 1001, name: 'Revenue Q3' }, { id: 5 }] })),
      getDeployment: o.getDeployment ?? (async (d: number) => ({ id: d, name: 'Staging' })),
      getWorkbook: async (_d: number, w: number) => ({ ...workbook, id: w }),
      updateAiWidgetThread: async (_d: number, _w: number, body: unknown) => ({ ok: true, body }),
    });
    const workspaceState = memento();
    const logs: string[] = [];
    const services = {
      context: { workspaceState, globalState: memento(), extensionUri: Uri.file('/ext') },
      log: { info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m) },
      profiles: { active: () => ({ profile: { name: 'dev' } }) },
      clients: { platform: async () => rec.client },
    } as unknown as Services;
    const feature = new featureMod.DashboardsFeature(services);
    return { rec, feature, logs, workspaceState };
  }

  it('Edit Dashboard on a workbook row: the save dialog, the draft written as a dashboard file, opened as JSON', async () => {
    const s = setup();
    sink.workspaceFolder = '/ws';
    sink.saveAnswer = '/ws/out.json';
    const target = await s.feature.edit({ deploymentId: 7, data: { id: 1001, name: 'Revenue Q3' } });
    assert.equal(String(target), 'file:///ws/out.dashboard.json', 'a dashboard file name, never .json alone');
    assert.deepEqual(
      s.rec.calls.map((c) => [c.name, ...c.args]),
      [['getWorkbook', 7, 1001]],
    );
    assert.equal(sink.saveDialogs.length, 1);
    const dialog = sink.saveDialogs[0] as {
      title: string;
      saveLabel: string;
      defaultUri: unknown;
      filters: unknown;
    };
    assert.equal(dialog.title, 'Save the dashboard of "Revenue Q3"');
    assert.equal(dialog.saveLabel, 'Save Dashboard');
    assert.deepEqual(dialog.filters, { 'Dashboard JSON': ['json'] });
    assert.equal(String(dialog.defaultUri), 'file:///ws/revenue-q3.dashboard.json');
    const expected = fileMod.formatDashboardFile(fileMod.dashboardFromWorkbook(workbook, 'draft'));
    assert.deepEqual(sink.written, [{ uri: 'file:///ws/out.dashboard.json', text: expected }]);
    assert.match(expected, /"Draft title"/, 'the draft, not what is published');
    assert.deepEqual(sink.shown, [
      { uri: 'file:///ws/out.dashboard.json', languageId: 'json', preview: false },
    ]);
    assert.deepEqual(s.feature.history(target as never), []);
    assert.ok(
      s.logs.includes('Pulled the dashboard of workbook 1001 (deployment 7) into /ws/out.dashboard.json'),
    );
    // The file now belongs to deployment 7: publishing it asks no deployment.
    const remembered = Object.values(s.workspaceState.data).map((v) => JSON.stringify(v));
    assert.ok(
      remembered.some(
        (v) => v.includes('"file:///ws/out.dashboard.json":{') && v.includes('"deploymentId":7'),
      ),
    );
  });

  it('Edit Dashboard: a dismissed save dialog writes nothing; no workspace folder, no default name', async () => {
    const s = setup();
    sink.saveAnswer = undefined;
    assert.equal(await s.feature.edit({ deploymentId: 7, workbookId: 1001 }), undefined);
    assert.deepEqual(sink.written, []);
    assert.deepEqual(sink.shown, []);
    assert.equal('defaultUri' in (sink.saveDialogs[0] as object), false);
    assert.deepEqual(s.workspaceState.data, {});
  });

  it('Edit Dashboard in a workspace with no folders: no default name', async () => {
    const s = setup();
    sink.workspaceFolder = '';
    sink.saveAnswer = '/ws/out.json';
    await s.feature.edit({ deploymentId: 7, workbookId: 1001 });
    assert.equal('defaultUri' in (sink.saveDialogs[0] as object), false);
    assert.equal(sink.written.length, 1);
  });

  it('Edit Dashboard with a target writes there without a dialog', async () => {
    const s = setup();
    await s.feature.edit({ deploymentId: 7, workbookId: 1001, target: '/ws/a.dashboard.json' });
    assert.deepEqual(sink.saveDialogs, []);
    assert.equal(sink.written[0]!.uri, 'file:///ws/a.dashboard.json');
    assert.equal(s.rec.calls.length, 1);
  });

  it('the pickers: deployments and workbooks by name, id and region; the picked ids are used', async () => {
    const s = setup();
    sink.pickAnswers = [0, 0];
    sink.saveAnswer = '/ws/x.dashboard.json';
    await s.feature.edit();
    assert.deepEqual(sink.picks, [
      {
        title: 'Deployment to pull from',
        matchOnDescription: true,
        items: [
          { label: 'Staging', description: 'id 7 · eu' },
          { label: 'Deployment 9', description: 'id 9' },
        ],
      },
      {
        title: 'Workbook',
        matchOnDescription: true,
        items: [
          { label: 'Revenue Q3', description: 'id 1001' },
          { label: 'Workbook 5', description: 'id 5' },
        ],
      },
    ]);
    assert.deepEqual(
      s.rec.calls.map((c) => [c.name, ...c.args]),
      [
        ['listDeployments', { first: 100 }],
        ['listWorkbooks', 7, { first: 100 }],
        ['getWorkbook', 7, 1001],
      ],
    );
  });

  it('the pickers: dismissed cancels and writes nothing; empty lists are said so', async () => {
    const cases: { name: string; o: Options; picks: (number | undefined)[]; error: RegExp }[] = [
      { name: 'deployment dismissed', o: {}, picks: [undefined], error: /CancellationError|^Error$/ },
      { name: 'workbook dismissed', o: {}, picks: [0, undefined], error: /CancellationError|^Error$/ },
      {
        name: 'no deployments',
        o: { deployments: async () => ({ items: [] }) },
        picks: [],
        error: /^Error: This profile has no deployments\.$/,
      },
      {
        name: 'no workbooks',
        o: { workbooks: async () => ({ items: [] }) },
        picks: [0],
        error: /^Error: "Staging" has no workbooks\.$/,
      },
      {
        name: 'no workbooks, deployment unknown',
        o: {
          workbooks: async () => ({ items: [] }),
          getDeployment: async () => {
            throw new Error('404');
          },
        },
        picks: [0],
        error: /^Error: This deployment has no workbooks\.$/,
      },
    ];
    for (const c of cases) {
      const s = setup(c.o);
      sink.pickAnswers = [...c.picks];
      sink.saveAnswer = '/ws/x.dashboard.json';
      const err = await s.feature.edit().then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      assert.ok(err, c.name);
      assert.match(
        `${err.constructor.name === 'CancellationError' ? 'CancellationError' : String(err)}`,
        c.error,
        c.name,
      );
      assert.deepEqual(sink.written, [], c.name);
      assert.equal(s.rec.calls.filter((x) => x.name === 'getWorkbook').length, 0, c.name);
    }
  });

  it('a list that cannot load asks for the id, a positive whole number', async () => {
    const s = setup({
      deployments: async () => {
        throw new Error('offline');
      },
      workbooks: async () => {
        throw new Error('offline');
      },
    });
    sink.inputAnswers = [' 7 ', '1001'];
    sink.saveAnswer = '/ws/x.dashboard.json';
    await s.feature.edit();
    assert.deepEqual(
      sink.inputs.map((i) => i.prompt),
      ['Deployment to pull from (id)', 'Workbook id'],
    );
    const ok = (v: string) => sink.inputs[0]!.checks[v] === undefined;
    assert.deepEqual(PROBES.filter(ok), ['7', ' 12 '], 'only positive whole numbers pass');
    assert.equal(sink.inputs[0]!.checks['0'], 'A positive whole number.');
    assert.deepEqual(
      s.rec.calls.filter((c) => c.name === 'getWorkbook').map((c) => c.args),
      [[7, 1001]],
    );
    assert.ok(s.logs.includes('Could not list deployments for the picker: offline'));
    assert.ok(s.logs.includes('Could not list workbooks for the picker: offline'));
    // Dismissing the input cancels.
    const t = setup({
      deployments: async () => {
        throw new Error('offline');
      },
    });
    sink.inputAnswers = [undefined];
    await assert.rejects(t.feature.edit(), (e: Error) => e.constructor.name === 'CancellationError');
    assert.deepEqual(sink.written, []);
  });

  it('Attach AI Widget Thread sends exactly the thread, widget and checksum given or asked', async () => {
    const cases: {
      name: string;
      arg: Record<string, unknown>;
      inputs: (string | undefined)[];
      asked: string[];
      body: Record<string, unknown>;
    }[] = [
      {
        name: 'all given: nothing asked, no checksum',
        arg: { deploymentId: 7, workbookId: 1001, threadId: 't1', widgetId: 'w1' },
        inputs: [],
        asked: [],
        body: { threadId: 't1', widgetId: 'w1' },
      },
      {
        name: 'all given with a checksum',
        arg: { deploymentId: 7, workbookId: 1001, threadId: 't1', widgetId: 'w1', checksum: 'c9' },
        inputs: [],
        asked: [],
        body: { threadId: 't1', widgetId: 'w1', checksum: 'c9' },
      },
      {
        name: 'asked, checksum left empty',
        arg: { deploymentId: 7, workbookId: 1001 },
        inputs: [' t2 ', 'w2', '  '],
        asked: ['AI thread id', 'Widget id', 'Checksum (optional)'],
        body: { threadId: 't2', widgetId: 'w2' },
      },
      {
        name: 'widget given, thread asked: the checksum is asked too',
        arg: { deploymentId: 7, workbookId: 1001, widgetId: 'w3' },
        inputs: ['t3', 'abc'],
        asked: ['AI thread id', 'Checksum (optional)'],
        body: { threadId: 't3', widgetId: 'w3', checksum: 'abc' },
      },
    ];
    for (const c of cases) {
      const s = setup();
      sink.inputAnswers = [...c.inputs];
      await s.feature.attachThread(c.arg);
      assert.deepEqual(
        sink.inputs.map((i) => i.prompt),
        c.asked,
        c.name,
      );
      assert.deepEqual(
        s.rec.calls.map((x) => [x.name, ...x.args]),
        [['updateAiWidgetThread', 7, 1001, c.body]],
        c.name,
      );
      assert.deepEqual(sink.info, [
        `AI thread ${String(c.body.threadId)} attached to widget ${String(c.body.widgetId)}.`,
      ]);
    }
    // Required ids refuse blank; the checksum accepts blank.
    const s = setup();
    sink.inputAnswers = ['t', 'w', ''];
    await s.feature.attachThread({ deploymentId: 7, workbookId: 1001 });
    assert.equal(sink.inputs[0]!.checks['  '], 'Required.');
    assert.equal(sink.inputs[0]!.checks['abc'], undefined);
    assert.equal(sink.inputs[2]!.checks['  '], undefined);
    // Dismissed: nothing sent.
    const t = setup();
    sink.inputAnswers = [undefined];
    await assert.rejects(t.feature.attachThread({ deploymentId: 7, workbookId: 1001 }));
    assert.deepEqual(t.rec.calls, []);
  });

  it('Attach AI Widget Thread on a workbook row or a dashboard file finds its workbook and deployment', async () => {
    const s = setup();
    sink.inputAnswers = ['t', 'w', ''];
    await s.feature.attachThread({ deploymentId: 3, data: { id: 44, name: 'x' } });
    assert.deepEqual(s.rec.calls.at(-1)!.args.slice(0, 2), [3, 44]);

    const f = setup();
    sink.docs.set('file:///ws/revenue.dashboard.json', {
      text: demoText,
      isDirty: false,
      saves: 0,
      languageId: 'json',
    });
    await f.feature.edit({ deploymentId: 8, workbookId: 1001, target: '/ws/revenue.dashboard.json' });
    sink.docs.set('file:///ws/revenue.dashboard.json', {
      text: demoText,
      isDirty: false,
      saves: 0,
      languageId: 'json',
    });
    await f.feature.attachThread({ uri: '/ws/revenue.dashboard.json', threadId: 't', widgetId: 'w' });
    assert.deepEqual(f.rec.calls.at(-1)!.args, [8, 1001, { threadId: 't', widgetId: 'w' }]);
    assert.deepEqual(sink.picks, [], 'the file names its workbook; its deployment is remembered');
  });

  it('command arguments: paths and URIs, argument objects, explorer workbook rows', () => {
    const file = Uri.file('/a/b.dashboard.json');
    assert.equal(prompts.toUri(file as never), file);
    const cases: [string, string][] = [
      ['/ws/x.dashboard.json', 'file:///ws/x.dashboard.json'],
      ['file:///ws/y.json', 'file:///ws/y.json'],
      ['untitled:z', 'untitled://z'],
      ['C:\\ws\\x.json', 'file://C:\\ws\\x.json'],
      ['x:y', 'file://x:y'],
    ];
    assert.deepEqual(
      cases.map(([i]) => [i, String(prompts.toUri(i))]),
      cases,
    );
    assert.deepEqual(prompts.objectArg({ a: 1 }), { a: 1 });
    for (const v of [undefined, null, 3, 'x', file]) assert.deepEqual(prompts.objectArg(v), {}, String(v));
    const nodes: [unknown, unknown][] = [
      [
        { deploymentId: 7, data: { id: 1001 } },
        { deploymentId: 7, workbookId: 1001 },
      ],
      [{ deploymentId: 7, data: { id: 0 } }, undefined],
      [{ deploymentId: 7, data: { id: '3' } }, undefined],
      [{ deploymentId: '7', data: { id: 3 } }, undefined],
      [{ deploymentId: 7 }, undefined],
      [{ data: { id: 3 } }, undefined],
      [undefined, undefined],
    ];
    assert.deepEqual(
      nodes.map(([n]) => prompts.workbookFromNode(n)),
      nodes.map(([, w]) => w),
    );
  });
  it('Attach AI Widget Thread: a row or ids given win over the active file; else the active file, else pickers', async () => {
    const fileText = demoText; // workbook 1001
    const openFile = () => {
      sink.docs.set('file:///ws/revenue.dashboard.json', {
        text: fileText,
        isDirty: false,
        saves: 0,
        languageId: 'json',
      });
      sink.activeEditor = '/ws/revenue.dashboard.json';
    };
    const s = setup();
    openFile();
    await s.feature.attachThread({
      deploymentId: 3,
      data: { id: 44, name: 'x' },
      threadId: 't',
      widgetId: 'w',
    });
    assert.deepEqual(
      s.rec.calls.map((c) => c.args.slice(0, 2)),
      [[3, 44]],
      'the row, not the active file',
    );
    const a = setup();
    openFile();
    await a.feature.attachThread({ deploymentId: 3, workbookId: 45, threadId: 't', widgetId: 'w' });
    assert.deepEqual(
      a.rec.calls.map((c) => c.args.slice(0, 2)),
      [[3, 45]],
    );
    const b = setup();
    openFile();
    await b.feature.attachThread({ deploymentId: 3, threadId: 't', widgetId: 'w' });
    assert.deepEqual(
      b.rec.calls.map((c) => c.args.slice(0, 2)),
      [[3, 1001]],
      'the active file names the workbook',
    );
    const c = setup();
    sink.pickAnswers = [0, 1];
    await c.feature.attachThread({ threadId: 't', widgetId: 'w' });
    assert.deepEqual(c.rec.calls.at(-1)!.args.slice(0, 2), [7, 5], 'no file: both picked');
    assert.equal(sink.picks.length, 2);
  });
});
