import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, getApi } from './harness';

describe('smoke', () => {
  it('runs inside a real VS Code with the extension installed and active', async () => {
    assert.match(vscode.version, /^1\.\d+\.\d+/);
    const api = await getApi();
    assert.ok(api.services, 'the extension exports its services');
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)?.isActive, true);
  });
});
