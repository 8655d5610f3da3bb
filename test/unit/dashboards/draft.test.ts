// Save Dashboard Draft (dashboardsFeature.ts) and what the dashboard editor's buttons run, in plain
// Node with the dashboards' stand-in for `vscode`: the draft's exact request (the file's config with
// its title and description, to the workbook the file names, on its deployment), "saved" said only
// after the server answered (an unknown outcome is the transport's error, nothing said or
// remembered), a file that is invalid sends nothing; the page's Publish, Save Draft and the review's
// decision run the commands for this file or its open review, and a decision without a review is
// refused.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiError } from '../../../src/api/errors';
import { COMMANDS } from '../../../src/commands';
import type * as FeatureModule from '../../../src/dashboards/dashboardsFeature';
import type * as FileModule from '../../../src/dashboards/dashboardFile';
import type { Services } from '../../../src/services';
import type { HostToWebview } from '../../../src/shared/dashboardEditorProtocol';
import { recordingClient } from '../featureHarness';
import { memento, useDashStandIn } from './dashStandIn';

const root = path.join(__dirname, '..', '..', '..', '..');
const demoText = fs.readFileSync(path.join(root, 'demo', 'revenue.dashboard.json'), 'utf8');
const FILE = '/ws/revenue.dashboard.json';

type Uri = { toString(): string; path: string };

describe('dashboards: Save Dashboard Draft, and the editor’s buttons', () => {
  const { sink, reset } = useDashStandIn();
  let featureMod: typeof FeatureModule;
  let fileMod: typeof FileModule;
  let vs: { Uri: { file(p: string): Uri } };

  before(() => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    featureMod = require('../../../src/dashboards/dashboardsFeature') as typeof FeatureModule;
    fileMod = require('../../../src/dashboards/dashboardFile') as typeof FileModule;
    vs = require('vscode') as typeof vs;
    /* eslint-enable @typescript-eslint/no-require-imports */
  });

  interface Setup {
    text?: string;
    dirty?: boolean;
    save?: () => unknown;
    deployment?: () => unknown;
    workbook?: (d: number, w: number) => unknown;
  }

  function setup(o: Setup = {}) {
    reset();
    const uri = vs.Uri.file(FILE);
    sink.docs.set(String(uri), {
      text: o.text ?? demoText,
      isDirty: o.dirty === true,
      saves: 0,
      languageId: 'json',
    });
    const rec = recordingClient({
      listDeployments: async () => ({
        items: [
          { id: 7, name: 'Staging' },
          { id: 9, name: 'Prod' },
        ],
      }),
      listWorkbooks: async () => ({ items: [] }),
      getDeployment: o.deployment ?? (async (d: number) => ({ id: d, name: 'Staging' })),
      getWorkbook:
        o.workbook ?? (async (d: number, w: number) => ({ id: w, name: 'Revenue', deploymentId: d })),
      saveDashboardDraft: o.save ?? (async () => ({ id: 1001, saved: true })),
    });
    const workspaceState = memento();
    const logs: string[] = [];
    const services = {
      context: { workspaceState, globalState: memento(), extensionUri: vs.Uri.file('/ext') },
      log: { info: (m: string) => void logs.push(m), warn: (m: string) => void logs.push(m) },
      profiles: { active: () => ({ profile: { name: 'dev', production: false } }) },
      clients: { platform: async () => rec.client },
    } as unknown as Services;
    const feature = new featureMod.DashboardsFeature(services);
    const sent = () => rec.calls.filter((c) => c.name === 'saveDashboardDraft');
    return { uri, rec, feature, logs, sent, workspaceState };
  }

  const input = () => {
    const parsed = fileMod.parseDashboardFile(demoText);
    assert.ok(parsed.ok);
    return parsed.input;
  };

  it('the draft’s exact request, then "saved" said; the deployment remembered; nothing published', async () => {
    const s = setup({ dirty: true });
    const answer = await s.feature.saveDraft({ uri: FILE, deploymentId: 7 });
    assert.deepEqual(answer, { id: 1001, saved: true });
    const calls = s.sent();
    assert.equal(calls.length, 1);
    const [dep, wb, body, signal] = calls[0]!.args as [
      number,
      number,
      { dashboardDraft: Record<string, unknown> },
      unknown,
    ];
    assert.equal(dep, 7);
    assert.equal(wb, 1001);
    assert.deepEqual(body, { dashboardDraft: fileMod.draftOf(input()) });
    assert.equal(body.dashboardDraft.title, 'Revenue Dashboard');
    assert.ok(signal instanceof AbortSignal, 'cancellable');
    assert.equal(sink.docs.get(`file://${FILE}`)!.saves, 1, 'the file saved before it is sent');
    assert.deepEqual(sink.progress, [
      { location: 15, title: 'Saving the dashboard draft…', cancellable: true },
    ]);
    assert.deepEqual(sink.info, [
      'Draft of revenue.dashboard.json saved on "Staging". Nothing was published: viewers still see the published version.',
    ]);
    assert.deepEqual(s.logs, [`Saved the draft of workbook 1001 on "Staging" from ${FILE}`]);
    assert.equal(s.rec.calls.filter((c) => /publish/i.test(c.name)).length, 0, 'nothing published');
    assert.deepEqual(s.feature.history(s.uri as never), [], 'a draft is not a publish');
    // The file now belongs to deployment 7 (kept with the workspace): the next save asks no deployment.
    const kept = Object.values(s.workspaceState.data).map((v) => JSON.stringify(v));
    assert.ok(
      kept.some((v) => v.includes(`"file://${FILE}":{`) && v.includes('"deploymentId":7')),
      `the file's deployment is remembered: ${kept.join(' ')}`,
    );
    sink.info = [];
    await s.feature.saveDraft(s.uri);
    assert.deepEqual(sink.picks, []);
    assert.deepEqual(
      s.sent().map((c) => c.args[0]),
      [7, 7],
    );
  });

  it('no deployment known: picked ("Deployment to save to"); a deployment without a name is named by id', async () => {
    // No deployment is found holding the workbook, so the user picks one.
    const s = setup({
      deployment: async () => ({ id: 9 }),
      workbook: async () => {
        throw new Error('not here');
      },
    });
    sink.pickAnswers = [1];
    sink.activeEditor = FILE;
    await s.feature.saveDraft();
    assert.deepEqual(
      sink.picks.map((p) => p.title),
      ['Deployment to save to'],
    );
    assert.equal(s.sent()[0]!.args[0], 9);
    assert.deepEqual(sink.info, [
      'Draft of revenue.dashboard.json saved on deployment 9. Nothing was published: viewers still see the published version.',
    ]);
  });

  it('an unknown outcome is the transport’s error (with its check): nothing said saved, nothing remembered', async () => {
    const unknown = new ApiError(
      'unknownOutcome',
      'The draft was sent but no answer came back: it may have been saved.',
    );
    const s = setup({
      save: async () => {
        throw unknown;
      },
    });
    await assert.rejects(s.feature.saveDraft({ uri: FILE, deploymentId: 7 }), unknown);
    assert.equal(s.sent().length, 1, 'sent once, never retried');
    assert.deepEqual(sink.info, []);
    assert.deepEqual(s.workspaceState.data, {});
  });

  it('an invalid file is refused with its problem ("Draft not saved"), on the file; nothing sent', async () => {
    const s = setup({ text: demoText.replace('"workbookId": 1001', '"workbookId": "x"') });
    await assert.rejects(
      s.feature.saveDraft({ uri: FILE, deploymentId: 7 }),
      /^Error: Draft not saved: .+ \(line 2, column \d+\)$/,
    );
    assert.deepEqual(s.sent(), []);
    assert.equal(s.feature.diagnostics.has(s.uri as never), true);
    assert.deepEqual(sink.info, []);
  });

  it('no file: refused, nothing sent', async () => {
    const s = setup();
    await assert.rejects(s.feature.saveDraft(), { message: 'Open a *.dashboard.json file first.' });
    assert.deepEqual(s.sent(), []);
  });

  /** A webview panel recording what is posted; `send` delivers a message from the page. */
  function panel() {
    const posted: HostToWebview[] = [];
    let onMessage: (m: unknown) => Promise<void> = async () => undefined;
    return {
      posted,
      webview: {
        options: undefined as unknown,
        html: '',
        cspSource: 'vscode-webview:',
        asWebviewUri: (u: Uri) => u,
        postMessage: async (m: HostToWebview) => (posted.push(m), true),
        onDidReceiveMessage: (l: (m: unknown) => Promise<void>) => ((onMessage = l), { dispose() {} }),
      },
      onDidDispose: () => ({ dispose() {} }),
      send: (m: unknown) => onMessage(m),
    };
  }

  it('the editor’s Publish and Save Draft run their commands for this file; a decision without a review is refused', async () => {
    const s = setup();
    const p = panel();
    const doc = {
      uri: s.uri,
      getText: () => demoText,
      version: 1,
      positionAt: () => ({ line: 0, character: 0 }),
    };
    s.feature.editor.resolveCustomTextEditor(doc as never, p as never);
    await p.send({ type: 'publish' });
    await p.send({ type: 'saveDraft' });
    assert.deepEqual(sink.commands, [
      { id: COMMANDS.dashboardsPublish.id, args: [{ uri: s.uri }] },
      { id: COMMANDS.dashboardsSaveDraft.id, args: [{ uri: s.uri }] },
    ]);
    for (const type of ['publishReviewed', 'cancelReview']) await p.send({ type });
    assert.deepEqual(sink.errors, [
      'This file has no open publish review. Choose Publish… to review it.',
      'This file has no open publish review. Choose Publish… to review it.',
    ]);
    assert.equal(sink.commands.length, 2, 'no decision sent');
    assert.equal('review' in p.posted[p.posted.length - 1]!, false);
  });

  it('with the file’s review open: the page shows it, and its buttons decide THAT review', async () => {
    const s = setup();
    await s.feature.saveDraft({ uri: FILE, deploymentId: 7 }); // the file's deployment remembered
    const publishing = (s.feature as unknown as { publishing: { publish(a: unknown): Promise<unknown> } })
      .publishing;
    await publishing.publish(s.uri);
    const review = s.feature.lastReview!;
    assert.equal(review.state, 'open');
    const p = panel();
    const doc = {
      uri: s.uri,
      getText: () => demoText,
      version: 1,
      positionAt: () => ({ line: 0, character: 0 }),
    };
    s.feature.editor.resolveCustomTextEditor(doc as never, p as never);
    assert.equal(p.posted[0]!.review?.where, '"Staging"');
    assert.equal(p.posted[0]!.review?.summary, review.review.summary);
    sink.commands = [];
    await p.send({ type: 'publishReviewed' });
    await p.send({ type: 'cancelReview' });
    assert.deepEqual(sink.commands, [
      { id: COMMANDS.dashboardsPublishReviewed.id, args: [{ reviewId: review.id }] },
      { id: COMMANDS.dashboardsCancelReview.id, args: [{ reviewId: review.id }] },
    ]);
    assert.deepEqual(sink.errors, []);
    // Another file's editor has no review to decide.
    sink.docs.set('file:///ws/other.dashboard.json', {
      text: demoText,
      isDirty: false,
      saves: 0,
      languageId: 'json',
    });
    const other = panel();
    const otherUri = vs.Uri.file('/ws/other.dashboard.json');
    s.feature.editor.resolveCustomTextEditor({ ...doc, uri: otherUri } as never, other as never);
    assert.equal('review' in other.posted[0]!, false);
    await other.send({ type: 'publishReviewed' });
    assert.deepEqual(sink.errors, ['This file has no open publish review. Choose Publish… to review it.']);
  });
});
