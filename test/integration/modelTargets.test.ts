// The data model's dev branch as a target, inside a real VS Code against the sandbox: a notebook
// on the branch checks members against the branch's /v1/meta (and again when the branch is
// rebuilt), the chat says it answers from the branch and sends it to the agent, and a branch's
// staging environment is turned on and off.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../src/chat/chatPanel';
import type { ExtensionApi } from '../../src/extension';
import { getApi, revertAndCloseAll, waitFor } from './harness';
import { createBranch, type MountLike } from './modelBranches';
import { openOnBranch } from './notebooks';

const ORDERS = 'model/cubes/orders.yml';
const BRANCH = `it-target-${Date.now().toString(36)}`;
const MEASURE = 'orders.target_total';

interface SandboxInfo {
  port: number;
  urls: { ai: { name: string; url: string }[] };
}

interface SandboxState {
  aiTurns: { chatId: string; activeBranchName?: string }[];
  dataQueries: { path: string; devBranch?: string }[];
}

describe('Data model: the dev branch as the target of notebooks and the chat', function () {
  this.timeout(240_000);
  let api: ExtensionApi;
  let sandbox: SandboxInfo;
  let branch: MountLike;

  /** Fails with `what` when `p` has not settled within `ms` (a webview that never answers). */
  const bounded = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
    Promise.race([
      p,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms),
      ),
    ]);
  /** Read afresh each time (not narrowed by an earlier assertion). */
  const target = () => api.services.modelBranch.current;
  const state = async (): Promise<SandboxState> =>
    (await (await fetch(`http://127.0.0.1:${sandbox.port}/__sandbox/state`)).json()) as SandboxState;

  before(async () => {
    api = await getApi();
    await api.services.profiles.switchTo('Sandbox');
    sandbox = (await api.sandbox()) as unknown as SandboxInfo;
    const main = (await vscode.commands.executeCommand('dashboardPlatform.model.open', {
      deploymentId: 1,
      branch: 'main',
      addFolder: false,
    })) as MountLike;
    assert.equal(target(), undefined, 'the read-only default branch is no target');
    branch = await createBranch(main.root, BRANCH);
    assert.equal(target()?.branch, BRANCH);
  });

  after(async () => {
    // Later suites' chats and notebooks start with no dev-branch target.
    await vscode.commands.executeCommand('dashboardPlatform.model.switchBranch', branch?.root, 'main');
    // The untitled notebook is behind the branch's text editor (not visible, still dirty):
    // reverted, so closing asks nothing.
    await revertAndCloseAll();
  });

  it("checks a notebook cell's members against the dev branch's meta, again after the branch is rebuilt", async () => {
    const nb = await openOnBranch({ measures: [MEASURE, 'orders.count'] }, BRANCH);
    const cell = nb.cellAt(0).document.uri;
    const unknown = () =>
      vscode.languages.getDiagnostics(cell).filter((d) => d.message.includes(`Unknown member "${MEASURE}"`));
    await waitFor(
      'the unknown measure flagged (the branch has no such measure yet)',
      () => unknown().length === 1,
      60_000,
    );

    // Add the measure on the branch: the save validates, the branch is rebuilt, the cell rechecks.
    const doc = await vscode.workspace.openTextDocument(branch.uri(ORDERS));
    const text = doc
      .getText()
      .replace(
        /(\n([ \t]*)measures:\n)/,
        (_m, head: string, ind: string) =>
          `${head}${ind}  - name: target_total\n${ind}    sql: amount\n${ind}    type: sum\n`,
      );
    assert.notEqual(text, doc.getText(), 'the measures list was found');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save());
    await waitFor(
      "the cell's diagnostics to clear with the branch's new meta",
      () => unknown().length === 0,
      60_000,
    );
    assert.equal(
      vscode.languages.getDiagnostics(cell).length,
      0,
      vscode.languages
        .getDiagnostics(cell)
        .map((d) => d.message)
        .join('; '),
    );

    // Back on the deployment itself: main's meta has no such measure.
    await vscode.commands.executeCommand('dashboardPlatform.model.notebookBranch', {
      branch: null,
      notebook: nb,
    });
    await waitFor('the notebook metadata to drop the branch', () => !nb.metadata.devBranch);
    await waitFor("the measure flagged again against main's meta", () => unknown().length === 1, 60_000);
  });

  it('the chat says it answers from the dev branch, sends it to the agent, and follows the model back to main', async () => {
    const agentUrl = sandbox.urls.ai[0]!.url;
    const panel = (await vscode.commands.executeCommand('dashboardPlatform.chat.open', {
      agentUrl,
    })) as ChatPanel;
    assert.match(panel.targetText, new RegExp(`branch "${BRANCH}" in dev mode`));
    const header = await waitFor(
      'the header to name the branch',
      async () => {
        const v = await bounded(panel.inspect(), 5000, 'the chat page');
        return v.header.includes(BRANCH) ? v.header : undefined;
      },
      30_000,
    );
    assert.match(header, /dev mode/);
    // The starter prompts read the branch's meta from its dev-mode Data API.
    await waitFor(
      "a meta request on the branch's dev-mode Data API",
      async () => (await state()).dataQueries.some((q) => q.devBranch === BRANCH && q.path.endsWith('/meta')),
      30_000,
    );

    await bounded(panel.ask('How many orders by status?'), 60_000, 'the turn on the branch');
    const turns = (await state()).aiTurns;
    assert.equal(turns.at(-1)?.activeBranchName, BRANCH, JSON.stringify(turns.slice(-2)));

    // The model goes back to its default branch: the chat answers from main again.
    await bounded(
      Promise.resolve(
        vscode.commands.executeCommand('dashboardPlatform.model.switchBranch', branch.root, 'main'),
      ),
      60_000,
      'switching the model to main',
    );
    await waitFor('the model to have no dev target', () => target() === undefined);
    await waitFor(
      'the header to say main',
      async () =>
        (await bounded(panel.inspect(), 5000, 'the chat page')).header.includes('Data: main branch')
          ? true
          : undefined,
      30_000,
    );
    await bounded(panel.ask('How many orders by status?'), 60_000, 'the turn on main');
    assert.equal((await state()).aiTurns.at(-1)?.activeBranchName, undefined);
    // Back on the branch for the staging test.
    const mainRoot = vscode.Uri.from({ scheme: 'dpmodel', authority: '1', path: '/main' });
    branch = (await bounded(
      Promise.resolve(
        vscode.commands.executeCommand('dashboardPlatform.model.switchBranch', mainRoot, BRANCH),
      ),
      60_000,
      'switching the model back to the branch',
    )) as MountLike;
    assert.equal(target()?.branch, BRANCH);
  });

  it("turns the branch's staging environment on and off (Set Branch Staging Environment…)", async () => {
    type BranchLike = { name: string; isStagingEnvironmentEnabled?: boolean | null };
    const on = (await vscode.commands.executeCommand(
      'dashboardPlatform.model.setStagingEnvironment',
      branch.root,
      { branch: BRANCH, enabled: true },
    )) as BranchLike;
    assert.equal(on.name, BRANCH);
    assert.equal(on.isStagingEnvironmentEnabled, true);
    const build = await api.services.clients.build();
    const listed = (await build.allBranches(1)).find((b) => b.name === BRANCH);
    assert.equal(listed?.isStagingEnvironmentEnabled, true);
    const off = (await vscode.commands.executeCommand(
      'dashboardPlatform.model.setStagingEnvironment',
      branch.root,
      { branch: BRANCH, enabled: false },
    )) as BranchLike;
    assert.equal(off.isStagingEnvironmentEnabled, false);
  });
});
