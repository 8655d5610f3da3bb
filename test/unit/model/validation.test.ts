// Validate as you save (src/model/validation.ts) in plain Node with the model stand-in: each
// compiler error becomes a diagnostic on the file it names, a base name found once in the branch
// included; a base name two files share, or none, goes on the model folder itself.
import assert from 'node:assert/strict';
import type * as MountsModule from '../../../src/model/mounts';
import type * as ValidationModule from '../../../src/model/validation';
import { installModelStandIn, ScriptedUi, useUi } from './modelStandIn';

describe('model: validation diagnostics', () => {
  let restore: () => void;
  let Mounts: typeof MountsModule.Mounts;
  let Mount: typeof MountsModule.Mount;
  let ModelValidation: typeof ValidationModule.ModelValidation;

  before(() => {
    restore = installModelStandIn();
    /* eslint-disable @typescript-eslint/no-require-imports */
    ({ Mounts, Mount } = require('../../../src/model/mounts') as typeof MountsModule);
    ({ ModelValidation } = require('../../../src/model/validation') as typeof ValidationModule);
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
  after(() => restore());

  it('puts each error on the file it names, by base name when only one file has it', async () => {
    useUi(new ScriptedUi());
    const errors = [
      { message: 'orders.yml:3:5 unknown type "sumx"', fileName: null },
      { message: 'a.yml:1:1 bad indentation', fileName: null },
      { message: 'Cube x is defined twice', fileName: null },
    ];
    const services = {
      clients: { build: async () => ({ validate: async () => ({ errors }) }) },
      log: { warn: () => undefined },
    };
    const mounts = new Mounts(services as never);
    const mount = mounts.add(new Mount(1, 'Sales', 'dev-ann', 'main'));
    for (const p of ['model/cubes/orders.yml', 'model/cubes/a.yml', 'model/views/a.yml'])
      mount.files.set(p, { content: new Uint8Array(), hash: undefined, mtime: 0 } as never);
    const v = new ModelValidation(services as never, mounts);
    await v.run(mount);
    const shown = (
      v.diagnostics as unknown as { entries(): [string, { message: string; range: object }[]][] }
    )
      .entries()
      .map(([uri, list]) => [uri, list.map((d) => d.message)]);
    assert.deepEqual(shown, [
      ['dpmodel://1/dev-ann/model/cubes/orders.yml', ['orders.yml:3:5 unknown type "sumx"']],
      ['dpmodel://1/dev-ann', ['a.yml:1:1 bad indentation', 'Cube x is defined twice']],
    ]);
    v.dispose();
  });
});
