// The chat panel's page. It renders what the host streams and sends the user's actions back; it
// never talks to the network (CSP connect-src 'none').
import {
  chatPanelState,
  hostToWebview,
  type ChatPanelState,
  type HostToWebview,
  type TranscriptView,
  type WebviewToHost,
} from '../../src/shared/chatProtocol';
import { Transcript } from './transcript';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: ChatPanelState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (message: WebviewToHost) => vscode.postMessage(message);

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
): HTMLElementTagNameMap[K] {
  return Object.assign(document.createElement(tag), props);
}

const root = document.getElementById('root')!;
const header = h('header');
const title = h('span', { className: 'agent' });
const profile = h('span', { className: 'profile' });
// What the agent's queries run against: the main branch, or the model's dev branch.
const target = h('span', { className: 'target' });
const newChat = h('button', { className: 'icon', title: 'New chat' });
newChat.innerHTML = '<span class="codicon codicon-add"></span>';
const history = h('button', { className: 'icon', title: 'Chat history' });
history.innerHTML = '<span class="codicon codicon-history"></span>';
header.append(title, profile, target, h('span', { className: 'spacer' }), newChat, history);
// Shown when the active profile is no longer the one this chat's agent belongs to.
const profileBanner = h('div', { className: 'banner', hidden: true });
profileBanner.setAttribute('role', 'status');

const log = h('main', { className: 'transcript' });
log.setAttribute('role', 'log');
log.setAttribute('aria-live', 'polite');
const empty = h('div', { className: 'empty' });
const emptyText = h('p', { textContent: 'Ask a question about your data.' });
const starters = h('div', { className: 'starters' });
empty.append(emptyText, starters);
log.append(empty);
// "Jump to latest" while the user reads further up during a stream.
const jump = h('button', { type: 'button', className: 'jump', hidden: true });
jump.innerHTML = '<span class="codicon codicon-arrow-down"></span> Jump to latest';
const logWrap = h('div', { className: 'log-wrap' });
logWrap.append(log, jump);

const usage = h('footer', { className: 'usage' });
const form = h('form', { className: 'composer' });
const input = h('textarea', {
  placeholder: 'Ask the agent… (Enter to send, Shift+Enter for a new line)',
  rows: 2,
});
input.setAttribute('aria-label', 'Message');
const send = h('button', { type: 'submit', textContent: 'Send' });
const stop = h('button', { type: 'button', className: 'secondary', textContent: 'Stop', hidden: true });
form.append(input, send, stop);
root.append(header, profileBanner, logWrap, usage, form);

/** Whether the transcript follows its end (true until the user scrolls up). */
let stick = true;
const distanceToEnd = () => log.scrollHeight - log.scrollTop - log.clientHeight;
let lastTop = 0;
log.addEventListener('scroll', () => {
  // Only the user scrolling up lets go of the end: content growing under the view (a chart that
  // renders after its turn, scroll anchoring) moves the position too, without meaning that.
  const up = log.scrollTop < lastTop;
  lastTop = log.scrollTop;
  if (distanceToEnd() < 40) {
    stick = true;
    jump.hidden = true;
  } else if (up) stick = false;
});
// Content added or rendered late (charts, tables) keeps a following transcript at its end.
new MutationObserver(() => {
  if (stick && distanceToEnd() > 0) log.scrollTop = log.scrollHeight;
}).observe(log, { childList: true, subtree: true, characterData: true, attributes: true });
jump.addEventListener('click', () => {
  stick = true;
  log.scrollTop = log.scrollHeight;
  jump.hidden = true;
});
function follow(): void {
  if (stick) log.scrollTop = log.scrollHeight;
  else if (distanceToEnd() > 40) jump.hidden = false;
}

/** The question of the running turn, shown at once (the server echoes it only once it accepts it). */
let pending: HTMLElement | undefined;
function showPending(text: string): void {
  const failed = log.querySelector<HTMLElement>('.msg.user.failed');
  if (failed && failed.dataset.text === text) {
    failed.classList.remove('failed');
    failed.classList.add('pending');
    pending = failed;
    return;
  }
  pending = h('div', { className: 'msg user pending' });
  pending.dataset.text = text;
  pending.append(h('div', { className: 'content', textContent: text }));
  log.append(pending);
  stick = true;
}

const transcript = new Transcript(log, {
  openInNotebook: (sql) => post({ type: 'openInNotebook', sql }),
  copy: (text, what) => post({ type: 'copy', text, what }),
});

let state: ChatPanelState = chatPanelState.safeParse(vscode.getState()).data ?? {};
let streaming = false;

function setStreaming(on: boolean): void {
  streaming = on;
  input.disabled = on;
  send.hidden = on;
  stop.hidden = !on;
  if (!on) input.focus();
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  const text = input.value.trim();
  if (!text || streaming) return;
  input.value = '';
  post({ type: 'send', text });
});
input.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    form.requestSubmit();
  }
});
stop.addEventListener('click', () => post({ type: 'stop' }));
newChat.addEventListener('click', () => post({ type: 'newChat' }));
history.addEventListener('click', () => post({ type: 'history' }));

function apply(msg: HostToWebview): void {
  switch (msg.type) {
    case 'init':
      title.textContent = msg.agentName;
      profile.textContent = msg.profileName ? `· ${msg.profileName} profile` : '';
      title.title = msg.agentUrl ?? '';
      transcript.allowRemoteImages = msg.allowRemoteImages;
      saveState({ ...state, chatId: msg.chatId ?? state.chatId, agentUrl: msg.agentUrl ?? state.agentUrl });
      break;
    case 'reset':
      transcript.clear();
      pending = undefined;
      log.append(empty);
      usage.textContent = '';
      setStreaming(false);
      saveState({ ...state, chatId: undefined });
      break;
    case 'turnStarted':
      empty.remove();
      usage.textContent = '';
      setStreaming(true);
      if (msg.userText) showPending(msg.userText);
      break;
    case 'userMessage':
      empty.remove();
      // The server has the question now: its own message replaces the one shown while sending.
      if (pending && pending.dataset.text === msg.text) {
        pending.remove();
        pending = undefined;
        // A retried question went through: it no longer waits in the composer.
        if (input.value === msg.text) input.value = '';
      }
      transcript.userMessage(msg);
      break;
    case 'starters':
      starters.replaceChildren(
        ...msg.prompts.map((p) => {
          const b = h('button', { type: 'button', className: 'secondary starter', textContent: p });
          b.addEventListener('click', () => {
            if (!streaming) post({ type: 'send', text: p });
          });
          return b;
        }),
      );
      break;
    case 'target':
      target.textContent = msg.text;
      target.classList.toggle('dev', msg.dev);
      break;
    case 'profile':
      // Back on this chat's own profile: nothing to warn about.
      profileBanner.hidden = msg.own === msg.active;
      profileBanner.textContent = profileBanner.hidden
        ? ''
        : `This chat is on the profile "${msg.own}"; the active profile is now "${msg.active}". Questions here still go to ${title.textContent ?? 'this agent'} on "${msg.own}". Open a new chat for "${msg.active}".`;
      break;
    case 'assistantText':
      transcript.assistantText(msg);
      break;
    case 'toolCall':
      transcript.toolCall(msg);
      break;
    case 'final':
      transcript.final(msg);
      break;
    case 'usage': {
      const u = msg.usage;
      const parts = [
        u.llmCalls !== undefined ? `${u.llmCalls} LLM calls` : undefined,
        u.inputTokens !== undefined ? `${u.inputTokens.toLocaleString()} input tokens` : undefined,
        u.outputTokens !== undefined ? `${u.outputTokens.toLocaleString()} output tokens` : undefined,
        u.totalTokens !== undefined ? `${u.totalTokens.toLocaleString()} total` : undefined,
      ].filter(Boolean);
      usage.textContent = parts.join(' · ');
      break;
    }
    case 'suspended':
      transcript.notice('suspended', msg.reason ?? 'The agent paused this turn.', {
        label: 'Resume',
        run: () => post({ type: 'resume' }),
      });
      break;
    case 'aborted':
      transcript.notice('aborted', 'Stopped.');
      break;
    case 'error':
      // The question stays, marked as not answered, and goes back into the composer to edit.
      if (pending) {
        pending.classList.remove('pending');
        pending.classList.add('failed');
        if (!input.value.trim()) input.value = pending.dataset.text ?? '';
        pending = undefined;
      }
      transcript.notice(
        'error',
        msg.message,
        msg.retryable ? { label: 'Retry', run: () => post({ type: 'retry' }) } : undefined,
      );
      break;
    case 'turnEnded':
      if (pending) pending.classList.remove('pending');
      pending = undefined;
      setStreaming(false);
      if (msg.chatId) saveState({ ...state, chatId: msg.chatId });
      break;
    case 'inspect':
      post({ type: 'inspection', requestId: msg.requestId, view: inspect() });
      break;
  }
}

function texts(selector: string): string[] {
  return Array.from(log.querySelectorAll(selector)).map((n) => (n.textContent ?? '').trim());
}

function inspect(): TranscriptView {
  return {
    userMessages: texts('.msg.user:not(.pending) .content'),
    assistantTexts: texts('.msg.assistant .content.streaming'),
    finalAnswers: texts('.msg.assistant .content.final'),
    toolCards: Array.from(log.querySelectorAll('details.tool')).map((card) => ({
      name: card.querySelector('.tool-name')?.textContent ?? '',
      rowCount: card.querySelector('.row-count')?.textContent ?? undefined,
      tableRows: card.querySelectorAll('table.result tbody tr').length,
      hasChart: card.querySelector('.chart svg, .chart canvas') !== null,
      rollup: card.querySelector('.rollup')?.textContent ?? undefined,
    })),
    notices: texts('.notice'),
    header: `${title.textContent ?? ''} ${profile.textContent ?? ''} ${target.textContent ?? ''}`.trim(),
    starters: texts('.starters button'),
    draft: input.value,
    atBottom: distanceToEnd() < 40,
    jumpVisible: !jump.hidden,
    banner: profileBanner.hidden ? '' : (profileBanner.textContent ?? ''),
    overflowsX: log.scrollWidth > log.clientWidth + 1,
    usage: usage.textContent ?? '',
    inputDisabled: input.disabled,
    scriptElements: log.querySelectorAll('script').length,
  };
}

function saveState(next: ChatPanelState): void {
  state = next;
  vscode.setState(state);
}

// Operations are applied as they arrive; one acknowledgement per painted frame tells the host
// (and the tests and benchmarks) that they are on screen.
let appliedSinceFrame = 0;
let frameRequested = false;
window.addEventListener('message', (event: MessageEvent) => {
  const parsed = hostToWebview.safeParse(event.data);
  if (!parsed.success) return;
  apply(parsed.data);
  follow();
  appliedSinceFrame++;
  if (!frameRequested) {
    frameRequested = true;
    requestAnimationFrame(() => {
      frameRequested = false;
      const count = appliedSinceFrame;
      appliedSinceFrame = 0;
      post({ type: 'painted', count });
    });
  }
});

post({ type: 'ready' });
