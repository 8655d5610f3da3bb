// A deployment's whole life in a real VS Code against the sandbox, driven as a user would: Create
// Deployment from the Deployments list (name, region, empty starter project; the first build
// watched), its row saying the setup step, Continue Setup to ready, its settings read-only, Edit
// Deployment (rename, read back from the server), Create Deployment from a GitHub repository picked
// by name (account, repository, branch), and Delete Deployment (a modal naming it; the tree
// refreshes).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ScriptedPrompter } from '../../src/ui/prompter';
import { screenshot, waitFor } from './harness';
import { explorerSuite } from './sandboxSuite';

/* eslint-disable @typescript-eslint/no-explicit-any -- the nodes are the extension's own objects */
type Node = any;

const C = 'dashboardPlatform.explorer.';
const run = (id: string, ...args: unknown[]): Promise<any> =>
  Promise.resolve(vscode.commands.executeCommand(`${C}${id}`, ...args));

let ex: any;
let base: string;
let admin: string;

async function platform(p: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/api${p}`, { headers: { authorization: `Bearer ${admin}` } });
  return { status: res.status, body: await res.json() };
}
const children = (node?: Node): Promise<Node[]> => ex.provider.getChildren(node);

/** The Deployments list's rows, fetched again. */
async function rows(): Promise<Node[]> {
  ex.provider.refresh(ex.provider.roots.deployments);
  return (await children(ex.provider.roots.deployments)).filter((n: Node) => n.kind === 'deployment');
}
const named = async (name: string) => (await rows()).find((n) => n.toTreeItem().label === name);

describe('deployment lifecycle: create, set up, edit, delete', function () {
  this.timeout(180_000);

  explorerSuite((s) => ({ ex, base, admin } = s), { refresh: true });

  it('creates a deployment with an empty starter project from the Deployments list, and its first build succeeds', async () => {
    const p = new ScriptedPrompter([
      '  ',
      'Revenue Lab',
      'AWS US East (N. Virginia)',
      'Empty starter project',
    ]);
    ex.usePrompter(p);
    const id: number = await run('createDeployment', ex.provider.roots.deployments);
    assert.ok(Number.isInteger(id) && id > 3, `created ${id}`);
    // The name box refused the blank name in words, and the steps are counted.
    assert.deepEqual(p.refusals, ['Type a name for the deployment.']);
    assert.deepEqual(p.asked, [
      'Create Deployment (Step 1 of 3)',
      'Create Deployment: Region (Step 2 of 3)',
      'Create Deployment: Project (Step 3 of 3)',
    ]);
    // The server has it, built from its starter project.
    const build = await platform(`/v1/deployments/${id}/build-status`);
    assert.equal(build.body.status, 'success');
    const row = await waitFor('the new row', () => named('Revenue Lab'));
    assert.equal(row.toTreeItem().description, `#${id} · setup: databases`);
    await screenshot('deployment-created');
  });

  it('Continue Setup moves the new deployment to ready, and its row says so', async () => {
    const row = await named('Revenue Lab');
    const p = new ScriptedPrompter(['Ready: setup finished']);
    ex.usePrompter(p);
    const step = await run('continueSetup', row);
    assert.equal(step, 'ready');
    assert.match(p.asked[0]!, /^Continue Setup of "Revenue Lab"/);
    const again = await waitFor('the row without a setup step', async () => {
      const r = await named('Revenue Lab');
      return r && r.toTreeItem().description === `#${r.deploymentId}` ? r : undefined;
    });
    assert.ok(again);
  });

  it('shows the settings read-only and renames it through Edit Deployment, reading the name back', async () => {
    const row = await named('Revenue Lab');
    const doc: vscode.TextDocument = await run('showDeploymentSettings', row);
    const shown = JSON.parse(doc.getText());
    assert.equal(shown.name, 'Revenue Lab');
    assert.equal(shown.region, 'aws-us-east-1');
    assert.equal(shown.deployBranchName, 'main');
    await screenshot('deployment-settings');
    const p = new ScriptedPrompter(['Name', '', 'Revenue Lab EU']);
    ex.usePrompter(p);
    const saved = await run('editDeployment', row);
    assert.equal(saved.name, 'Revenue Lab EU');
    assert.deepEqual(p.refusals, ['Type a name for the deployment.']);
    assert.equal((await platform(`/v1/deployments/${row.deploymentId}`)).body.name, 'Revenue Lab EU');
    assert.ok(await waitFor('the renamed row', () => named('Revenue Lab EU')));
    // The settings document still open shows the saved name, not the one it was opened with.
    assert.ok(
      await waitFor('the settings document to show the new name', () =>
        JSON.parse(doc.getText()).name === 'Revenue Lab EU' ? true : undefined,
      ),
    );
  });

  it('creates a deployment from a GitHub repository picked by name: account, repository, branch', async () => {
    const p = new ScriptedPrompter([
      'Orders from Git',
      'AWS US East (N. Virginia)',
      'GitHub repository',
      'acme-analytics',
      'cube-models',
      'develop',
    ]);
    ex.usePrompter(p);
    const id: number = await run('createDeployment');
    // The account, repository and branch pickers offered names, the default branch first.
    assert.deepEqual(p.offered.get('Connect GitHub: Account'), ['acme-analytics', 'ann-dev']);
    assert.deepEqual(p.offered.get('Connect GitHub: Repository'), [
      'cube-models',
      'warehouse-dbt',
      'website',
    ]);
    assert.equal(p.offered.get('Connect GitHub: Deploy Branch')![0], 'main');
    const settings = (await platform(`/v1/deployments/${id}/settings`)).body;
    assert.equal(settings.deployBranchName, 'develop');
    assert.equal(settings.creationMethod, 'github');
    assert.equal(settings.creationStep, 'databases');
    assert.equal((await platform(`/v1/deployments/${id}/build-status`)).body.branchName, 'develop');
  });

  it('deletes a deployment after a modal naming it; declining keeps it; the list refreshes', async () => {
    const row = await named('Revenue Lab EU');
    const id = row.deploymentId;
    const declined = new ScriptedPrompter([], false);
    ex.usePrompter(declined);
    await run('deleteDeployment', row);
    assert.deepEqual(declined.asked, ['Delete the deployment "Revenue Lab EU"?']);
    assert.equal((await platform(`/v1/deployments/${id}`)).status, 200, 'kept when declined');

    const p = new ScriptedPrompter([]);
    ex.usePrompter(p);
    const outcome = await run('deleteDeployment', row);
    assert.equal(outcome, 'deleted');
    assert.equal((await platform(`/v1/deployments/${id}`)).status, 404);
    await waitFor('the row gone', async () => ((await named('Revenue Lab EU')) ? undefined : true));
  });
});
