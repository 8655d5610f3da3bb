// Rows the sandbox's seed does not show: attribute values of every type, a SCIM user with neither
// user name nor e-mail, roles without a description (their actions counted), and what a drag of
// nothing movable leaves in the transfer. Plain Node with the tree's stand-in for `vscode`.
import assert from 'node:assert/strict';
import type * as UsersNodesModule from '../../../src/explorer/admin/usersNodes';
import type * as AdminLooksModule from '../../../src/explorer/admin/adminLooks';
import type * as RenderModule from '../../../src/explorer/nodes/render';
import type * as DndModule from '../../../src/explorer/dragAndDrop';
import type * as TypesModule from '../../../src/explorer/nodes/types';
import { useTreeStandIn, type TreeStub } from './treeStandIn';

describe('explorer: rows of values the seed does not hold', () => {
  let standIn: { uninstall(): void };
  const stub: TreeStub = { settings: {} };
  let U: typeof UsersNodesModule;
  let A: typeof AdminLooksModule;
  let R: typeof RenderModule;
  let Dnd: typeof DndModule;
  let Types: typeof TypesModule;

  before(() => {
    standIn = useTreeStandIn(() => stub);
    /* eslint-disable @typescript-eslint/no-require-imports */
    U = require('../../../src/explorer/admin/usersNodes') as typeof UsersNodesModule;
    A = require('../../../src/explorer/admin/adminLooks') as typeof AdminLooksModule;
    R = require('../../../src/explorer/nodes/render') as typeof RenderModule;
    Dnd = require('../../../src/explorer/dragAndDrop') as typeof DndModule;
    Types = require('../../../src/explorer/nodes/types') as typeof TypesModule;
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
  after(() => standIn.uninstall());

  it('an attribute value reads on one line whatever its type; unset is nothing', () => {
    assert.equal(U.valueText(['EU', 'US', 3]), 'EU, US, 3');
    assert.equal(U.valueText({ region: 'EU' }), '{"region":"EU"}');
    assert.equal(U.valueText(42), '42');
    assert.equal(U.valueText(false), 'false');
    assert.equal(U.valueText(''), '');
    assert.equal(U.valueText(null), undefined);
    assert.equal(U.valueText(undefined), undefined);
  });

  it('a SCIM user is named by user name, else primary e-mail, else “User <id>”', () => {
    assert.equal(R.userLook({ id: 7 }).label, 'User 7');
    assert.equal(
      R.userLook({ id: 7, emails: [{ value: 'a@x.example' }, { value: 'b@x.example', primary: true }] })
        .label,
      'b@x.example',
    );
    assert.equal(R.userLook({ id: 7, userName: 'ann', emails: [{ value: 'a@x.example' }] }).label, 'ann');
  });

  it('a role without a description counts its distinct actions', () => {
    const policy = (...actions: string[]) => ({ actions });
    assert.equal(
      A.roleLook({ id: 1, name: 'R', policies: [policy('a', 'b'), policy('b', 'c')] }).description,
      '3 actions',
    );
    assert.equal(A.roleLook({ id: 1, name: 'R', policies: [policy('a')] }).description, '1 action');
    assert.equal(A.roleLook({ id: 1, name: 'R' }).description, '0 actions');
    assert.equal(A.roleLook({ id: 1, name: 'R', description: 'Reads only' }).description, 'Reads only');
  });

  it('drag and drop takes and accepts the tree’s own items only; a drag of nothing movable carries nothing', () => {
    const dnd = new Dnd.WorkspaceDragAndDrop();
    assert.deepEqual(dnd.dragMimeTypes, ['application/vnd.code.tree.dashboardplatform.explorer']);
    assert.deepEqual(dnd.dropMimeTypes, dnd.dragMimeTypes);
    class Row extends Types.ExplorerNode {
      readonly kind = 'report' as const;
      toTreeItem(): never {
        throw new Error('not rendered');
      }
    }
    const flat = new Row('deployments/deployment:1/reports/report:3', undefined);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const vscode = require('vscode') as { DataTransfer: new () => { get(m: string): unknown } };
    const data = new vscode.DataTransfer();
    dnd.handleDrag([flat], data as never);
    assert.equal(data.get(dnd.dragMimeTypes[0]!), undefined);
  });
});
