// The API bundle loads in the background after activation, never on its path.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { preloadModule } from '../../src/lazyModule';

const apiFile = path.resolve(__dirname, '..', '..', 'src', 'api', 'index.js');

describe('preloadModule', () => {
  it('loads the module only when the scheduled time comes, not during the call', () => {
    delete require.cache[apiFile];
    const scheduled: { run: () => void; ms: number }[] = [];
    preloadModule('src/api/index.ts', 1500, (run, ms) => {
      scheduled.push({ run, ms });
      return undefined;
    });
    assert.equal(scheduled.length, 1);
    assert.equal(scheduled[0]!.ms, 1500);
    assert.equal(require.cache[apiFile], undefined, 'nothing loaded on the caller’s path');
    scheduled[0]!.run();
    assert.ok(require.cache[apiFile], 'loaded in the background');
  });

  it('loads nothing once cancelled (the extension deactivated first)', () => {
    delete require.cache[apiFile];
    let run: (() => void) | undefined;
    const cancel = preloadModule('src/api/index.ts', 10, (r) => ((run = r), undefined));
    cancel();
    run!();
    assert.equal(require.cache[apiFile], undefined);
  });

  it('runs the warm-up on the loaded module, in the background, and swallows its failure', async () => {
    let run: (() => void) | undefined;
    const warmed: unknown[] = [];
    preloadModule<{ warmUp: unknown }>(
      'src/api/index.ts',
      10,
      (r) => ((run = r), undefined),
      (api) => {
        warmed.push(api.warmUp);
      },
    );
    assert.equal(warmed.length, 0, 'nothing warmed on the caller’s path');
    run!();
    assert.equal(warmed.length, 1);
    assert.equal(typeof warmed[0], 'function', 'the warm-up gets the module’s exports');
    let failing: (() => void) | undefined;
    preloadModule(
      'src/api/index.ts',
      10,
      (r) => ((failing = r), undefined),
      () => Promise.reject(new Error('x')),
    );
    assert.doesNotThrow(() => failing!());
    await new Promise((r) => setImmediate(r));
  });

  it('leaves a load failure to the first real use', () => {
    let run: (() => void) | undefined;
    preloadModule('src/does/not/exist.ts', 10, (r) => ((run = r), undefined));
    assert.doesNotThrow(() => run!());
  });
});
