// The chat panel inside a real VS Code against the sandbox's AI agent. What the webview shows is
// read back from its DOM (the page answers `inspect`), and effects are checked in the sandbox.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../src/chat/chatPanel';
import type { ExtensionApi } from '../../src/extension';
import { getApi, screenshot, waitFor, revertAndCloseAll } from './harness';
import { chatView } from './chatView';

interface SandboxInfo {
  port: number;
  urls: { ai: { name: string; url: string }[] };
}

async function sandboxState(port: number): Promise<{ aiAborts: { chatId: string }[] }> {
  const res = await fetch(`http://127.0.0.1:${port}/__sandbox/state`);
  return (await res.json()) as { aiAborts: { chatId: string }[] };
}

describe('chat panel', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  let sandbox: SandboxInfo;

  before(async () => {
    api = await getApi();
    await api.services.profiles.switchTo('Sandbox');
    sandbox = (await api.sandbox()) as unknown as SandboxInfo;
    assert.ok(sandbox.urls.ai.length > 0, 'the sandbox serves AI agents');
  });

  afterEach(async () => {
    await revertAndCloseAll();
  });

  it('answers a question with streamed text, a SQL tool card with rows and a chart, the final answer and usage', async () => {
    const panel = (await vscode.commands.executeCommand('dashboardPlatform.chat.ask', {
      question: 'What was the revenue by month?',
      agentUrl: sandbox.urls.ai[0]!.url,
    })) as ChatPanel;
    assert.ok(panel, 'the ask command returns the panel');
    const v = await chatView(
      panel,
      (x) => x.finalAnswers.length > 0 && x.usage !== '',
      'the final answer and usage',
    );
    assert.deepEqual(v.userMessages, ['What was the revenue by month?']);
    const sqlCard = v.toolCards.find((c) => c.name === 'cubeSqlApi');
    assert.ok(sqlCard, `a cubeSqlApi tool card (cards: ${JSON.stringify(v.toolCards)})`);
    assert.ok(sqlCard.tableRows > 0, 'the SQL result table has rows');
    assert.match(sqlCard.rowCount ?? '', /^\d+ of \d+ rows$/);
    assert.ok(v.finalAnswers[0]!.length > 0);
    assert.match(v.usage, /tokens/);
    assert.equal(v.inputDisabled, false, 'the input is enabled again after the turn');
    assert.equal(v.scriptElements, 0, 'no script element in the transcript');
    await chatView(panel, (x) => x.toolCards.some((c) => c.hasChart), 'the chart to be drawn');
    await screenshot('chat');
  });

  it('restores a chat into a new panel from the server by chatId (reload and history)', async () => {
    const first = (await vscode.commands.executeCommand('dashboardPlatform.chat.open', {
      agentUrl: sandbox.urls.ai[0]!.url,
    })) as ChatPanel;
    await first.newChat();
    await first.ask('How many customers per country?');
    const chatId = first.chatId!;
    assert.ok(chatId);
    first.dispose();
    const panel = vscode.window.createWebviewPanel(
      'dashboardPlatform.chat',
      'Chat',
      vscode.ViewColumn.One,
      {},
    );
    await api.chat.deserialize(panel, { chatId, agentUrl: sandbox.urls.ai[0]!.url });
    const restored = api.chat.activePanel!;
    const v = await chatView(restored, (x) => x.finalAnswers.length > 0, 'the restored conversation');
    assert.deepEqual(v.userMessages, ['How many customers per country?']);
    assert.equal(restored.chatId, chatId);
  });

  it('Stop ends a streaming turn and the sandbox records the abort', async () => {
    const panel = (await vscode.commands.executeCommand('dashboardPlatform.chat.open', {
      agentUrl: sandbox.urls.ai[0]!.url,
    })) as ChatPanel;
    await panel.newChat();
    const turn = panel.ask('Show orders by status over time, in detail');
    await waitFor('the turn to stream', () => panel.currentSession?.streaming && panel.chatId, 20_000);
    const v1 = await chatView(panel, (x) => x.inputDisabled, 'the input to be disabled while streaming');
    assert.equal(v1.inputDisabled, true);
    await vscode.commands.executeCommand('dashboardPlatform.chat.stop');
    await turn;
    const chatId = panel.chatId!;
    const v2 = await chatView(panel, (x) => x.notices.some((n) => /Stopped/.test(n)), 'the stopped notice');
    assert.equal(v2.inputDisabled, false);
    await waitFor(
      'the sandbox to record the abort',
      async () => (await sandboxState(sandbox.port)).aiAborts.some((a) => a.chatId === chatId),
      10_000,
    );
  });

  it('a suspended turn offers Resume and finishes when resumed', async () => {
    const panel = (await vscode.commands.executeCommand('dashboardPlatform.chat.open', {
      agentUrl: sandbox.urls.ai[0]!.url,
    })) as ChatPanel;
    await panel.newChat();
    await panel.ask('Delete old orders? This needs approval');
    await chatView(panel, (x) => x.notices.some((n) => /paused/.test(n)), 'the suspended notice');
    await panel.currentSession!.resume();
    await chatView(panel, (x) => x.finalAnswers.length > 0, 'the resumed turn to finish');
  });

  it('shows a mid-stream error line inline with Retry, and Retry runs the turn again', async () => {
    const panel = (await vscode.commands.executeCommand('dashboardPlatform.chat.open', {
      agentUrl: sandbox.urls.ai[0]!.url,
    })) as ChatPanel;
    await panel.newChat();
    await panel.ask('Trigger an error please');
    const v = await chatView(panel, (x) => x.notices.some((n) => /overloaded/.test(n)), 'the inline error');
    assert.ok(
      v.notices.some((n) => /Retry/.test(n)),
      `a Retry button (notices: ${JSON.stringify(v.notices)})`,
    );
    assert.equal(v.inputDisabled, false);
    const before = v.notices.length;
    await panel.currentSession!.retry();
    await chatView(panel, (x) => x.notices.length > before, 'the retried turn to report again');
  });

  it('"Open in notebook" puts the SQL into a new query notebook cell', async function () {
    const pkg = vscode.extensions.getExtension('dashboard-platform.dashboard-platform')!.packageJSON as {
      contributes?: { notebooks?: { type: string }[] };
    };
    if (!pkg.contributes?.notebooks?.some((n) => n.type === 'dashboard-platform-notebook')) {
      this.skip(); // the query notebook type is not part of this build yet
    }
    const sql = 'SELECT status, MEASURE(count) FROM orders GROUP BY 1';
    const editor = (await vscode.commands.executeCommand('dashboardPlatform.chat.openSqlInNotebook', {
      sql,
    })) as vscode.NotebookEditor;
    assert.ok(editor, 'a notebook editor');
    assert.equal(editor.notebook.notebookType, 'dashboard-platform-notebook');
    const last = editor.notebook.cellAt(editor.notebook.cellCount - 1);
    assert.equal(last.document.getText(), sql);
    assert.equal(last.document.languageId, 'dashboard-platform-sql');
    // The untitled notebook is dirty: revert it so closing it asks nothing.
    await vscode.window.showNotebookDocument(editor.notebook);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
