// Two writes of the model folder in plain Node with the model stand-in and a recording build
// client: Set Branch Staging Environment (the on/off pick, its words, the one request sent, what
// the user is told; dismissed: nothing sent) and Upload Data Model from Folder's deployment pick
// (dismissed: nothing read or sent; the deployment picked is the one whose branches are read).
import assert from 'node:assert/strict';
import type * as MountsModule from '../../../src/model/mounts';
import type * as StagingModule from '../../../src/model/stagingFlow';
import type * as UploadModule from '../../../src/model/uploadFlow';
import { installModelStandIn, ScriptedUi, useUi } from './modelStandIn';

describe('model: staging environment and the upload’s deployment pick', () => {
  let restore: () => void;
  let Mounts: typeof MountsModule.Mounts;
  let setStagingEnvironment: typeof StagingModule.setStagingEnvironment;
  let UploadFlow: typeof UploadModule.UploadFlow;

  before(() => {
    restore = installModelStandIn();
    /* eslint-disable @typescript-eslint/no-require-imports */
    ({ Mounts } = require('../../../src/model/mounts') as typeof MountsModule);
    ({ setStagingEnvironment } = require('../../../src/model/stagingFlow') as typeof StagingModule);
    ({ UploadFlow } = require('../../../src/model/uploadFlow') as typeof UploadModule);
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
  after(() => restore());

  function setup(ui: ScriptedUi, staging = false) {
    useUi(ui);
    const sent: string[] = [];
    const deployments = [
      { id: 1, name: 'Sales', deploymentUrl: 'https://sales.example/cubejs-api/v1' },
      { id: 2, name: 'Ops' },
    ];
    const services = {
      clients: {
        platform: async () => ({
          listDeployments: async () => ({ items: deployments }),
          getDeployment: async (id: number) => deployments.find((d) => d.id === id)!,
        }),
        build: async () => ({
          allBranches: async (id: number) => {
            sent.push(`allBranches ${id}`);
            if (id === 2) throw new Error('Ops has no build API here.');
            return [
              { name: 'main', parentBranch: null },
              { name: 'dev-ann', parentBranch: 'main', isStagingEnvironmentEnabled: staging },
            ];
          },
          setBranchStagingEnvironment: async (id: number, b: { branchName: string; enabled: boolean }) => {
            sent.push(`setBranchStagingEnvironment ${id} ${JSON.stringify(b)}`);
            return { name: b.branchName, isStagingEnvironmentEnabled: b.enabled };
          },
        }),
      },
      profiles: { active: () => ({ profile: { name: 'Sandbox', production: false } }) },
      log: { info: () => undefined, warn: () => undefined },
    };
    return { ui, sent, services, mounts: new Mounts(services as never) };
  }

  it('Set Branch Staging Environment: On or Off picked (the current one marked), one request, the outcome said', async () => {
    const cases: [boolean, string, boolean, string][] = [
      [
        false,
        'On: always running',
        true,
        'info: The staging environment of "dev-ann" (Sales) is on: it answers at https://sales.example/dev-mode/dev-ann/cubejs-api/v1.',
      ],
      [
        true,
        'Off',
        false,
        'info: The staging environment of "dev-ann" (Sales) is off: the branch runs only in dev mode.',
      ],
    ];
    for (const [now, answer, enabled, told] of cases) {
      const s = setup(new ScriptedUi([answer]), now);
      const r = await setStagingEnvironment(s.services as never, s.mounts, undefined as never, undefined, {
        deploymentId: 1,
        branch: 'dev-ann',
      });
      assert.deepEqual(s.ui.offered, [
        [
          `$(vm-running) On: always running${now ? ' — current' : ''}`,
          `$(vm-outline) Off${now ? '' : ' — current'}`,
        ],
      ]);
      assert.deepEqual(s.ui.pickOptions, [{ title: 'Staging environment of dev-ann' }]);
      assert.deepEqual(s.sent, [
        'allBranches 1',
        `setBranchStagingEnvironment 1 {"branchName":"dev-ann","enabled":${enabled}}`,
      ]);
      assert.equal(r?.isStagingEnvironmentEnabled, enabled);
      assert.deepEqual(s.ui.shown, [told]);
    }
    const no = setup(new ScriptedUi([undefined]));
    const r = await setStagingEnvironment(no.services as never, no.mounts, undefined as never, undefined, {
      deploymentId: 1,
      branch: 'dev-ann',
    });
    assert.equal(r, undefined);
    assert.deepEqual(no.sent, ['allBranches 1']);
    assert.deepEqual(no.ui.shown, []);
  });

  it('Upload Data Model from Folder: the deployment picked by name; dismissed, nothing is read or sent', async () => {
    const folder = { scheme: 'file', path: '/work/model' };
    const no = setup(new ScriptedUi([undefined]));
    assert.equal(
      await new UploadFlow(no.services as never, no.mounts).run({ folder: folder as never }),
      undefined,
    );
    assert.deepEqual(no.ui.offered, [['Sales', 'Ops']]);
    assert.deepEqual(no.ui.pickOptions, [{ title: 'Upload to which deployment?' }]);
    assert.deepEqual(no.sent, []);
    // The second deployment picked: its branches are read (and its failure passed on).
    const ops = setup(new ScriptedUi(['Ops']));
    await assert.rejects(new UploadFlow(ops.services as never, ops.mounts).run({ folder: folder as never }), {
      message: 'Ops has no build API here.',
    });
    assert.deepEqual(ops.sent, ['allBranches 2']);
  });
});
