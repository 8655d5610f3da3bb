// Publishing saves the file first, and only a save known to have landed counts (VS Code for the
// Web answers `false` to a save that meets its own auto-save, then writes the file itself).
import * as assert from 'node:assert/strict';
import { saveFirst, type NextSave } from '../../src/dashboards/saveFirst';

class Doc {
  saves = 0;
  constructor(
    public isDirty: boolean,
    private readonly answer: () => boolean,
  ) {}
  save(): Promise<boolean> {
    this.saves++;
    return Promise.resolve(this.answer());
  }
}

/** A next-save event the test fires; records whether it was listened to and disposed. */
function events() {
  let fire: () => void = () => undefined;
  const log = { listening: 0, disposed: 0, waitedMs: 0 };
  const nextSave: NextSave = (ms) => {
    log.listening++;
    log.waitedMs = ms;
    return {
      saved: new Promise<void>((resolve) => (fire = resolve)),
      dispose: () => log.disposed++,
    };
  };
  return { nextSave, log, fire: () => fire() };
}

describe('publish saves the file first', () => {
  it('saves nothing for a clean document', async () => {
    const doc = new Doc(false, () => true);
    const e = events();
    await saveFirst(doc, e.nextSave, 'a.dashboard.json');
    assert.equal(doc.saves, 0);
    assert.equal(e.log.listening, 0);
  });

  it('goes on after a save that succeeded, and stops listening', async () => {
    const doc = new Doc(true, () => {
      doc.isDirty = false;
      return true;
    });
    const e = events();
    await saveFirst(doc, e.nextSave, 'a.dashboard.json');
    assert.equal(doc.saves, 1);
    assert.equal(e.log.disposed, 1);
  });

  it('waits for the auto-save that refused ours, then goes on once it has written the file', async () => {
    const doc = new Doc(true, () => false);
    const e = events();
    let settled = false;
    const done = saveFirst(doc, e.nextSave, 'a.dashboard.json').then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(settled, false, 'it waits for the other save');
    assert.ok(e.log.waitedMs > 0, 'for a bounded time');
    doc.isDirty = false;
    e.fire();
    await done;
    assert.equal(e.log.disposed, 1);
  });

  it('refuses to publish a file that is still unsaved after the wait, naming it', async () => {
    const doc = new Doc(true, () => false);
    const e = events();
    const done = saveFirst(doc, e.nextSave, 'sales.dashboard.json');
    await new Promise((r) => setImmediate(r));
    e.fire(); // the wait ends (a save of something else, or the time is up) with the file still dirty
    await assert.rejects(done, {
      message:
        'Dashboard not published: sales.dashboard.json has changes that could not be saved. Save the file (Ctrl+S), then publish again.',
    });
    assert.equal(e.log.disposed, 1);
  });

  it('a report push words its refusal as a push', async () => {
    const doc = new Doc(true, () => false);
    const e = events();
    const done = saveFirst(doc, e.nextSave, 'r.report.json', 'Report not pushed', 'push again');
    await new Promise((r) => setImmediate(r));
    e.fire();
    await assert.rejects(done, {
      message:
        'Report not pushed: r.report.json has changes that could not be saved. Save the file (Ctrl+S), then push again.',
    });
  });

  it('goes on when the save answered false but the file is no longer dirty', async () => {
    const doc = new Doc(true, () => {
      doc.isDirty = false;
      return false;
    });
    const e = events();
    await saveFirst(doc, e.nextSave, 'a.dashboard.json');
    assert.equal(doc.saves, 1);
  });
});
