// Where a model folder goes: which folder changes make VS Code restart the extensions (the window
// reloads), and the workspace file that opens the model in a new window instead.
import * as assert from 'node:assert/strict';
import { folderChangeReloads, workspaceFileName, workspaceFileText } from '../../../src/model/windowPlan';

describe('model: where a model folder goes', () => {
  it('knows which folder changes reload the window', () => {
    // A single-folder (or empty) window: any change makes a multi-root workspace or changes the first folder.
    assert.equal(folderChangeReloads({ workspaceFile: false }, 1), true);
    assert.equal(folderChangeReloads({ workspaceFile: false }, 0), true);
    // A workspace: only the first folder matters.
    assert.equal(folderChangeReloads({ workspaceFile: true }, 0), true);
    assert.equal(folderChangeReloads({ workspaceFile: true }, 1), false);
    assert.equal(folderChangeReloads({ workspaceFile: true }, 3), false);
  });

  it('writes local folders by path, the model by URI, and the active profile', () => {
    const text = workspaceFileText(
      [
        { uri: 'file:///home/ann/shop', fsPath: '/home/ann/shop', name: 'shop' },
        { uri: 'dpmodel://1/ann%2Forders', name: 'Sandbox Analytics · ann/orders' },
      ],
      'Sandbox',
    );
    assert.deepEqual(JSON.parse(text), {
      folders: [
        { path: '/home/ann/shop', name: 'shop' },
        { uri: 'dpmodel://1/ann%2Forders', name: 'Sandbox Analytics · ann/orders' },
      ],
      settings: { 'dashboardPlatform.activeProfile': 'Sandbox' },
    });
    assert.deepEqual(JSON.parse(workspaceFileText([])).settings, {});
  });

  it('names the workspace file for the model, apart for branches that read alike', () => {
    const a = workspaceFileName('Sandbox Analytics', 1, 'ann/orders');
    const b = workspaceFileName('Sandbox Analytics', 1, 'ann-orders');
    assert.match(a, /^Sandbox-Analytics · ann-orders-[0-9a-f]{8}\.code-workspace$/);
    assert.notEqual(a, b);
    assert.notEqual(a, workspaceFileName('Sandbox Analytics', 2, 'ann/orders'));
    assert.doesNotMatch(workspaceFileName('../../x', 1, '../y'), /\.\.\/|\//);
  });
});
