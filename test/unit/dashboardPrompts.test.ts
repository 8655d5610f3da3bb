// The pieces the dashboards' flows share around a server call (dashboardPrompts.ts): the cancellable
// progress a publish, a draft save and a report push run under, the save before a send, and the
// names messages use. Loaded in plain Node with a stand-in for `vscode` that records the progress
// notification and lets the test press Cancel and fire save events.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as PromptsModule from '../../src/dashboards/dashboardPrompts';
import { forgetVscodeDependents } from './vscodeStandIn';

interface Recorder {
  progress: { options: unknown; cancel: () => void; listening: () => number }[];
  saveListeners: Set<(doc: { uri: { toString(): string } }) => void>;
}

// Any other name the module reads from `vscode` is a class.
const STUB_SOURCE = `
const cls = () => class { constructor(...a) { this.args = a; } };
const ns = (extra) => new Proxy(extra, { get: (t, k) => (k in t ? t[k] : cls()) });
const rec = () => globalThis.__dpPrompts;
module.exports = ns({
  ProgressLocation: { Notification: 15 },
  window: ns({
    withProgress: (options, task) => {
      const listeners = new Set();
      rec().progress.push({
        options,
        cancel: () => listeners.forEach((l) => l()),
        listening: () => listeners.size,
      });
      const token = {
        onCancellationRequested: (l) => {
          listeners.add(l);
          return { dispose: () => listeners.delete(l) };
        },
      };
      return task({ report: () => undefined }, token);
    },
  }),
  workspace: ns({
    onDidSaveTextDocument: (l) => {
      rec().saveListeners.add(l);
      return { dispose: () => rec().saveListeners.delete(l) };
    },
  }),
});`;

const uri = (p: string) => ({ path: p, toString: () => `file://${p}` });
const settled = () => new Promise((r) => setImmediate(r));

describe('dashboards: progress, save-before-send and names shared by the flows', () => {
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;
  let dir: string;
  let prompts: typeof PromptsModule;
  const rec: Recorder = { progress: [], saveListeners: new Set() };

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-prompts-test-'));
    const file = path.join(dir, 'vscode.js');
    fs.writeFileSync(file, STUB_SOURCE);
    (globalThis as { __dpPrompts?: Recorder }).__dpPrompts = rec;
    mod._resolveFilename = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? file : resolve.call(this, request, ...rest);
    };
    forgetVscodeDependents();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    prompts = require('../../src/dashboards/dashboardPrompts') as typeof PromptsModule;
  });

  after(() => {
    mod._resolveFilename = resolve;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => {
    rec.progress.length = 0;
    rec.saveListeners.clear();
  });

  it('runs the call under a cancellable notification; Cancel aborts its signal, then the listener goes', async () => {
    let seen: AbortSignal | undefined;
    const call = prompts.withCancelProgress('Publishing the dashboard…', (signal) => {
      seen = signal;
      return new Promise<string>((ok) => signal.addEventListener('abort', () => ok('aborted')));
    });
    assert.equal(rec.progress.length, 1);
    const shown = rec.progress[0]!;
    assert.deepEqual(shown.options, { location: 15, title: 'Publishing the dashboard…', cancellable: true });
    assert.equal(seen?.aborted, false, 'nothing is aborted before Cancel');
    assert.equal(shown.listening(), 1);
    shown.cancel();
    assert.equal(await call, 'aborted');
    assert.equal(seen?.aborted, true);
    assert.equal(shown.listening(), 0, 'the cancellation listener is released when the call ends');
  });

  it('passes a failed call’s error on and releases the listener', async () => {
    const failure = new Error('outcome unknown');
    await assert.rejects(
      Promise.resolve(
        prompts.withCancelProgress('Saving the dashboard draft…', () => Promise.reject(failure)),
      ),
      (e) => e === failure,
    );
    assert.equal(rec.progress[0]!.listening(), 0);
  });

  it('waits for this document’s own save when VS Code drops ours, and not for another document’s', async () => {
    const mine = uri('/ws/sales.dashboard.json');
    const doc = {
      uri: mine,
      isDirty: true,
      // VS Code's auto-save is running: ours is dropped and the document stays dirty until it lands.
      save: async () => false,
    };
    let done = false;
    const saving = prompts
      .saveBeforeSending(doc as never, 'Dashboard not published', 'publish again')
      .then(() => (done = true));
    await settled();
    assert.equal(rec.saveListeners.size, 1, 'listening for the save before ours is answered');
    for (const l of rec.saveListeners) l({ uri: uri('/ws/other.dashboard.json') });
    await settled();
    assert.equal(done, false, 'another document’s save does not end the wait');
    doc.isDirty = false;
    for (const l of [...rec.saveListeners]) l({ uri: mine });
    await saving;
    assert.equal(done, true);
    assert.equal(rec.saveListeners.size, 0, 'the save listener is released');
  });

  it('refuses a document still dirty after its save, naming the file and what to do', async () => {
    const doc = { uri: uri('/ws/q3/sales.dashboard.json'), isDirty: true, save: async () => false };
    const saving = prompts.saveBeforeSending(doc as never, 'Draft not saved', 'save the draft again');
    await settled();
    for (const l of [...rec.saveListeners]) l({ uri: doc.uri });
    await assert.rejects(saving, {
      message:
        'Draft not saved: sales.dashboard.json has changes that could not be saved. Save the file (Ctrl+S), then save the draft again.',
    });
  });

  it('names a file by the last part of its path and a deployment by its name, else its id', () => {
    assert.equal(prompts.fileName(uri('/ws/q3/sales.dashboard.json') as never), 'sales.dashboard.json');
    assert.equal(prompts.fileName(uri('sales.dashboard.json') as never), 'sales.dashboard.json');
    assert.equal(prompts.deploymentLabel(7, 'Production EU'), '"Production EU"');
    assert.equal(prompts.deploymentLabel(7, undefined), 'deployment 7');
    assert.equal(prompts.deploymentLabel(7, ''), 'deployment 7', 'an empty name is no name');
  });
});
