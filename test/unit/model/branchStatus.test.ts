// The status bar item naming the data-model branch in view (src/model/branchStatus.ts) in plain
// Node with the model stand-in: the branch of the model file in the active editor (a file: URI
// that looks like one is not), and a query notebook's deployment named from its mount, else
// asked of the server once, then shown.
import assert from 'node:assert/strict';
import type * as BranchStatusModule from '../../../src/model/branchStatus';
import type * as MountsModule from '../../../src/model/mounts';
import { installModelStandIn, ScriptedUi, useUi } from './modelStandIn';

describe('model: the branch in the status bar', () => {
  let restore: () => void;
  let Mounts: typeof MountsModule.Mounts;
  let Mount: typeof MountsModule.Mount;
  let BranchStatus: typeof BranchStatusModule.BranchStatus;

  before(() => {
    restore = installModelStandIn();
    /* eslint-disable @typescript-eslint/no-require-imports */
    ({ Mounts, Mount } = require('../../../src/model/mounts') as typeof MountsModule);
    ({ BranchStatus } = require('../../../src/model/branchStatus') as typeof BranchStatusModule);
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
  after(() => restore());

  function setup(ui = new ScriptedUi()) {
    useUi(ui);
    const asked: string[] = [];
    const services = {
      clients: {
        platform: async () => ({
          getDeployment: async (id: number) => (asked.push(`getDeployment ${id}`), { id, name: `Ops ${id}` }),
        }),
        build: async () => ({
          allBranches: async (id: number) => (
            asked.push(`allBranches ${id}`),
            [{ name: 'trunk', parentBranch: null }]
          ),
        }),
      },
      profiles: { active: () => ({ profile: { name: 'Sandbox' } }) },
      log: { info: () => undefined, warn: () => undefined },
    };
    const mounts = new Mounts(services as never);
    mounts.add(new Mount(1, 'Sales', 'dev-ann', 'main'));
    mounts.add(new Mount(1, 'Sales', 'main', 'main'));
    return { ui, asked, mounts, services };
  }
  const uri = (scheme: string, authority: string, path: string) => ({ scheme, authority, path });

  it('names the branch of the model file in the active editor; other editors leave the last branch mounted', () => {
    const cases: [string, unknown, string][] = [
      ['no editor', undefined, '$(lock) main'],
      [
        'a model file of dev-ann',
        uri('dpmodel', '1', '/dev-ann/model/cubes/orders.yml'),
        '$(git-branch) dev-ann · dev mode',
      ],
      ['a file: URI shaped like one', uri('file', '1', '/dev-ann/model/cubes/orders.yml'), '$(lock) main'],
    ];
    for (const [why, editor, text] of cases) {
      const s = setup();
      s.ui.activeEditorUri = editor;
      const status = new BranchStatus(s.services as never, s.mounts);
      const item = s.ui.statusItems[0]!;
      assert.equal(item.text, text, why);
      assert.equal(item.visible, true, why);
      assert.equal(status.current()?.branch, text.endsWith('main') ? 'main' : 'dev-ann', why);
    }
  });

  it('a query notebook names its deployment from the mount, else asks the server once and then shows it', async () => {
    const s = setup();
    const status = new BranchStatus(s.services as never, s.mounts);
    const nb = (deploymentId: number) => ({
      uri: uri('file', '', `/q${deploymentId}.dpnb`),
      notebookType: 'dashboard-platform-notebook',
      metadata: { deploymentId },
    });
    // Deployment 1 is mounted: its name and default branch at once, nothing asked.
    s.ui.activeNotebook = nb(1);
    s.ui.fire('notebookEditor', { notebook: s.ui.activeNotebook });
    assert.equal(status.text, '$(notebook) main');
    assert.equal(
      status.tooltip,
      'This notebook runs on Sales itself (its default branch "main"). Click to run it on a dev branch.',
    );
    assert.deepEqual(s.asked, []);
    // Deployment 2 is not: asked once however often the item is drawn, shown when known.
    s.ui.activeNotebook = nb(2);
    s.ui.fire('notebookEditor', { notebook: s.ui.activeNotebook });
    status.update();
    assert.equal(status.text, '$(notebook) default branch');
    assert.equal(
      status.tooltip,
      'This notebook runs on its deployment itself (its default branch). Click to run it on a dev branch.',
    );
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(s.asked.sort(), ['allBranches 2', 'getDeployment 2']);
    assert.equal(status.text, '$(notebook) trunk');
    assert.equal(
      status.tooltip,
      'This notebook runs on Ops 2 itself (its default branch "trunk"). Click to run it on a dev branch.',
    );
    status.update();
    assert.equal(s.asked.length, 2);
  });
});
