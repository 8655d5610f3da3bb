import assert from 'node:assert/strict';
import { offerWalkthroughOnce, WALKTHROUGH_SHOWN_KEY } from '../../src/explorer/firstRun';

function memento(init: Record<string, unknown> = {}) {
  const m = new Map(Object.entries(init));
  return {
    keys: () => [...m.keys()],
    get: <T>(k: string) => m.get(k) as T,
    update: async (k: string, v: unknown) => void m.set(k, v),
  };
}

describe('walkthrough on first install', () => {
  it('opens once, then never again (reload, new window)', async () => {
    const state = memento();
    let opened = 0;
    const open = async () => void opened++;
    assert.equal(await offerWalkthroughOnce(state, open, false), true);
    assert.equal(await offerWalkthroughOnce(state, open, false), false);
    assert.equal(opened, 1);
    assert.equal(state.get(WALKTHROUGH_SHOWN_KEY), true);
  });

  it('not in a test run, and not after an earlier install showed it', async () => {
    let opened = 0;
    const open = async () => void opened++;
    assert.equal(await offerWalkthroughOnce(memento(), open, true), false);
    assert.equal(await offerWalkthroughOnce(memento({ [WALKTHROUGH_SHOWN_KEY]: true }), open, false), false);
    assert.equal(opened, 0);
  });

  it('a failure to open is not retried on every start', async () => {
    const state = memento();
    await assert.rejects(
      offerWalkthroughOnce(state, async () => Promise.reject(new Error('no workbench')), false),
    );
    assert.equal(state.get(WALKTHROUGH_SHOWN_KEY), true);
  });
});
