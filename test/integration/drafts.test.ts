// Drafts, reports as code and leaving a branch, inside a real VS Code against the sandbox:
// - Save Draft in the dashboard editor keeps the file as the workbook's draft (pulled back as it
//   was saved) and publishes nothing;
// - a report pulled to a *.report.json, edited (a field of the user's own added) and pushed after
//   the diff and its modal (updated); a new file pushed gets a minted publicId (created); a pull
//   over the file keeps the user's field;
// - Exit Dev Mode leaves the branch (the model shows the default branch, nothing targets the
//   branch) and Delete Model Branch deletes a branch picked by name after a modal naming it, and
//   refuses the default branch.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import { click, getApi, pageText, revertAndCloseAll, screenshot, waitFor, webviewClick } from './harness';

interface SandboxState {
  publishes: { workbookId: number }[];
  requestCounts: Record<string, number>;
}

/** Waits for a modal dialog saying `text`, screenshots it, and answers it with `button`. */
async function answerModal(text: RegExp, button: string, shot: string): Promise<void> {
  const said = await waitFor(
    `a dialog saying ${String(text)}`,
    async () => {
      const t = (await pageText('.monaco-dialog-box')) ?? '';
      return text.test(t) ? t : undefined;
    },
    30_000,
  );
  assert.match(said, text);
  await screenshot(shot, 500);
  await waitFor(`the "${button}" button is clicked`, () =>
    click({ selector: `.monaco-dialog-box .monaco-button:has-text("${button}")` }),
  );
}

async function toast(text: RegExp): Promise<string> {
  return waitFor(`a notification saying ${String(text)}`, async () => {
    const t = (await pageText('.notifications-toasts')) ?? '';
    return text.test(t) ? t : undefined;
  });
}

describe('drafts, reports as code and leaving a branch', function () {
  this.timeout(180_000);
  let api: ExtensionApi;
  let port: number;
  let deploymentId: number;
  const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
  const files: vscode.Uri[] = [];
  const state = async (): Promise<SandboxState> =>
    (await (await fetch(`http://127.0.0.1:${port}/__sandbox/state`)).json()) as SandboxState;
  const read = async (uri: vscode.Uri) => new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));

  before(async () => {
    api = await getApi();
    await api.services.profiles.switchTo('Sandbox');
    port = ((await api.sandbox()) as unknown as { port: number }).port;
    deploymentId = (await (await api.services.clients.platform()).listDeployments()).items[0]!.id;
  });

  after(async () => {
    await revertAndCloseAll();
    for (const f of files) await vscode.workspace.fs.delete(f).then(undefined, () => undefined);
  });

  it('Save Draft in the dashboard editor saves the draft, publishes nothing, and pulls back as saved', async () => {
    const client = await api.services.clients.platform();
    const workbook = (await client.listWorkbooks(deploymentId)).items[1]!;
    /** Edit Dashboard: the workbook's dashboard (its draft, when it has one) pulled to `name`. */
    const pull = async (name: string): Promise<vscode.Uri> => {
      const target = vscode.Uri.joinPath(folder(), name);
      files.push(target);
      await vscode.commands.executeCommand('dashboardPlatform.dashboards.edit', {
        deploymentId,
        workbookId: workbook.id,
        target,
      });
      return target;
    };
    const file = await pull('draft.dashboard.json');
    const publishedBefore = JSON.stringify(
      (await client.getWorkbook(deploymentId, workbook.id)).dashboardPublished,
    );
    const publishesBefore = (await state()).publishes.length;
    await revertAndCloseAll();
    await vscode.commands.executeCommand('dashboardPlatform.dashboards.openEditor', file);
    await waitFor('the dashboard editor page loads', () => api.dashboards.editor.isReady(file), 30_000);
    const title = `Draft ${Date.now()}`;
    await api.dashboards.editor.receive(file, { type: 'setTitle', title });
    await screenshot('drafts-editor-save-draft', 800);
    // The page's Save Draft button (the page's own message where no page can be clicked).
    if (!(await webviewClick('[data-key="save-draft"]')))
      await api.dashboards.editor.receive(file, { type: 'saveDraft' });
    assert.match(await toast(/saved on .*Nothing was published/), /Draft of draft\.dashboard\.json saved/);
    const after = await client.getWorkbook(deploymentId, workbook.id);
    assert.equal((after.dashboardDraft as { title?: string }).title, title, 'the server keeps the draft');
    assert.equal(
      JSON.stringify(after.dashboardPublished),
      publishedBefore,
      'the published dashboard is unchanged',
    );
    assert.equal((await state()).publishes.length, publishesBefore, 'nothing was published');
    const doc = await vscode.workspace.openTextDocument(file);
    assert.equal(doc.isDirty, false, 'the file was saved first');
    // Pulling the draft again (a reload of the file) shows what was saved.
    const again = await pull('draft-again.dashboard.json');
    const pulled = JSON.parse(await read(again)) as { title?: string; config: { widgets?: unknown[] } };
    const saved = JSON.parse(doc.getText()) as { config: { widgets?: unknown[] } };
    assert.equal(pulled.title, title);
    assert.deepEqual(pulled.config.widgets, saved.config.widgets, 'the widgets as saved');
  });

  it('pulls a report to a file, pushes an edit after the diff (updated), and keeps the user’s own field', async () => {
    await revertAndCloseAll();
    const client = await api.services.clients.platform();
    const report = (await client.listReports(deploymentId, { first: 5 })).items[0]!;
    const file = vscode.Uri.joinPath(folder(), 'as-code.report.json');
    files.push(file);
    const pulled = (await vscode.commands.executeCommand('dashboardPlatform.dashboards.pullReport', {
      deploymentId,
      reportId: report.id,
      target: file,
    })) as vscode.Uri;
    assert.equal(pulled.toString(), file.toString());
    const content = JSON.parse(await read(file)) as Record<string, unknown>;
    assert.equal(content.publicId, report.publicId);
    assert.equal(content.name, report.name);
    const sql = `SELECT status, MEASURE(count) FROM orders GROUP BY 1 -- as code ${Date.now()}`;
    // The user edits the open file (the SQL, and a field of their own) and saves.
    const doc = await vscode.workspace.openTextDocument(file);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(
      file,
      new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)),
      JSON.stringify({ ...content, sqlQuery: sql, reviewer: 'ann' }, null, 2),
    );
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save());
    await vscode.window.showTextDocument(doc);
    const pushing = vscode.commands.executeCommand('dashboardPlatform.dashboards.pushReport', { uri: file });
    await answerModal(
      /Overwrite the report .* with as-code\.report\.json\?[\s\S]*sqlQuery/,
      'Push Report',
      'drafts-push-diff',
    );
    const result = (await pushing) as { outcome: string; report: { id: number; sqlQuery?: string } };
    assert.equal(result.outcome, 'updated');
    assert.equal(result.report.id, report.id);
    assert.match(await toast(/updated on/), /Not sent \(not report fields\): reviewer/);
    assert.equal((await client.getReport(deploymentId, report.id)).sqlQuery, sql, 'the server has the edit');
    assert.equal(
      api.dashboards.reportFiles.lastCompare?.changes.join(','),
      'sqlQuery',
      'the diff named the change',
    );

    // Someone changes the report on the server; pulling over the file asks first, then keeps "reviewer".
    await client.updateReport(deploymentId, report.id, { title: 'Changed on the server' });
    const pulling = vscode.commands.executeCommand('dashboardPlatform.dashboards.pullReport', {
      deploymentId,
      reportId: report.id,
      target: file,
    });
    await answerModal(
      /Overwrite as-code\.report\.json with the report[\s\S]*reviewer/,
      'Overwrite File',
      'drafts-pull-diff',
    );
    await pulling;
    const after = JSON.parse(await read(file)) as Record<string, unknown>;
    assert.equal(after.title, 'Changed on the server');
    assert.equal(after.reviewer, 'ann', 'the user’s own field is kept');
  });

  it('a new report file gets a minted publicId and is created; pushing it again changes nothing', async () => {
    await revertAndCloseAll();
    const file = vscode.Uri.joinPath(folder(), 'new-one.report.json');
    files.push(file);
    const name = `As code ${Date.now()}`;
    await vscode.workspace.fs.writeFile(
      file,
      new TextEncoder().encode(JSON.stringify({ name, sqlQuery: 'SELECT 1', source: 'PLAYGROUND' }, null, 2)),
    );
    await vscode.window.showTextDocument(file);
    const pushing = vscode.commands.executeCommand('dashboardPlatform.dashboards.pushReport', {
      uri: file,
      deploymentId,
    });
    await answerModal(/has no publicId/, 'Add a publicId and Push', 'drafts-push-mint');
    const result = (await pushing) as { outcome: string; report: { id: number; publicId: string } };
    assert.equal(result.outcome, 'created');
    const content = JSON.parse(await read(file)) as { publicId: string };
    assert.match(content.publicId, /^[0-9A-Za-z]{12}$/);
    assert.equal(result.report.publicId, content.publicId);
    assert.match(await toast(/created on/), new RegExp(content.publicId));
    const again = (await vscode.commands.executeCommand('dashboardPlatform.dashboards.pushReport', {
      uri: file,
    })) as { outcome: string; report: { id: number } };
    assert.equal(again.outcome, 'unchanged');
    assert.equal(again.report.id, result.report.id);
  });

  it('Exit Dev Mode leaves the branch; Delete Model Branch deletes it after a modal and refuses the default branch', async () => {
    await revertAndCloseAll();
    const branch = `drafts-${Date.now().toString(36)}`;
    const main = (await vscode.commands.executeCommand('dashboardPlatform.model.open', {
      deploymentId: 1,
      branch: 'main',
      addFolder: false,
    })) as { root: vscode.Uri };
    const dev = (await vscode.commands.executeCommand(
      'dashboardPlatform.model.createBranch',
      main.root,
      branch,
    )) as {
      root: vscode.Uri;
      branch: string;
    };
    assert.equal(api.services.modelBranch.current?.branch, branch, 'in dev mode on the new branch');
    const devModeStops = async () =>
      Object.entries((await state()).requestCounts)
        .filter(([k]) => /^platform DELETE .*\/dev-mode$/.test(k))
        .reduce((n, [, v]) => n + v, 0);
    const stopsBefore = await devModeStops();
    const back = (await vscode.commands.executeCommand('dashboardPlatform.model.exitDevMode', dev.root)) as {
      branch: string;
    };
    assert.equal(back.branch, 'main', 'the model shows the default branch');
    assert.equal(api.services.modelBranch.current, undefined, 'nothing targets the branch any more');
    assert.match(api.model.status.text, /lock\) main/, `status item: ${api.model.status.text}`);
    assert.equal(
      api.model.mounts.all().some((m) => m.branch === branch),
      false,
      'the branch is not open any more',
    );
    assert.equal(await devModeStops(), stopsBefore + 1, 'dev mode was ended on the server, once');
    // (Its notification can be hidden behind the ones before it: the state above is what it says.)

    const build = await api.services.clients.build();
    assert.ok(
      (await build.allBranches(1)).some((b) => b.name === branch),
      'the branch stays on the server',
    );
    const deleting = vscode.commands.executeCommand('dashboardPlatform.model.deleteBranch', main.root, {
      branch,
    });
    await answerModal(new RegExp(`Delete the branch "${branch}"`), 'Delete Branch', 'drafts-delete-branch');
    assert.equal(await deleting, branch);
    assert.equal(
      (await build.allBranches(1)).some((b) => b.name === branch),
      false,
      'the branch is deleted',
    );

    const refused = await vscode.commands.executeCommand('dashboardPlatform.model.deleteBranch', main.root, {
      branch: 'main',
    });
    assert.equal(refused, undefined);
    await toast(/"main" is the default branch .* it cannot be deleted/);
    assert.ok((await build.allBranches(1)).some((b) => b.name === 'main'));
  });
});
