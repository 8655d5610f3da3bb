// Publishing a dashboard file (publishFlow.ts), loaded in plain Node with a stand-in for `vscode`:
// a file opens a review and sends nothing; "Publish These Changes" sends exactly what that review
// showed, once, and records it in the file's history; a review the file has moved past is replaced
// and nothing is sent; a production publish asks once more; an invalid file is refused with its
// problem on the file; a publish whose outcome is unknown says how to check it. The platform
// client records every call (the exact publish request).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiError } from '../../../src/api/errors';
import type * as PublishFlowModule from '../../../src/dashboards/publishFlow';
import type * as RecordsModule from '../../../src/dashboards/dashboardRecords';
import type { Services } from '../../../src/services';
import { recordingClient } from '../featureHarness';
import { memento, useDashStandIn } from './dashStandIn';

const root = path.join(__dirname, '..', '..', '..', '..');
const demoText = fs.readFileSync(path.join(root, 'demo', 'revenue.dashboard.json'), 'utf8');

describe('dashboards: publishing a file (review, decision, send, history)', () => {
  const { sink, reset } = useDashStandIn();
  let flowMod: typeof PublishFlowModule;
  let recordsMod: typeof RecordsModule;
  let vs: {
    Uri: { file(p: string): { toString(): string; path: string } };
    TabInputTextDiff: new (a: unknown, b: unknown) => unknown;
  };
  let Uri: { file(p: string): { toString(): string; path: string } };

  before(() => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    flowMod = require('../../../src/dashboards/publishFlow') as typeof PublishFlowModule;
    recordsMod = require('../../../src/dashboards/dashboardRecords') as typeof RecordsModule;
    vs = require('vscode') as typeof vs;
    Uri = vs.Uri;
    /* eslint-enable @typescript-eslint/no-require-imports */
  });

  interface Setup {
    production?: boolean;
    publishDashboard?: (...a: never[]) => unknown;
    published?: Record<string, unknown>;
    text?: string;
    dirty?: boolean;
  }

  function setup(o: Setup = {}) {
    reset();
    const uri = Uri.file('/ws/revenue.dashboard.json');
    sink.docs.set(String(uri), {
      text: o.text ?? demoText,
      isDirty: o.dirty === true,
      saves: 0,
      languageId: 'json',
    });
    const rec = recordingClient({
      getWorkbook: async (d: number, w: number) => ({
        id: w,
        name: 'Revenue',
        deploymentId: d,
        ...(o.published ? { dashboardPublished: o.published, publishedDashboard: o.published } : {}),
      }),
      getDeployment: async (d: number) => ({ id: d, name: 'Staging' }),
      publishDashboard:
        o.publishDashboard ??
        (async (_d: number, _w: number, input: { config?: unknown }) => ({
          versionNumber: 4,
          publicId: 'pub-1',
          status: 'published',
          config: input.config,
        })),
    });
    const workspaceState = memento();
    const globalState = memento();
    const logs: string[] = [];
    const services = {
      context: { workspaceState, globalState },
      log: { info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m) },
      profiles: { active: () => ({ profile: { name: 'dev', production: o.production === true } }) },
      clients: { platform: async () => rec.client },
    } as unknown as Services;
    const records = new recordsMod.DashboardRecords(services);
    const diagnostics = new Map<string, unknown>();
    const diagnosticCollection = {
      set: (u: unknown, d: unknown) => diagnostics.set(String(u), d),
      delete: (u: unknown) => diagnostics.delete(String(u)),
    };
    const refreshed: string[] = [];
    const flow = new flowMod.PublishFlow(services, records, diagnosticCollection as never, (u) =>
      refreshed.push(String(u)),
    );
    const doc = sink.docs.get(String(uri))!;
    const sent = () => rec.calls.filter((c) => c.name === 'publishDashboard');
    return { uri, rec, flow, records, doc, diagnostics, sent, refreshed, logs, workspaceState, globalState };
  }

  const parsedDemo = () => JSON.parse(demoText) as Record<string, unknown>;

  it('a file opens its review (deployment named) and sends nothing until Publish These Changes', async () => {
    const s = setup();
    await s.records.setDeployment(s.uri as never, 7);
    assert.equal(await s.flow.publish(s.uri), undefined);
    assert.deepEqual(s.sent(), [], 'nothing is published before the user decides');
    const diff = sink.commands.filter((c) => c.id === 'vscode.diff');
    assert.equal(diff.length, 1, 'one review tab');
    assert.match(String(diff[0]!.args[2]), /^Review: revenue\.dashboard\.json → "Staging"/);
    const review = s.flow.lastReview!;
    assert.equal(review.state, 'open');
    assert.equal(review.deploymentId, 7);
    assert.equal(review.deploymentName, 'Staging');
    assert.equal(review.workbookName, 'Revenue');
    assert.equal(review.production, false);
    assert.deepEqual(s.refreshed, [String(s.uri)]);

    const result = await s.flow.publishTheseChanges(review.right);
    assert.equal(result?.versionNumber, 4);
    const calls = s.sent();
    assert.equal(calls.length, 1, 'published once');
    const [dep, wb, input] = calls[0]!.args as [number, number, Record<string, unknown>];
    assert.equal(dep, 7);
    assert.equal(wb, 1001);
    assert.deepEqual(JSON.parse(JSON.stringify(input)), JSON.parse(JSON.stringify(review.input)));
    assert.equal((input as { title?: unknown }).title, parsedDemo().title, 'what the file says is sent');
    assert.equal(review.state, 'published');
    assert.deepEqual(sink.info, ['Dashboard published: version 4, public id pub-1.']);
    const history = s.records.history(s.uri as never);
    assert.equal(history.length, 1);
    assert.deepEqual(
      { ...history[0], time: undefined },
      {
        time: undefined,
        versionNumber: 4,
        who: 'dev',
        deploymentId: 7,
        deploymentName: 'Staging',
        status: 'published',
        publicId: 'pub-1',
      },
    );
    assert.equal(s.records.recordedDeployment(s.uri as never), 7);
    assert.ok(
      s.logs.some((l) => l === 'Published workbook 1001 to "Staging": published: version 4, public id pub-1'),
    );

    // The same review again: told it was published, nothing sent twice.
    sink.info.length = 0;
    assert.equal(await s.flow.publishTheseChanges(review.right), undefined);
    assert.equal(s.sent().length, 1);
    assert.deepEqual(sink.info, ['This review of revenue.dashboard.json was published already.']);
  });

  it('a review the file has moved past is replaced by a new one and nothing is sent', async () => {
    const s = setup();
    await s.flow.publish({ uri: String(s.uri), deploymentId: 7 });
    const first = s.flow.lastReview!;
    s.doc.text = demoText.replace('"Revenue Dashboard"', '"Revenue, edited"');
    assert.equal(await s.flow.publish({ reviewId: first.id }), undefined);
    assert.deepEqual(s.sent(), []);
    assert.equal(first.state, 'stale');
    const second = s.flow.lastReview!;
    assert.notEqual(second.id, first.id, 'a new review');
    assert.equal(second.state, 'open');
    assert.equal((second.input as { title?: unknown }).title, 'Revenue, edited');
    assert.equal(sink.warnings.length, 1);
    assert.match(
      sink.warnings[0]!.message,
      /^revenue\.dashboard\.json .*: nothing was published\. Check the new review/,
    );
    // Publishing a newer review of the file ends the older one (replaced).
    await s.flow.publish({ uri: String(s.uri), deploymentId: 7 });
    assert.equal(second.state, 'replaced');
    assert.deepEqual(s.sent(), []);
  });

  it('an ended review names its file and opens a fresh one; with no file it says to start again', async () => {
    const s = setup();
    await s.flow.publish({ uri: String(s.uri), deploymentId: 7 });
    const first = s.flow.lastReview!;
    await s.flow.cancelReview({ reviewId: first.id });
    assert.equal(first.state, 'cancelled');
    assert.equal(await s.flow.publishTheseChanges(first.right), undefined);
    assert.deepEqual(s.sent(), []);
    assert.match(sink.info[0]!, /^That review of revenue\.dashboard\.json has ended; here is a new one\./);
    assert.notEqual(s.flow.lastReview!.id, first.id);
    assert.equal(s.flow.lastReview!.deploymentId, 7, 'the new review publishes where the old one did');
    await assert.rejects(
      s.flow.publishTheseChanges({ reviewId: 'r999-gone' }),
      /That publish review has ended\. Choose "Publish Dashboard…" on the file again\./,
    );
    assert.throws(() => s.flow.publishTheseChanges(), /No publish review is open/);
  });

  it('a production publish asks once more; no answer sends nothing, the button sends', async () => {
    const s = setup({ production: true });
    await s.flow.publish({ uri: String(s.uri), deploymentId: 7 });
    const r = s.flow.lastReview!;
    assert.equal(r.production, true);
    sink.warnAnswer = undefined;
    assert.equal(await s.flow.publishTheseChanges(r.right), undefined);
    assert.deepEqual(s.sent(), [], 'dismissed: nothing sent');
    assert.equal(r.state, 'open', 'the review stays to decide later');
    assert.equal(sink.warnings.length, 1);
    assert.equal(sink.warnings[0]!.modal, true);
    assert.match(sink.warnings[0]!.message, /^Publish the dashboard of "Revenue" to PRODUCTION "Staging"\?/);
    sink.warnAnswer = 'Publish to Production';
    await s.flow.publishTheseChanges(r.right);
    assert.equal(s.sent().length, 1);
    assert.equal(r.state, 'published');
  });

  it('nothing to publish when the file matches what is published', async () => {
    const input = JSON.parse(demoText) as Record<string, unknown>;
    const s = setup({ published: { ...input, id: 1001, versionNumber: 3, publicId: 'p' } });
    await s.flow.publish({ uri: String(s.uri), deploymentId: 7 });
    const r = s.flow.lastReview!;
    assert.deepEqual(r.review.changes, [], 'the review shows no change');
    await s.flow.publishTheseChanges(r.right);
    assert.deepEqual(s.sent(), []);
    assert.match(
      sink.info.at(-1)!,
      /^Nothing to publish: revenue\.dashboard\.json matches what is published on "Staging"\./,
    );
  });

  it('{confirm: true} sends without a review; a dirty file is saved first', async () => {
    const s = setup({ dirty: true });
    await s.flow.publish({ uri: String(s.uri), deploymentId: 7, confirm: true });
    assert.equal(s.doc.saves, 1, 'saved before sending');
    assert.equal(s.sent().length, 1);
    assert.equal(sink.commands.filter((c) => c.id === 'vscode.diff').length, 0, 'no review tab');
    assert.equal(s.flow.lastReview, undefined);
    // Only `confirm: true` skips the review.
    const t = setup();
    await t.flow.publish({ uri: String(t.uri), deploymentId: 7, confirm: 'yes' });
    assert.deepEqual(t.sent(), []);
    assert.equal(t.flow.lastReview?.state, 'open');
  });

  it('an invalid file is refused with its problem on the file and in the message; nothing sent', async () => {
    const s = setup({ text: '{\n  "workbookId": "x"\n}\n' });
    await assert.rejects(
      s.flow.publish({ uri: String(s.uri), deploymentId: 7 }),
      /^Error: Dashboard not published: .*\(line \d+, column \d+\)$/,
    );
    assert.deepEqual(s.rec.calls, []);
    assert.ok(s.diagnostics.has(String(s.uri)), 'problems shown on the file');
    // Fixed: its problems go.
    s.doc.text = demoText;
    await s.flow.publish({ uri: String(s.uri), deploymentId: 7 });
    assert.equal(s.diagnostics.has(String(s.uri)), false);
  });

  it('an outcome left unknown offers the publish history to check; nothing is recorded', async () => {
    const s = setup({
      publishDashboard: async () => {
        throw new ApiError('unknownOutcome', 'The connection reset after the publish was sent.');
      },
    });
    await s.flow.publish({ uri: String(s.uri), deploymentId: 7 });
    const err = await s.flow.publishTheseChanges(s.flow.lastReview!.right).then(
      () => undefined,
      (e: unknown) => e as ApiError,
    );
    assert.ok(err instanceof ApiError);
    assert.equal(err.kind, 'unknownOutcome');
    assert.equal(err.check?.command, 'dashboardPlatform.dashboards.showHistory');
    assert.deepEqual(err.check?.args, [s.uri]);
    assert.deepEqual(s.records.history(s.uri as never), []);
    assert.equal(s.flow.lastReview!.state, 'open', 'not marked published');
    assert.deepEqual(sink.info, []);
  });

  it('learns the fields the server filled in, for the active profile only', async () => {
    const s = setup({
      publishDashboard: async (_d: number, _w: number, input: { config?: Record<string, unknown> }) => ({
        versionNumber: 1,
        config: { ...input.config, serverOnly: 'filled' },
      }),
    });
    await s.flow.publish({ uri: String(s.uri), deploymentId: 7, confirm: true });
    const fills = s.globalState.data['dashboardPlatform.dashboards.serverFills'] as Record<string, unknown>;
    assert.ok(fills, 'learned');
    assert.deepEqual(Object.keys(fills), ['dev']);
    assert.deepEqual(sink.info, ['Dashboard published: version 1.']);
  });
  it('"Publish" on a review (its URI, or with its tab active) confirms that review; on a file it reviews', async () => {
    const s = setup();
    await s.flow.publish({ uri: String(s.uri), deploymentId: 7 });
    const first = s.flow.lastReview!;
    await s.flow.publish(first.right);
    assert.equal(s.sent().length, 1, 'the review URI: published');
    assert.equal(first.state, 'published');

    const t = setup();
    await t.flow.publish({ uri: String(t.uri), deploymentId: 7 });
    const r = t.flow.lastReview!;
    sink.activeTab = new vs.TabInputTextDiff(r.left, r.right);
    // An argument naming the file reviews it again, even with a review tab active.
    await t.flow.publish({ uri: String(t.uri), deploymentId: 7 });
    assert.deepEqual(t.sent(), []);
    assert.equal(r.state, 'replaced');
    const r2 = t.flow.lastReview!;
    sink.activeTab = new vs.TabInputTextDiff(r2.left, r2.right);
    await t.flow.publish();
    assert.equal(t.sent().length, 1, 'no argument: the active review is published');
    assert.equal(r2.state, 'published');

    const u = setup();
    await assert.rejects(u.flow.publish(), /^Error: Open a \*\.dashboard\.json file first\.$/);
    assert.deepEqual(u.rec.calls, []);
  });

  it('a review leaves out the fields the server fills in, learned for the active profile only', async () => {
    const input = JSON.parse(demoText) as { config: Record<string, unknown> };
    const published = { ...input, id: 1001, versionNumber: 3, config: { ...input.config, serverOnly: 'x' } };
    const KEY = 'dashboardPlatform.dashboards.serverFills';
    const changesWith = async (fills: Record<string, unknown> | undefined) => {
      const s = setup({ published });
      if (fills) s.globalState.data[KEY] = fills;
      await s.flow.publish({ uri: String(s.uri), deploymentId: 7 });
      return s.flow.lastReview!.review.changes;
    };
    assert.deepEqual(await changesWith({ dev: { 'config.serverOnly': 'x' } }), []);
    assert.notDeepEqual(await changesWith({ other: { 'config.serverOnly': 'x' } }), []);
    assert.notDeepEqual(await changesWith(undefined), []);
  });
  it('a review tab names the file and whether there is anything to publish; reviewing another file leaves it open', async () => {
    const s = setup();
    await s.flow.publish({ uri: String(s.uri), deploymentId: 7 });
    const a = s.flow.lastReview!;
    assert.match(a.right.path, /^\/r\d+-[a-z0-9]+\/revenue \(to publish\)\.dashboard\.json$/);
    assert.match(a.left.path, /^\/r\d+-[a-z0-9]+\/revenue \(published\)\.dashboard\.json$/);
    assert.equal(a.right.query, String(s.uri), 'the review names its file');
    const other = Uri.file('/ws/other.dashboard.json');
    sink.docs.set(String(other), { text: demoText, isDirty: false, saves: 0, languageId: 'json' });
    await s.flow.publish({ uri: String(other), deploymentId: 7 });
    assert.equal(a.state, 'open', 'a review of another file is not replaced');
    assert.equal(s.flow.reviews.open().length, 2);
  });
});
