// The dashboard editor (dashboardEditor.ts) in plain Node, with the dashboards' stand-in for `vscode`
// and a webview panel that records what is posted to the page: the page is set up (scripts from
// dist/webview only), each message from the page does what the user asked (an edit becomes one
// minimal WorkspaceEdit of the text; Publish, Save Draft and the review's decision run the host's
// commands for this file; a widget's report picked by name; the text opened or revealed), a
// refused edit or a bad message is said and the page gets the file's state again, an invalid file
// locks the page with its problems, and what the editor kept (reports, problems) goes when its last
// panel closes.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as EditorModule from '../../../src/dashboards/dashboardEditor';
import type { HostToWebview } from '../../../src/shared/dashboardEditorProtocol';
import { useDashStandIn } from './dashStandIn';

const root = path.join(__dirname, '..', '..', '..', '..');
const demoText = fs.readFileSync(path.join(root, 'demo', 'revenue.dashboard.json'), 'utf8');
const FILE = '/ws/revenue.dashboard.json';

type Uri = { toString(): string; path: string };

/** A webview panel: what is posted to the page, and the page's messages and the panel's closing. */
function fakePanel(postAnswer = true) {
  const posted: HostToWebview[] = [];
  let onMessage: ((m: unknown) => Promise<void>) | undefined;
  let onDispose: (() => void) | undefined;
  const webview = {
    options: undefined as unknown,
    html: '',
    cspSource: 'vscode-webview:',
    asWebviewUri: (u: Uri) => u,
    postMessage: async (m: HostToWebview) => (posted.push(m), postAnswer),
    onDidReceiveMessage: (l: (m: unknown) => Promise<void>) => ((onMessage = l), { dispose() {} }),
  };
  return {
    posted,
    webview,
    onDidDispose: (l: () => void) => ((onDispose = l), { dispose() {} }),
    /** The page sends a message (through the panel's listener, errors and all). */
    send: (m: unknown) => onMessage!(m),
    close: () => onDispose!(),
    last: () => posted[posted.length - 1]!,
  };
}

describe('dashboards: the dashboard editor and the messages of its page', () => {
  const { sink, reset } = useDashStandIn();
  let mod: typeof EditorModule;
  let vs: {
    Uri: { file(p: string): Uri };
    workspace: { openTextDocument(u: Uri): Promise<{ uri: Uri; getText(): string; version: number }> };
    ViewColumn: { Beside: number };
  };

  before(() => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    mod = require('../../../src/dashboards/dashboardEditor') as typeof EditorModule;
    vs = require('vscode') as typeof vs;
    /* eslint-enable @typescript-eslint/no-require-imports */
  });

  interface HostOptions {
    reports?: (uri: Uri, input: unknown) => Promise<Record<string, unknown>>;
    pickReport?: { id: number; name: string } | undefined | 'absent';
    review?: { summary: string; where: string };
  }

  async function setup(o: HostOptions = {}, text = demoText) {
    reset();
    const uri = vs.Uri.file(FILE);
    sink.docs.set(String(uri), { text, isDirty: false, saves: 0, languageId: 'json' });
    const document = await vs.workspace.openTextDocument(uri);
    const calls: unknown[][] = [];
    const diagnostics = new Map<string, unknown[]>();
    const history = [
      {
        time: '2026-11-20T09:00:00Z',
        versionNumber: 3,
        who: 'dev',
        deploymentId: 7,
        status: 'published',
      },
    ];
    const host = {
      history: (u: Uri) => (calls.push(['history', String(u)]), history),
      publish: async (u: Uri) => void calls.push(['publish', String(u)]),
      saveDraft: async (u: Uri) => void calls.push(['saveDraft', String(u)]),
      decideReview: async (u: Uri, publish: boolean) => void calls.push(['decideReview', String(u), publish]),
      review: () => o.review,
      reports:
        o.reports ??
        (async (u: Uri) => (
          calls.push(['reports', String(u)]),
          { '10001': { title: 'Revenue by Region', kind: 'chart' } }
        )),
      ...(o.pickReport === 'absent'
        ? {}
        : {
            pickReport: async (u: Uri, _input: unknown, widgetId: string) => (
              calls.push(['pickReport', String(u), widgetId]),
              o.pickReport
            ),
          }),
      themeChoices: { 'widgets.border.style': ['solid', 'dashed'] },
      diagnostics: {
        set: (u: Uri, d: unknown[]) => void diagnostics.set(String(u), d),
        delete: (u: Uri) => void diagnostics.delete(String(u)),
      },
    };
    const editor = new mod.DashboardEditorProvider(vs.Uri.file('/ext') as never, host as never);
    const open = async (p = fakePanel()) => {
      editor.resolveCustomTextEditor(document as never, p as never);
      await editor.reportsLoaded.get(String(uri));
      return p;
    };
    return { uri, document, editor, host, calls, diagnostics, open, history };
  }

  it('opening: the page (scripts from dist/webview only), the file’s state, then its widgets’ reports', async () => {
    const s = await setup();
    const p = fakePanel();
    s.editor.resolveCustomTextEditor(s.document as never, p as never);
    assert.deepEqual(p.webview.options, {
      enableScripts: true,
      localResourceRoots: [vs.Uri.file('/ext/dist'), vs.Uri.file('/ext/media')],
    });
    assert.match(
      p.webview.html,
      /<script nonce="[^"]+" src="file:\/\/\/ext\/dist\/webview\/dashboard\.js"><\/script>/,
    );
    assert.match(p.webview.html, /<title>Dashboard<\/title>/);
    assert.equal(p.posted.length, 1, 'the state is posted at once');
    const first = p.posted[0]!;
    assert.equal(first.type, 'state');
    assert.equal((first.input as { title?: unknown }).title, 'Revenue Dashboard');
    assert.deepEqual(first.problems, []);
    assert.equal(first.locked, false);
    assert.deepEqual(first.history, s.history);
    assert.deepEqual(first.reports, {}, 'reports arrive later');
    assert.deepEqual(first.themeChoices, { 'widgets.border.style': ['solid', 'dashed'] });
    assert.equal('review' in first, false);
    assert.equal('select' in first, false);
    await s.editor.reportsLoaded.get(String(s.uri));
    assert.equal(p.posted.length, 2, 'the reports, once loaded, are posted');
    assert.deepEqual(p.last().reports, { '10001': { title: 'Revenue by Region', kind: 'chart' } });
    assert.equal(s.editor.isOpen(s.uri as never), true);
    assert.equal(s.editor.isReady(s.uri as never), false, 'ready only once the page says so');
    await p.send({ type: 'ready' });
    assert.equal(s.editor.isReady(s.uri as never), true);
    assert.equal(p.posted.length, 3);
    assert.deepEqual(p.last().reports, { '10001': { title: 'Revenue by Region', kind: 'chart' } }, 'kept');
  });

  const commands: { message: { type: string }; call: unknown[] }[] = [
    { message: { type: 'publish' }, call: ['publish', `file://${FILE}`] },
    { message: { type: 'saveDraft' }, call: ['saveDraft', `file://${FILE}`] },
    { message: { type: 'publishReviewed' }, call: ['decideReview', `file://${FILE}`, true] },
    { message: { type: 'cancelReview' }, call: ['decideReview', `file://${FILE}`, false] },
  ];
  for (const c of commands)
    it(`"${c.message.type}" from the page runs the host's command for this file, then posts the state`, async () => {
      const s = await setup({ review: { summary: '2 changes', where: '"Staging"' } });
      const p = await s.open();
      const before = p.posted.length;
      s.calls.length = 0;
      await p.send(c.message);
      assert.deepEqual(
        s.calls.filter((x) => x[0] !== 'history' && x[0] !== 'reports'),
        [c.call],
      );
      assert.equal(p.posted.length, before + 1);
      assert.deepEqual(p.last().review, { summary: '2 changes', where: '"Staging"' });
      assert.deepEqual(sink.edits, [], 'the text is not edited');
    });

  it('an edit from the page: one minimal WorkspaceEdit of the text; the change posts the new state once', async () => {
    const s = await setup();
    const p = await s.open();
    const before = p.posted.length;
    await p.send({ type: 'setRowHeight', value: 48 });
    assert.deepEqual(sink.edits, [
      [{ uri: `file://${FILE}`, offset: demoText.indexOf('"rowHeight": 60') + 13, length: 2, text: '48' }],
    ]);
    assert.equal(s.document.getText(), demoText.replace('"rowHeight": 60', '"rowHeight": 48'));
    assert.equal(p.posted.length, before + 1, 'posted once, by the change of the document');
    const layout = (p.last().input as { config: { layout: { rowHeight: number } } }).config.layout;
    assert.equal(layout.rowHeight, 48);
    assert.equal('select' in p.last(), false);
  });

  it('adding a widget selects it: the state is posted again with the new widget’s id', async () => {
    const s = await setup();
    const p = await s.open();
    const before = p.posted.length;
    await p.send({ type: 'addWidget', widgetType: 'MARKDOWN' });
    assert.equal(sink.edits.length, 1);
    assert.equal(p.posted.length, before + 2, 'the change, then the selection');
    const ids = (p.last().input as { config: { widgets: { id: string }[] } }).config.widgets.map((w) => w.id);
    assert.equal(ids.length, 7);
    assert.equal(p.last().select, ids[6]);
    assert.equal(typeof p.last().select, 'string');
  });

  it('an edit VS Code refuses is said, and the page gets the file’s state again', async () => {
    const s = await setup();
    const p = await s.open();
    sink.applyEditAnswer = false;
    const before = p.posted.length;
    await p.send({ type: 'setTitle', title: 'Lost' });
    assert.deepEqual(sink.errors, ['VS Code refused the edit of the file.']);
    assert.equal(s.document.getText(), demoText, 'the text is as it was');
    assert.equal(p.posted.length, before + 1);
    assert.equal((p.last().input as { title?: unknown }).title, 'Revenue Dashboard');
  });

  it('a message the page should never send is refused (said), nothing edited, the state posted again', async () => {
    const s = await setup();
    const p = await s.open();
    const before = p.posted.length;
    await p.send({ type: 'setTheme', path: ['not', 'a', 'field'], value: 'x' });
    assert.equal(sink.errors.length, 1);
    assert.match(sink.errors[0]!, /Not a theme field/);
    assert.deepEqual(sink.edits, []);
    assert.equal(p.posted.length, before + 1);
  });

  it('two quick edits are applied one after the other, neither lost', async () => {
    const s = await setup();
    const p = await s.open();
    await Promise.all([
      p.send({ type: 'setTitle', title: 'First' }),
      p.send({ type: 'setDescription', description: 'Second' }),
    ]);
    assert.equal(sink.edits.length, 2);
    const input = p.last().input as { title?: unknown; description?: unknown };
    assert.deepEqual([input.title, input.description], ['First', 'Second']);
  });

  const picks: {
    name: string;
    widget: string;
    picked: { id: number; name: string } | undefined | 'absent';
    reportId?: number;
    title?: string;
  }[] = [
    {
      name: 'a title that repeated the old report’s name follows the new report',
      widget: 'w1',
      picked: { id: 20002, name: 'Revenue by Country' },
      reportId: 20002,
      title: 'Revenue by Country',
    },
    {
      name: 'a title of the user’s own stays',
      widget: 'w2',
      picked: { id: 20003, name: 'Orders' },
      reportId: 20003,
      title: 'Orders by Month',
    },
    { name: 'a dismissed picker changes nothing', widget: 'w1', picked: undefined },
    { name: 'a host without a report picker changes nothing', widget: 'w1', picked: 'absent' },
  ];
  for (const c of picks)
    it(`Pick Report: ${c.name}`, async () => {
      const s = await setup({ pickReport: c.picked });
      const p = await s.open();
      s.calls.length = 0;
      await p.send({ type: 'pickReport', id: c.widget });
      const asked = s.calls.filter((x) => x[0] === 'pickReport');
      assert.deepEqual(asked, c.picked === 'absent' ? [] : [['pickReport', `file://${FILE}`, c.widget]]);
      if (c.reportId === undefined) {
        assert.deepEqual(sink.edits, []);
        assert.equal(s.document.getText(), demoText);
        assert.deepEqual(
          s.calls.filter((x) => x[0] === 'reports'),
          [],
          'no reload',
        );
        return;
      }
      assert.equal(sink.edits.length, 1);
      await s.editor.reportsLoaded.get(String(s.uri));
      const widget = (
        JSON.parse(s.document.getText()) as {
          config: { widgets: { id: string; config: Record<string, unknown> }[] };
        }
      ).config.widgets.find((w) => w.id === c.widget)!;
      assert.equal(widget.config.reportId, c.reportId);
      assert.equal(widget.config.title, c.title);
      assert.deepEqual(
        s.calls.filter((x) => x[0] === 'reports'),
        [['reports', `file://${FILE}`]],
        'the new report’s name and preview loaded',
      );
    });

  it('Open as Text opens the file in the default editor; a problem’s Reveal shows the text beside, at it', async () => {
    const s = await setup();
    const p = await s.open();
    const before = p.posted.length;
    await p.send({ type: 'openText' });
    assert.deepEqual(sink.commands, [{ id: 'vscode.openWith', args: [s.uri, 'default'] }]);
    await p.send({ type: 'reveal', line: 4, column: 2 });
    assert.deepEqual(JSON.parse(JSON.stringify(sink.shown)), [
      {
        uri: `file://${FILE}`,
        languageId: 'json',
        viewColumn: vs.ViewColumn.Beside,
        selection: { start: { line: 4, character: 2 }, end: { line: 4, character: 2 } },
      },
    ]);
    assert.equal(p.posted.length, before, 'neither changes the page');
  });

  it('an invalid file: the page locked on the last valid version, its problems listed and on the file; fixed, cleared', async () => {
    const s = await setup();
    const p = await s.open();
    const doc = sink.docs.get(`file://${FILE}`)!;
    doc.text = demoText.replace('"workbookId": 1001', '"workbookId": "x"');
    const broken = s.editor.stateOf(s.document as never);
    assert.equal(broken.locked, true);
    assert.equal((broken.input as { title?: unknown }).title, 'Revenue Dashboard', 'the last valid version');
    assert.equal(broken.problems.length, 1);
    assert.deepEqual(broken.problems[0]!.path, ['workbookId']);
    assert.equal(broken.problems[0]!.line, 1, 'the line of workbookId (0-based)');
    const diags = s.diagnostics.get(`file://${FILE}`) as {
      message: string;
      source: string;
      severity: number;
      range: { start: { line: number } };
    }[];
    assert.equal(diags.length, 1);
    assert.equal(diags[0]!.source, 'Dashboard Platform');
    assert.equal(diags[0]!.severity, 0);
    assert.equal(diags[0]!.range.start.line, 1);
    assert.equal(diags[0]!.message, broken.problems[0]!.message);
    doc.text = demoText;
    assert.equal(s.editor.stateOf(s.document as never).locked, false);
    assert.equal(s.diagnostics.has(`file://${FILE}`), false);
    assert.ok(p.posted.length > 0);
  });

  it('refresh posts to every open editor of the file and reloads its reports; showBreakpoint switches their previews', async () => {
    const s = await setup();
    const a = await s.open();
    const b = await s.open(fakePanel());
    const [na, nb] = [a.posted.length, b.posted.length];
    s.calls.length = 0;
    s.editor.refresh(s.uri as never);
    await s.editor.reportsLoaded.get(String(s.uri));
    assert.deepEqual(
      s.calls.filter((x) => x[0] === 'reports'),
      [['reports', `file://${FILE}`]],
      'loaded once',
    );
    assert.equal(a.posted.length, na + 2);
    assert.equal(b.posted.length, nb + 2);
    assert.equal(await s.editor.showBreakpoint(s.document as never, 'sm'), true);
    assert.equal(a.last().breakpoint, 'sm');
    assert.equal(b.last().breakpoint, 'sm');
    const c = await setup();
    const refused = await c.open(fakePanel(false));
    assert.equal(
      await c.editor.showBreakpoint(c.document as never, 'md'),
      false,
      'a page that did not take it',
    );
    assert.equal(refused.last().breakpoint, 'md');
  });

  it('no editor open: receive and showBreakpoint say so; refresh does nothing', async () => {
    const s = await setup();
    await assert.rejects(s.editor.receive(s.uri as never, { type: 'ready' }), {
      message: `No dashboard editor is open for file://${FILE}.`,
    });
    await assert.rejects(s.editor.showBreakpoint(s.document as never, 'lg'), {
      message: `No dashboard editor is open for file://${FILE}.`,
    });
    s.editor.refresh(s.uri as never);
    assert.deepEqual(s.calls, []);
  });

  it('closing the last panel forgets the file’s reports and live problems; one of two panels closed keeps them', async () => {
    const s = await setup();
    const a = await s.open();
    const b = await s.open(fakePanel());
    s.diagnostics.set(`file://${FILE}`, ['a live problem']);
    a.close();
    assert.equal(s.editor.isOpen(s.uri as never), true);
    assert.equal(s.diagnostics.has(`file://${FILE}`), true);
    await s.editor.receive(s.uri as never, { type: 'ready' });
    assert.deepEqual(b.last().reports, { '10001': { title: 'Revenue by Region', kind: 'chart' } });
    s.diagnostics.set(`file://${FILE}`, ['a live problem']);
    b.close();
    assert.equal(s.editor.isOpen(s.uri as never), false);
    assert.equal(s.diagnostics.has(`file://${FILE}`), false, 'the problems were this editor’s');
    assert.deepEqual(sink.changeListeners, [], 'it stops listening to the document');
    // Opened again on a broken file: no old version to show, no old reports.
    sink.docs.get(`file://${FILE}`)!.text = '{ broken';
    const reopened = fakePanel();
    s.editor.resolveCustomTextEditor(s.document as never, reopened as never);
    assert.equal(reopened.posted[0]!.input, null, 'the last valid version went with the editor');
    assert.equal(reopened.posted[0]!.locked, true);
    assert.deepEqual(reopened.posted[0]!.reports, {}, 'the reports went with the editor');
    // Opened again, the page starts without the old reports until they load again.
    let release: (r: Record<string, unknown>) => void = () => undefined;
    const slow = await setup({ reports: () => new Promise((r) => (release = r)) });
    const p = fakePanel();
    slow.editor.resolveCustomTextEditor(slow.document as never, p as never);
    assert.deepEqual(p.posted[0]!.reports, {});
    p.close();
    release({ '1': { title: 'late' } });
    await slow.editor.reportsLoaded.get(String(slow.uri));
    assert.equal(p.posted.length, 1, 'reports that arrive after the editor closed are not posted');
    const again = fakePanel();
    slow.editor.resolveCustomTextEditor(slow.document as never, again as never);
    assert.deepEqual(again.posted[0]!.reports, {}, 'nor kept');
  });

  it('the document changing posts the state; another document’s change or an empty change does not', async () => {
    const s = await setup();
    const p = await s.open();
    const before = p.posted.length;
    for (const l of sink.changeListeners) {
      l({ document: { uri: vs.Uri.file('/ws/other.dashboard.json') }, contentChanges: [{ text: 'x' }] });
      l({ document: s.document, contentChanges: [] });
    }
    assert.equal(sink.changeListeners.length, 1);
    assert.equal(p.posted.length, before);
    sink.changeListeners[0]!({ document: s.document, contentChanges: [{ text: 'x' }] });
    assert.equal(p.posted.length, before + 1);
  });
});
