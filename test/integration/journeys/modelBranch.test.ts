// Journey: an analytics engineer changes the data model on a branch: creates a dev branch, adds a
// measure to a cube file, validates, queries the branch from a notebook cell, and then the window
// reloads (as it does when a mounted model turns a single-folder window into a workspace). After
// the reload the branch and the edit must still be there (issue 25: the sandbox restarted with
// fresh data and the branch was gone, 404), the notebook must still query it, and the merge to the
// default branch must ship the measure.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ResultPayload } from '../../../src/shared/notebookOutput';
import { click, getApi, pageText, screenshot, waitFor, revertAndCloseAll } from '../harness';
import { createBranch, shipMeasure, type MountLike } from '../modelBranches';
import { errorOf, openOnBranch, resultOf } from '../notebooks';
import { journey, keep, phase, reloadWindow } from './journey';

const ORDERS = 'model/cubes/orders.yml';
const MEASURE = 'journey_amount';

/** The branch as Create Branch mounted it (until the reload). */
let created: MountLike | undefined;

/** The branch this journey works on: the same name on both sides of the reload. */
const branchName = () => keep('branch', () => `journey-${Date.now().toString(36)}`);

/** Opens the model on a branch without adding a workspace folder (that would restart the host). */
async function openModel(branch: string): Promise<MountLike> {
  const mount = (await vscode.commands.executeCommand('dashboardPlatform.model.open', {
    deploymentId: 1,
    branch,
    addFolder: false,
  })) as MountLike | undefined;
  if (!mount) {
    // The command reported the failure to the user: say what they saw.
    const shown = await pageText('.notifications-toasts .notification-list-item-message');
    assert.fail(`Open Data Model on "${branch}" failed${shown ? `; the user saw: ${shown}` : ''}`);
  }
  return mount;
}

async function readText(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

/** Runs one JSON query cell in a notebook on the branch and answers what the cell shows. */
async function queryOnBranch(branch: string, shot: string): Promise<ResultPayload> {
  const nb = await openOnBranch({ measures: [`orders.${MEASURE}`], dimensions: ['orders.status'] }, branch);
  await waitFor(
    'the notebook to name the deployment and the branch',
    () => nb.metadata.devBranch === branch && nb.metadata.deploymentId === 1,
  );
  await vscode.commands.executeCommand('notebook.cell.execute', {
    ranges: [{ start: 0, end: 1 }],
    document: nb.uri,
  });
  await waitFor('the cell to finish', () => nb.cellAt(0).executionSummary?.timing?.endTime, 90_000);
  const cell = nb.cellAt(0);
  assert.equal(cell.executionSummary?.success, true, JSON.stringify(errorOf(cell)));
  // The result table is drawn by the notebook renderer after the cell ends.
  await screenshot(shot, 3000);
  const result = resultOf(cell) as ResultPayload;
  // Untitled notebooks are dirty: revert so closing asks nothing.
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  return result;
}

function assertMeasureRows(result: ResultPayload): void {
  assert.ok(
    result.columns.some((c) => c.name === `orders.${MEASURE}`),
    `columns: ${result.columns.map((c) => c.name).join(', ')}`,
  );
  assert.ok(result.rows.length > 1, 'one row per order status');
}

journey('Journey: model branch, edit, validate, query, window reload, merge', [
  phase('create a dev branch from the default branch', () => {
    before(async () => {
      const api = await getApi();
      await api.services.profiles.switchTo('Sandbox');
      await api.sandbox();
    });

    it('opens the model read-only on main and creates a branch in dev mode', async () => {
      const api = await getApi();
      const branch = branchName();
      const main = await openModel('main');
      const stat = await vscode.workspace.fs.stat(main.uri(ORDERS));
      assert.equal(stat.permissions, vscode.FilePermission.Readonly, 'the default branch is read-only');
      const mount = await createBranch(main.root, branch);
      assert.equal(mount.branch, branch);
      created = mount;
      assert.equal(api.services.modelBranch.current?.branch, branch, 'the new branch is the dev target');
      assert.ok(api.model.status.text.includes(branch), `status item: ${api.model.status.text}`);
    });
  }),

  phase('add a measure to a cube file and validate', () => {
    it('saves the edit through the model file system; validation finds no error', async () => {
      const mount = created;
      assert.ok(mount, 'the branch Create Branch mounted');
      const uri = mount.uri(ORDERS);
      const original = await readText(uri);
      const edited = original.replace(
        /(\n([ \t]*)measures:\n)/,
        (_m, head: string, ind: string) =>
          `${head}${ind}  - name: ${MEASURE}\n${ind}    sql: amount\n${ind}    type: sum\n`,
      );
      assert.notEqual(edited, original, 'the measures list was found');
      // Through the dpmodel: file system (a save from the editor goes the same way; see README.md).
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(edited));
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      assert.match(await readText(uri), new RegExp(`name: ${MEASURE}`), 'the branch holds the edit');
      const validation = (await vscode.commands.executeCommand(
        'dashboardPlatform.model.validate',
        mount.root,
      )) as { valid: boolean; errors: unknown[] } | undefined;
      assert.ok(validation, 'the validate command answered');
      assert.equal(validation.valid, true, JSON.stringify(validation.errors));
      assert.deepEqual(vscode.languages.getDiagnostics(uri), [], 'no problem in the Problems panel');
      await screenshot('journeys/model-branch-edit', 800);
    });
  }),

  phase('query the branch from a notebook cell', () => {
    it('a notebook on the dev branch answers with the new measure', async () => {
      assertMeasureRows(await queryOnBranch(branchName(), 'journeys/model-branch-query'));
      await revertAndCloseAll();
    });
  }),

  reloadWindow(),

  phase('the branch and the edit are still there', () => {
    before(async () => {
      const api = await getApi();
      await api.services.profiles.switchTo('Sandbox');
      await api.sandbox();
    });

    it('the branch reopens with the edited file (no 404)', async () => {
      const branch = branchName();
      const mount = await openModel(branch);
      assert.equal(mount.branch, branch);
      assert.match(await readText(mount.uri(ORDERS)), new RegExp(`name: ${MEASURE}`));
      const validation = (await vscode.commands.executeCommand(
        'dashboardPlatform.model.validate',
        mount.root,
      )) as { valid: boolean } | undefined;
      assert.equal(validation?.valid, true);
    });

    it('the notebook still queries the branch', async () => {
      assertMeasureRows(await queryOnBranch(branchName(), 'journeys/model-branch-after-reload'));
    });
  }),

  phase('merge the branch into the default branch', () => {
    it('commits and merges; the default branch serves the measure', async () => {
      const api = await getApi();
      const mount = await openModel(branchName());
      await shipMeasure(api, mount.root, `orders.${MEASURE}`, {
        commit: `Add orders.${MEASURE}`,
        merge: `Ship orders.${MEASURE}`,
      });
    });
  }),

  phase('start afresh with Reset Sandbox Data', () => {
    after(async () => {
      // Later runs' chats and notebooks start with no dev-branch target.
      const main = await openModel('main').catch(() => undefined);
      if (main)
        await vscode.commands.executeCommand('dashboardPlatform.model.switchBranch', main.root, 'main');
      await revertAndCloseAll();
    });

    it('asks in a modal, then the sandbox is back to its sample data', async () => {
      const api = await getApi();
      const done = vscode.commands.executeCommand('dashboardPlatform.sandbox.reset');
      const message = await waitFor('the confirmation dialog', async () => {
        const t = await pageText('.monaco-dialog-box .dialog-message-text');
        return t || undefined;
      });
      assert.match(message, /Reset the sandbox's data\?/);
      assert.match(
        (await pageText('.monaco-dialog-box .dialog-message-detail')) ?? '',
        /data-model branches and edits, notifications, publishes/,
      );
      await screenshot('journeys/model-branch-reset-confirm', 500);
      await click({ selector: '.monaco-dialog-box a.monaco-button:has-text("Reset Sandbox Data")' });
      assert.equal(await done, true, 'the command reset the data');
      const data = await api.services.clients.data(1);
      const meta = await data.meta({ refresh: true });
      const orders = meta.cubes.find((c) => c.name === 'orders');
      assert.ok(orders, 'the sample model is served');
      assert.ok(
        !orders.measures.some((m) => m.name === `orders.${MEASURE}`),
        'the merged measure is gone with the reset',
      );
      const build = await api.model.mounts.build();
      const branches = await build.allBranches(1);
      assert.deepEqual(
        branches.map((b) => b.name).sort(),
        ['main', 'staging'],
        'the journey branch is gone: only the sample branches',
      );
    });
  }),
]);
