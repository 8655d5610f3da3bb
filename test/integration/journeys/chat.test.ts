// Journey: chat, stop, reopen. An analytics engineer opens the chat on the Sandbox profile, clicks a
// starter question and gets the answer to that question: the numbers of the query it shows, a chart,
// and the rollup that served it. They stop a long turn, close the chat, reopen it from the chat
// history, and the stopped turn is still shown stopped (not as an answer). They switch profile and
// the open chat's banner names the profile now active; switching back clears it. Asserts what the
// page shows (its DOM, read back through `inspect`), in the light and the dark theme.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../../src/chat/chatPanel';
import type { TranscriptView } from '../../../src/shared/chatProtocol';
import type { ExtensionApi } from '../../../src/extension';
import {
  getApi,
  pressKeys,
  screenshot,
  typeText,
  waitFor,
  webviewClick,
  revertAndCloseAll,
  setTheme,
} from '../harness';
import { chatView } from '../chatView';

interface SandboxInfo {
  port: number;
  urls: { ai: { url: string }[]; dataApi: string };
  tokens: { dataApi: string };
}

const STARTER = 'Which status has the highest total amount?';
const OTHER_PROFILE = 'Journey chat other';

/** The journey gives the page 60 s a step (the chat suite 30 s). */
const view = (panel: ChatPanel, until: (v: TranscriptView) => boolean, what: string) =>
  chatView(panel, until, what, 60_000);

describe('journey: chat, stop, reopen', function () {
  this.timeout(300_000);
  let api: ExtensionApi;
  let agentUrl: string;
  let sandbox: SandboxInfo;
  let panel: ChatPanel;
  let stoppedQuestion: string;

  before(async () => {
    api = await getApi();
    await api.services.profiles.switchTo('Sandbox');
    sandbox = (await api.sandbox()) as unknown as SandboxInfo;
    agentUrl = sandbox.urls.ai[0]!.url;
    await setTheme('Default Light Modern');
    await revertAndCloseAll();
  });

  after(async () => {
    await setTheme('Default Light Modern');
    await api.services.profiles.switchTo('Sandbox');
    await api.services.profiles.remove(OTHER_PROFILE).catch(() => undefined);
    await revertAndCloseAll();
  });

  it('clicks a starter and sees the answer to it: its numbers, a chart and the rollup that served it', async () => {
    panel = (await vscode.commands.executeCommand('dashboardPlatform.chat.open', {
      agentUrl,
      newPanel: true,
    })) as ChatPanel;
    await panel.newChat();
    const empty = await view(panel, (v) => v.starters.includes(STARTER), 'the starter questions');
    assert.ok(empty.starters.length >= 3, `starters: ${JSON.stringify(empty.starters)}`);
    assert.ok(await webviewClick(`.starters button:has-text("${STARTER}")`), 'the starter is clicked');
    const v = await view(panel, (x) => x.finalAnswers.length > 0 && !x.inputDisabled, 'the answer');
    assert.deepEqual(v.userMessages, [STARTER]);
    const card = v.toolCards.find((c) => c.name === 'cubeSqlApi');
    assert.ok(card && card.tableRows > 0, `a SQL card with rows: ${JSON.stringify(v.toolCards)}`);
    assert.match(card.rollup ?? '', /^Rollup orders\.orders_by_status · built /, 'the rollup badge');

    // The answer is about the question: the status with the highest total amount, in dollars, as
    // the Data API itself answers it.
    const res = await fetch(`${sandbox.urls.dataApi}/v1/load`, {
      method: 'POST',
      headers: { authorization: sandbox.tokens.dataApi, 'content-type': 'application/json' },
      body: JSON.stringify({ query: { measures: ['orders.total_amount'], dimensions: ['orders.status'] } }),
    });
    const body = (await res.json()) as {
      data?: Record<string, string>[];
      results?: { data: Record<string, string>[] }[];
    };
    const rows = body.data ?? body.results![0]!.data;
    const top = rows.reduce((a, b) =>
      Number(b['orders.total_amount']) > Number(a['orders.total_amount']) ? b : a,
    );
    const dollars = `$${Math.round(Number(top['orders.total_amount'])).toLocaleString('en-US')}`;
    assert.ok(
      v.finalAnswers[0]!.includes(`${top['orders.status']} has the highest total amount: ${dollars}`),
      `the answer names ${top['orders.status']} with ${dollars}: ${v.finalAnswers[0]}`,
    );
    assert.equal(card.tableRows, rows.length, 'one row per status');
    await view(panel, (x) => x.toolCards.some((c) => c.hasChart), 'the chart to be drawn');
    await screenshot('journeys/chat-answer-light', 1500);
    // The chart and table are drawn after the answer arrived: a transcript the user did not scroll
    // follows them to the end, with no "Jump to latest" (following once a frame had left it short).
    const settled = await panel.inspect();
    assert.ok(
      settled.atBottom && !settled.jumpVisible,
      `the transcript ends in view: ${JSON.stringify(settled)}`,
    );
    await setTheme('Default Dark Modern');
    await screenshot('journeys/chat-answer-dark', 2000);
    await setTheme('Default Light Modern');
  });

  it('stops a long turn: it ends at once and says so', async () => {
    stoppedQuestion = 'How many orders were there each week in the last 3 months?';
    // A slow agent: each line of this turn's stream arrives 400 ms after the last.
    await fetch(`http://127.0.0.1:${sandbox.port}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ family: 'ai', route: '/chat/stream-chat-state', dripMs: 400, times: 1 }),
    });
    const turn = panel.ask(stoppedQuestion);
    await view(
      panel,
      (x) => x.inputDisabled && x.userMessages.includes(stoppedQuestion),
      'the turn to stream',
    );
    assert.ok(await webviewClick('form.composer button.secondary:has-text("Stop")'), 'Stop is clicked');
    await turn;
    const v = await view(
      panel,
      (x) => x.notices.some((n) => /Stopped/.test(n)) && !x.inputDisabled,
      'the stopped notice',
    );
    assert.equal(v.finalAnswers.length, 1, 'the stopped turn has no answer');
  });

  it('closes the chat, reopens it from the history, and the stopped turn is still stopped', async () => {
    const chatId = panel.chatId!;
    panel.dispose();
    const reopening = vscode.commands.executeCommand('dashboardPlatform.chat.history');
    // The history quick pick lists the chat by its first question.
    await new Promise((r) => setTimeout(r, 1000));
    await typeText(STARTER);
    await pressKeys(['Enter']);
    await reopening;
    const reopened = await waitFor('the reopened chat', () =>
      api.chat.activePanel?.chatId === chatId ? api.chat.activePanel : undefined,
    );
    panel = reopened;
    const v = await view(
      panel,
      (x) => x.userMessages.length === 2 && x.finalAnswers.length > 0,
      'the reopened thread',
    );
    assert.deepEqual(v.userMessages, [STARTER, stoppedQuestion]);
    assert.equal(v.finalAnswers.length, 1, 'only the first turn has an answer');
    assert.deepEqual(
      v.notices.filter((n) => /Stopped/.test(n)).length,
      1,
      `the stopped turn is shown stopped: ${JSON.stringify(v.notices)}`,
    );
    assert.doesNotMatch(v.usage, /0 LLM calls/, 'no empty usage line from reading the thread');
    await screenshot('journeys/chat-reopened', 1500);
  });

  it('switches profile: the banner names the active profile, and goes away when switching back', async () => {
    await vscode.commands.executeCommand('dashboardPlatform.profiles.add', {
      name: OTHER_PROFILE,
      platformUrl: 'https://platform.invalid/api',
      activate: false,
    });
    api.services.profiles.setSessionSecret(OTHER_PROFILE, 'platformToken', 'journey-token');
    await api.services.profiles.switchTo(OTHER_PROFILE);
    const v = await view(
      panel,
      (x) => x.banner.includes(OTHER_PROFILE),
      'the banner naming the other profile',
    );
    assert.match(v.banner, /on the profile "Sandbox"; the active profile is now "Journey chat other"/);
    await screenshot('journeys/chat-profile-banner', 1500);
    await api.services.profiles.switchTo('Sandbox');
    await view(panel, (x) => x.banner === '', "the banner to go when the chat's profile is active again");
  });
});
