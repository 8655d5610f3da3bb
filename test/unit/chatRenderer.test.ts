// Runs the real chat webview bundle in jsdom and feeds it hostile markdown and tool results: nothing
// executable may reach the DOM, and streamed deltas must update one node, not re-render.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { JSDOM } from 'jsdom';
import type { HostToWebview, WebviewToHost } from '../../src/shared/chatProtocol';
import { jsdomWindow, webviewBundle } from './webviewBundle';

const root = path.resolve(__dirname, '..', '..', '..');

function bundle(): string {
  return webviewBundle({ entry: path.join(root, 'webview', 'chat', 'index.ts') });
}

interface Page {
  window: JSDOM['window'];
  sent: WebviewToHost[];
  send(...ops: HostToWebview[]): void;
  pwned(): boolean;
  /** The panel state the page last saved (what a reload of the webview gets back). */
  saved(): unknown;
}

let code: string;

function open(initialState?: unknown): Page {
  // jsdom has no canvas; Vega's text measuring falls back without it.
  const dom = jsdomWindow('page');
  const win = dom.window as unknown as JSDOM['window'] & Record<string, unknown>;
  const sent: WebviewToHost[] = [];
  win.__pwned = false;
  let saved: unknown = initialState;
  win.acquireVsCodeApi = () => ({
    postMessage: (m: WebviewToHost) => sent.push(JSON.parse(JSON.stringify(m)) as WebviewToHost),
    getState: () => saved,
    setState: (state: unknown) => {
      saved = JSON.parse(JSON.stringify(state));
    },
  });
  win.HTMLElement.prototype.scrollIntoView = () => undefined;
  win.structuredClone = structuredClone; // Vega uses it at load; jsdom's window lacks it
  win.eval(code);
  return {
    window: dom.window,
    sent,
    send: (...ops) => {
      for (const op of ops) dom.window.dispatchEvent(new dom.window.MessageEvent('message', { data: op }));
    },
    pwned: () => win.__pwned === true,
    saved: () => saved,
  };
}

const HOSTILE_MARKDOWN = [
  'Revenue was **$1.2M** in *March*.',
  '![remote](https://tracker.invalid/pixel.png)',
  '<script>window.__pwned = true</script>',
  '<img src=x onerror="window.__pwned = true">',
  '<a href="javascript:window.__pwned=true">click</a>',
  '[link](javascript:window.__pwned=true)',
  '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '<svg onload="window.__pwned = true"><script>window.__pwned = true</script></svg>',
  '<svg><a xlink:href="javascript:window.__pwned=true"><text>x</text></a></svg>',
  '<iframe src="https://example.invalid" onload="window.__pwned=true"></iframe>',
  '<object data="javascript:window.__pwned=true"></object><embed src="javascript:1">',
  '<div style="background:url(javascript:window.__pwned=true)" onclick="window.__pwned=true">styled</div>',
  '<form action="javascript:1"><button formaction="javascript:1">go</button></form>',
  '<details open ontoggle="window.__pwned=true">x</details>',
  '<a href="https://example.invalid" target="_blank">ok link</a>',
  '<meta http-equiv="refresh" content="0;url=javascript:1"><base href="javascript:/">',
  // Unclosed mutation-XSS nesting last: the sanitizer drops it with everything it swallows.
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned=true">',
].join('\n\n');

function assertNothingExecutable(page: Page): void {
  const doc = page.window.document;
  for (const tag of ['script', 'iframe', 'object', 'embed', 'form', 'meta', 'base', 'style', 'math']) {
    assert.equal(
      doc.querySelectorAll(`.transcript ${tag}, header ${tag}`).length,
      0,
      `no <${tag}> in the transcript`,
    );
  }
  for (const svg of Array.from(doc.querySelectorAll('.transcript svg'))) {
    assert.ok(svg.closest('.chart'), 'SVG only inside chart containers drawn by Vega');
  }
  for (const node of Array.from(doc.querySelectorAll('#root *'))) {
    for (const attr of Array.from(node.attributes)) {
      assert.ok(!/^on/i.test(attr.name), `no event handler attribute (${attr.name} on <${node.tagName}>)`);
      if (/^(href|src|xlink:href|action|formaction|data)$/i.test(attr.name)) {
        assert.ok(!/^\s*(javascript|data|vbscript):/i.test(attr.value), `no ${attr.value} in ${attr.name}`);
      }
    }
  }
  assert.equal(page.pwned(), false, 'no payload ran');
}

describe('chat webview rendering', () => {
  before(function () {
    this.timeout(60_000);
    code = bundle();
  });

  it('renders hostile final markdown without anything executable', () => {
    const page = open();
    page.send(
      { type: 'init', agentName: 'Analyst', allowRemoteImages: false },
      { type: 'turnStarted', turnId: 't1' },
      { type: 'final', id: 'm1', markdown: HOSTILE_MARKDOWN },
    );
    assertNothingExecutable(page);
    const text = page.window.document.querySelector('.msg.assistant .content')!.textContent ?? '';
    assert.match(text, /Revenue was \$1\.2M in March\./);
    assert.match(text, /\[image: remote\]/, 'remote images are replaced unless allowed');
    const link = page.window.document.querySelector('.msg.assistant a[href^="https://"]');
    assert.equal(link?.getAttribute('rel'), 'noopener noreferrer');
    assert.equal(link?.hasAttribute('target'), false);
  });

  it('keeps remote https images only when the user allows them', () => {
    const page = open();
    page.send(
      { type: 'init', agentName: 'Analyst', allowRemoteImages: true },
      {
        type: 'final',
        id: 'm1',
        markdown:
          '![a](https://cdn.invalid/a.png) ![b](http://cdn.invalid/b.png) ![c](http://cdn.invalid/c.png?next=https://x.invalid)',
      },
    );
    const imgs = Array.from(page.window.document.querySelectorAll('#root img'));
    assert.deepEqual(
      imgs.map((i) => i.getAttribute('src')),
      ['https://cdn.invalid/a.png'],
    );
  });

  it('drops media, dialogs and the attributes that load, post or style, keeping their text', () => {
    const page = open();
    page.send(
      { type: 'init', agentName: 'Analyst', allowRemoteImages: true },
      {
        type: 'final',
        id: 'm1',
        markdown: [
          '<audio src="https://cdn.invalid/a.mp3" controls><source src="https://cdn.invalid/a.ogg">sound</audio>',
          '<dialog open>Signed out. Sign in again?</dialog>',
          '<p style="color:red" background="https://t.invalid/bg.png" action="https://t.invalid/a" formaction="https://t.invalid/f">styled</p>',
          '<a href="https://example.invalid" ping="https://t.invalid/p">pinged</a>',
          '<img src="https://cdn.invalid/i.png" srcset="https://t.invalid/big.png 2x" alt="chart">',
        ].join('\n\n'),
      },
    );
    const content = page.window.document.querySelector('.msg.assistant .content')!;
    assert.deepEqual(
      ['audio', 'source', 'dialog'].map((t) => content.querySelectorAll(t).length),
      [0, 0, 0],
    );
    const attrs = [...content.querySelectorAll('*')].flatMap((e) =>
      [...e.attributes]
        .map((a) => a.name)
        .filter((n) => ['style', 'srcset', 'formaction', 'action', 'background', 'ping'].includes(n)),
    );
    assert.deepEqual(attrs, []);
    assert.equal(content.querySelector('img')?.getAttribute('src'), 'https://cdn.invalid/i.png');
    assert.equal(content.querySelector('a')?.textContent, 'pinged');
    assert.match(content.textContent!, /styled/);
  });

  it('shows an image the user did not allow, or not over https, as its alt text', () => {
    const texts = (allowRemoteImages: boolean) => {
      const page = open();
      page.send(
        { type: 'init', agentName: 'Analyst', allowRemoteImages },
        {
          type: 'final',
          id: 'm1',
          markdown:
            'A ![chart](https://cdn.invalid/a.png) B ![](https://cdn.invalid/b.png) C ![plain](http://cdn.invalid/c.png)',
        },
      );
      const content = page.window.document.querySelector('.msg.assistant .content')!;
      return [
        content.textContent!.trim(),
        [...content.querySelectorAll('img')].map((i) => i.getAttribute('src')),
      ];
    };
    assert.deepEqual(texts(false), ['A [image: chart] B [image] C [image: plain]', []]);
    assert.deepEqual(texts(true), [
      'A  B  C [image: plain]',
      ['https://cdn.invalid/a.png', 'https://cdn.invalid/b.png'],
    ]);
  });

  it('shows hostile streamed text, user text and tool results as text', () => {
    const page = open();
    const payload = '<img src=x onerror="window.__pwned=true"><script>window.__pwned=true</script>';
    page.send(
      { type: 'init', agentName: '<b onmouseover=alert(1)>agent</b>', allowRemoteImages: false },
      { type: 'userMessage', id: 'u1', text: payload },
      { type: 'assistantText', id: 'm2', delta: payload, thinking: payload, inProcess: true },
      {
        type: 'toolCall',
        id: 'm3',
        name: `cubeSqlApi${payload}`,
        input: { sql: `SELECT '${payload}'` },
        sql: `SELECT '${payload}' AS "<svg onload=alert(1)>"`,
        result: {
          schema: [{ name: '<svg onload="window.__pwned=true">' }],
          data: [[payload], ['javascript:window.__pwned=true']],
          totalRows: 2,
        },
      },
      { type: 'error', message: payload, retryable: true },
    );
    assertNothingExecutable(page);
    const doc = page.window.document;
    assert.equal(doc.querySelector('.msg.user .content')!.textContent, payload);
    assert.equal(doc.querySelector('header .agent')!.textContent, '<b onmouseover=alert(1)>agent</b>');
    assert.equal(doc.querySelectorAll('table.result td').length, 2);
    assert.equal(doc.querySelector('table.result th')!.textContent, '<svg onload="window.__pwned=true">');
    assert.match(doc.querySelector('.row-count')!.textContent!, /2 of 2 rows/);
  });

  it('appends deltas to the last block and replaces the text with the final text', () => {
    const page = open();
    page.send({ type: 'assistantText', id: 'm1', delta: 'Let ', inProcess: true });
    const content = page.window.document.querySelector('.msg.assistant .content')!;
    const block = content.firstChild;
    const textNode = block?.firstChild;
    page.send(
      { type: 'assistantText', id: 'm1', delta: 'me ', inProcess: true },
      { type: 'assistantText', id: 'm1', delta: 'see', inProcess: true },
    );
    assert.equal(content.textContent, 'Let me see');
    assert.equal(content.firstChild, block, 'the same block is extended, not re-created');
    assert.equal(block?.firstChild, textNode, 'the same text node is extended');
    page.send({ type: 'assistantText', id: 'm1', text: 'Let me check.', inProcess: false });
    assert.equal(content.textContent, 'Let me check.');
    assert.equal(page.window.document.querySelectorAll('.msg.assistant').length, 1);
  });

  it('streams a long answer into blocks cut after newlines; later deltas touch only the last block', () => {
    const page = open();
    const win = page.window;
    const deltas: string[] = [];
    for (let i = 0; i < 3000; i++)
      deltas.push(i % 37 === 0 ? ' end.\n\n' : i % 11 === 0 ? ' é漢😀\n- ' : ` w${i}`);
    // One line far longer than a block, with no newline in it.
    deltas.push(...Array.from({ length: 800 }, (_, i) => ` long${i}`), '\n', 'tail');
    page.send({ type: 'assistantText', id: 'm1', delta: deltas[0]!, inProcess: true });
    const content = win.document.querySelector('.msg.assistant .content')!;
    // Each delta may change only the block that was last before it, or blocks it adds.
    let touchedEarlier = 0;
    const observer = new win.MutationObserver(() => undefined);
    observer.observe(content, { subtree: true, childList: true, characterData: true });
    for (const d of deltas.slice(1)) {
      const lastBefore = content.lastChild;
      const allowed = new Set<Node | null>([content, lastBefore]);
      page.send({ type: 'assistantText', id: 'm1', delta: d, inProcess: true });
      for (let n = lastBefore?.nextSibling ?? null; n; n = n.nextSibling) allowed.add(n);
      for (const r of observer.takeRecords()) {
        const block = r.target.nodeType === 3 ? r.target.parentNode : r.target;
        if (!allowed.has(block)) touchedEarlier++;
      }
    }
    observer.disconnect();
    assert.equal(content.textContent, deltas.join(''), 'the text reads exactly as streamed');
    const blocks = Array.from(content.children);
    assert.ok(blocks.length >= 5, `the answer is split into blocks (${blocks.length})`);
    for (const b of blocks.slice(0, -1))
      assert.ok(b.textContent!.endsWith('\n'), 'a block ends after a newline, so the cut draws nothing');
    for (const b of blocks) assert.equal(b.className, 'stream-block');
    const longest = Math.max(
      ...blocks.flatMap((b) => Array.from(b.childNodes, (n) => n.textContent!.length)),
    );
    assert.ok(longest < 2048 + 64, `text nodes stay short (longest ${longest})`);
    assert.equal(touchedEarlier, 0, 'no delta touched an earlier block');
    page.send({ type: 'assistantText', id: 'm1', text: 'Short.', inProcess: false });
    assert.equal(content.textContent, 'Short.');
    assert.equal(content.children.length, 1);
  });

  it('a streamed delta writes only text: no class or visibility written per delta', async () => {
    const page = open();
    const win = page.window;
    const doc = win.document;
    page.send({ type: 'assistantText', id: 'm1', delta: 'First', inProcess: true });
    // Count what each later delta does besides appending text.
    let toggles = 0;
    let hiddenWrites = 0;
    const toggle = win.DOMTokenList.prototype.toggle;
    win.DOMTokenList.prototype.toggle = function (this: DOMTokenList, ...a: [string, boolean?]) {
      toggles++;
      return toggle.apply(this, a);
    };
    const hidden = Object.getOwnPropertyDescriptor(win.HTMLElement.prototype, 'hidden')!;
    Object.defineProperty(win.HTMLElement.prototype, 'hidden', {
      ...hidden,
      set(this: HTMLElement, v: boolean) {
        hiddenWrites++;
        hidden.set!.call(this, v);
      },
    });
    try {
      for (let i = 0; i < 50; i++) {
        page.send({ type: 'assistantText', id: 'm1', delta: ` word${i}`, inProcess: true });
        await Promise.resolve(); // the page's mutation observer runs here, as between messages
      }
    } finally {
      win.DOMTokenList.prototype.toggle = toggle;
      Object.defineProperty(win.HTMLElement.prototype, 'hidden', hidden);
    }
    assert.equal(toggles, 0, 'no class written per delta');
    assert.equal(hiddenWrites, 0, 'no visibility written per delta');
    const content = doc.querySelector('.msg.assistant .content')!;
    assert.equal(content.textContent, 'First' + Array.from({ length: 50 }, (_, i) => ` word${i}`).join(''));
    // The state still follows the host: the end of the turn shows, and a full text replaces it.
    page.send({ type: 'assistantText', id: 'm1', text: 'Done.', inProcess: false });
    assert.equal(doc.querySelector('.msg.assistant.in-process'), null);
    assert.equal(content.textContent, 'Done.');
    page.send({ type: 'assistantText', id: 'm1', text: '', inProcess: false });
    assert.equal((content as HTMLElement).hidden, true, 'an empty message hides its body');
  });

  it('after the final answer, the same full text again leaves the rendered markdown in place', () => {
    const page = open();
    const doc = page.window.document;
    page.send(
      { type: 'assistantText', id: 'm1', delta: 'Revenue was **up**.', inProcess: true },
      { type: 'final', id: 'm1', markdown: 'Revenue was **up**.' },
      { type: 'assistantText', id: 'm1', text: 'Revenue was **up**.', inProcess: false },
    );
    const content = doc.querySelector('.msg.assistant .content')!;
    assert.equal(content.querySelector('strong')?.textContent, 'up', 'still the markdown');
    page.send({ type: 'assistantText', id: 'm1', text: 'Changed.', inProcess: false });
    assert.equal(content.textContent, 'Changed.');
  });

  it('offers Resume after a suspended turn and Retry after an error, and disables input while streaming', () => {
    const page = open();
    const doc = page.window.document;
    page.send({ type: 'turnStarted', turnId: 't1' });
    assert.equal(doc.querySelector('textarea')!.disabled, true);
    page.send({ type: 'suspended' }, { type: 'turnEnded', chatId: 'c1' });
    assert.equal(doc.querySelector('textarea')!.disabled, false);
    const resume = Array.from(doc.querySelectorAll('.notice button')).find((b) => b.textContent === 'Resume');
    assert.ok(resume, 'a Resume button');
    (resume as HTMLButtonElement).click();
    page.send({ type: 'error', message: 'Model overloaded', retryable: true });
    const retry = Array.from(doc.querySelectorAll('.notice button')).find((b) => b.textContent === 'Retry');
    (retry as HTMLButtonElement).click();
    assert.deepEqual(
      page.sent.filter((m) => m.type === 'resume' || m.type === 'retry').map((m) => m.type),
      ['resume', 'retry'],
    );
  });

  it('sends the typed question on Enter and copies a result table as CSV', () => {
    const page = open();
    const doc = page.window.document;
    const input = doc.querySelector('textarea')!;
    input.value = 'Revenue by month?';
    input.dispatchEvent(new page.window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    assert.deepEqual(
      page.sent.find((m) => m.type === 'send'),
      { type: 'send', text: 'Revenue by month?' },
    );
    page.send({
      type: 'toolCall',
      id: 't',
      name: 'cubeSqlApi',
      input: {},
      sql: 'SELECT 1',
      result: { schema: [{ name: 'city' }, { name: 'n' }], data: [['Paris, FR', '3']], totalRows: 1 },
    });
    const copy = Array.from(doc.querySelectorAll('.tool-actions button')).find((b) =>
      b.textContent?.includes('Copy table as CSV'),
    ) as HTMLButtonElement;
    copy.click();
    assert.deepEqual(
      page.sent.find((m) => m.type === 'copy'),
      { type: 'copy', text: 'city,n\r\n"Paris, FR",3', what: 'csv' },
    );
  });

  it('shows the question at once, keeps it with Retry when the request fails, and puts it back in the composer', () => {
    const page = open();
    const doc = page.window.document;
    page.send({ type: 'turnStarted', turnId: 't1', userText: 'Revenue by month?' });
    assert.equal(doc.querySelector('.msg.user.pending .content')?.textContent, 'Revenue by month?');
    page.send(
      { type: 'error', message: 'Network error: connection refused', retryable: true },
      { type: 'turnEnded' },
    );
    const kept = doc.querySelector('.msg.user.failed .content');
    assert.equal(kept?.textContent, 'Revenue by month?', 'the question is kept');
    assert.equal(doc.querySelector('textarea')!.value, 'Revenue by month?');
    const retry = [...doc.querySelectorAll('.notice.error button')].find((b) => b.textContent === 'Retry');
    assert.ok(retry, 'the error offers Retry');
    (retry as HTMLButtonElement).click();
    assert.deepEqual(page.sent[page.sent.length - 1], { type: 'retry' });
    // The retry reuses the kept question; the server's echo replaces it.
    page.send({ type: 'turnStarted', turnId: 't2', userText: 'Revenue by month?' });
    assert.equal(doc.querySelectorAll('.msg.user').length, 1);
    page.send({ type: 'userMessage', id: 'u1', text: 'Revenue by month?' }, { type: 'turnEnded' });
    assert.equal(doc.querySelectorAll('.msg.user').length, 1);
    assert.equal(doc.querySelectorAll('.msg.user.failed, .msg.user.pending').length, 0);
  });

  it('empties the composer when a retried question went through, and keeps what was typed since', () => {
    const composer = (typedSince: string | undefined) => {
      const page = open();
      const doc = page.window.document;
      page.send(
        { type: 'turnStarted', turnId: 't1', userText: 'Revenue by month?' },
        { type: 'error', message: 'Network error: connection refused', retryable: true },
        { type: 'turnEnded' },
      );
      const input = doc.querySelector('textarea')!;
      assert.equal(input.value, 'Revenue by month?', 'the failed question waits in the composer');
      if (typedSince !== undefined) input.value = typedSince;
      page.send(
        { type: 'turnStarted', turnId: 't2', userText: 'Revenue by month?' },
        { type: 'userMessage', id: 'u1', text: 'Revenue by month?' },
      );
      return input.value;
    };
    assert.equal(composer(undefined), '');
    assert.equal(composer('And by city?'), 'And by city?');
  });

  it('keeps the chat id and agent URL a reload restores, replaced only by those the extension sends', () => {
    const page = open({ chatId: 'c-1', agentUrl: 'https://agents.invalid/a' });
    page.send({ type: 'init', agentName: 'Analyst', allowRemoteImages: false });
    assert.deepEqual(page.saved(), { chatId: 'c-1', agentUrl: 'https://agents.invalid/a' });
    page.send({
      type: 'init',
      agentName: 'Analyst',
      allowRemoteImages: false,
      chatId: 'c-2',
      agentUrl: 'https://agents.invalid/b',
    });
    assert.deepEqual(page.saved(), { chatId: 'c-2', agentUrl: 'https://agents.invalid/b' });
    page.send({ type: 'reset' });
    assert.deepEqual(page.saved(), { agentUrl: 'https://agents.invalid/b' }, 'a new chat forgets the old id');
  });

  it('names the agent and profile, offers starter prompts, and says when the profile changed', () => {
    const page = open();
    const doc = page.window.document;
    page.send(
      { type: 'init', agentName: 'Analyst', allowRemoteImages: false, profileName: 'Sandbox' },
      { type: 'starters', prompts: ['What was the total amount by month over the last year?'] },
    );
    assert.match(doc.querySelector('header')!.textContent!, /^Analyst\s*· Sandbox profile$/);
    const starter = doc.querySelector<HTMLButtonElement>('.starters button')!;
    starter.click();
    assert.deepEqual(page.sent[page.sent.length - 1], {
      type: 'send',
      text: 'What was the total amount by month over the last year?',
    });
    page.send({ type: 'profile', own: 'Sandbox', active: 'Production' });
    const banner = doc.querySelector<HTMLElement>('.banner')!;
    assert.equal(banner.hidden, false);
    assert.match(banner.textContent!, /on the profile "Sandbox"; the active profile is now "Production"/);
    page.send({ type: 'profile', own: 'Sandbox', active: 'Staging' });
    assert.match(
      banner.textContent!,
      /the active profile is now "Staging"/,
      'the banner follows each switch',
    );
    page.send({ type: 'profile', own: 'Sandbox', active: 'Sandbox' });
    assert.equal(banner.hidden, true, "back on the chat's own profile: no banner");
  });

  it('pauses with the default reason, stops, offers the SQL to the notebook, and a new chat starts empty', () => {
    const page = open();
    const doc = page.window.document;
    const notices = () =>
      [...doc.querySelectorAll('.notice')].map((n) => [n.className, n.textContent?.trim()]);
    page.send({ type: 'turnStarted', turnId: 't1', userText: 'Revenue?' });
    assert.equal(doc.querySelector('.empty'), null, 'a turn hides the empty state');
    page.send(
      { type: 'userMessage', id: 'u1', text: 'Revenue?' },
      {
        type: 'toolCall',
        id: 'q',
        name: 'cubeSqlApi',
        input: {},
        sql: 'SELECT SUM(amount) FROM orders',
        result: { schema: [{ name: 'n' }], data: [['5']], totalRows: 1 },
      },
      { type: 'suspended' },
      { type: 'aborted' },
      { type: 'usage', usage: { llmCalls: 2, inputTokens: 1200, outputTokens: 30, totalTokens: 1230 } },
      { type: 'turnEnded' },
    );
    assert.deepEqual(notices(), [
      ['notice suspended', 'The agent paused this turn. Resume'],
      ['notice aborted', 'Stopped.'],
    ]);
    assert.equal(
      doc.querySelector('.usage')?.textContent,
      '2 LLM calls · 1,200 input tokens · 30 output tokens · 1,230 total',
    );
    const button = (label: string) =>
      [...doc.querySelectorAll<HTMLButtonElement>('.tool-actions button')].find(
        (b) => b.textContent === ` ${label}`,
      );
    button('Open in notebook')!.click();
    button('Copy SQL')!.click();
    assert.deepEqual(page.sent.slice(-2), [
      { type: 'openInNotebook', sql: 'SELECT SUM(amount) FROM orders' },
      { type: 'copy', text: 'SELECT SUM(amount) FROM orders', what: 'sql' },
    ]);
    const icons = (selector: string) => [...doc.querySelectorAll(selector)].map((i) => i.className);
    assert.deepEqual(icons('.tool-actions button .codicon'), [
      'codicon codicon-notebook',
      'codicon codicon-copy',
      'codicon codicon-table',
    ]);
    assert.deepEqual(icons('.notice > .codicon'), [
      'codicon codicon-debug-pause',
      'codicon codicon-debug-stop',
    ]);
    page.send({ type: 'suspended', reason: 'Waiting for approval.' });
    assert.equal(notices().at(-1)![1], 'Waiting for approval. Resume');

    page.send({ type: 'reset' });
    const log = doc.querySelector('.transcript')!;
    assert.equal(log.querySelectorAll('.msg, .notice, .tool').length, 0, 'the transcript is cleared');
    assert.equal(log.querySelector('.empty')?.textContent, 'Ask a question about your data.');
    assert.equal(doc.querySelector('.usage')?.textContent, '');
    assert.equal(doc.querySelector('textarea')!.disabled, false);
    // The question of the cleared chat is not the pending one any more: its echo adds a message.
    page.send({ type: 'userMessage', id: 'u2', text: 'Revenue?' });
    assert.equal(log.querySelectorAll('.msg.user').length, 1);
  });

  it('replaces the starter prompts, and a starter sends nothing while an answer streams', () => {
    const page = open();
    const doc = page.window.document;
    page.send(
      { type: 'starters', prompts: ['Old one'] },
      { type: 'starters', prompts: ['First?', 'Second?'] },
    );
    const starters = [...doc.querySelectorAll<HTMLButtonElement>('.starters button')];
    assert.deepEqual(
      starters.map((b) => [b.className, b.type, b.textContent]),
      [
        ['secondary starter', 'button', 'First?'],
        ['secondary starter', 'button', 'Second?'],
      ],
    );
    page.send({ type: 'turnStarted', turnId: 't1' });
    starters[0]!.click();
    assert.equal(page.sent.filter((m) => m.type === 'send').length, 0, 'nothing sent while streaming');
    page.send({ type: 'turnEnded' });
    starters[1]!.click();
    assert.deepEqual(
      page.sent.filter((m) => m.type === 'send'),
      [{ type: 'send', text: 'Second?' }],
    );
  });

  it('shows a rollup badge with its name and age when a rollup served the query', () => {
    const page = open();
    const doc = page.window.document;
    const builtAt = new Date(Date.now() - 5 * 60_000).toISOString();
    const tool = (id: string, rollups?: { id: string; builtAt?: string }[]): HostToWebview => ({
      type: 'toolCall',
      id,
      name: 'cubeSqlApi',
      input: {},
      sql: 'SELECT 1',
      result: {
        schema: [{ name: 'status' }],
        data: [['shipped']],
        totalRows: 1,
        ...(rollups ? { rollups } : {}),
      },
    });
    page.send(
      { type: 'init', agentName: 'Analyst', allowRemoteImages: false },
      tool('m1', [{ id: 'orders.orders_by_status', builtAt }]),
      tool('m2'),
    );
    const cards = Array.from(doc.querySelectorAll('details.tool'));
    assert.equal(
      cards[0]!.querySelector('.rollup')!.textContent,
      'Rollup orders.orders_by_status · built 5 min ago',
    );
    assert.match(
      (cards[0]!.querySelector('.rollup') as HTMLElement).title,
      /pre-aggregation orders\.orders_by_status/,
    );
    assert.equal(cards[1]!.querySelector('.rollup'), null, 'no badge when the query read the source tables');
  });
});

describe('starter prompts', () => {
  it('asks about a measure over time, a top category and a count from the cubes', async () => {
    const { starterPrompts } = await import('../../src/chat/starterPrompts');
    const prompts = starterPrompts({
      cubes: [
        {
          name: 'orders',
          title: 'Orders',
          measures: [
            {
              name: 'orders.count',
              title: 'Orders Count',
              shortTitle: 'Count',
              type: 'number',
              aggType: 'count',
            },
            {
              name: 'orders.total_amount',
              title: 'Orders Total Amount',
              shortTitle: 'Total Amount',
              type: 'number',
              aggType: 'sum',
            },
          ],
          dimensions: [
            { name: 'orders.id', type: 'number' },
            { name: 'orders.status', shortTitle: 'Status', type: 'string' },
            { name: 'orders.created_at', type: 'time' },
          ],
          segments: [],
        },
        {
          name: 'hidden',
          public: false,
          measures: [{ name: 'hidden.x', type: 'number' }],
          dimensions: [],
          segments: [],
        },
      ],
    });
    assert.deepEqual(prompts, [
      'What was the total amount by month over the last year?',
      'Which status has the highest total amount?',
      'How many orders were there each week in the last 3 months?',
    ]);
    assert.deepEqual(starterPrompts({ cubes: [] }), []);
  });
});
