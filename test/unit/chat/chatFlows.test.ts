// The chat's VS Code side in plain Node (a stand-in for `vscode`), against the sandbox's AI agent
// and Data API over HTTP: the panel (what it posts on ready, a question asked and recorded in the
// history, the page's requests, a bad message, the profile banner, the branch line, disposal), the
// feature (which agent a chat opens with, an existing panel reused, the history reopened, a restored
// panel), the environment (which branch a chat uses), "Open in notebook" and the status entry.
import assert from 'node:assert/strict';
import { AiClient } from '../../../src/api/aiClient';
import { DataClient } from '../../../src/api/dataClient';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import type { HostToWebview } from '../../../src/shared/chatProtocol';
import type * as EnvModule from '../../../src/chat/chatEnvironment';
import type * as FeatureModule from '../../../src/chat/chatFeature';
import type * as HistoryModule from '../../../src/chat/chatHistory';
import type * as IndexModule from '../../../src/chat/index';
import type * as OpenModule from '../../../src/chat/openInNotebook';
import type * as PanelModule from '../../../src/chat/chatPanel';
import { fakeNotebook, installVscodeFake, type VsHooks } from '../notebook/vscodeFake';

const fast = { retries: 1, baseDelayMs: 1, maxDelayMs: 2 };
const flush = () => new Promise((r) => setTimeout(r, 0));

interface FakePanel {
  title: string;
  viewColumn: number | undefined;
  active: boolean;
  iconPath?: { id: string };
  disposed: boolean;
  revealed: number;
  webview: { options?: unknown; html: string; posted: HostToWebview[]; cspSource: string };
  /** Sends a message from the page. */
  send(m: unknown): Promise<void>;
  dispose(): void;
}

/** A webview panel in the given column ('none': not shown in any). */
function fakePanel(column: number | 'none' = 2): FakePanel {
  let receive: (m: unknown) => Promise<void> = async () => undefined;
  let onDispose: (() => void) | undefined;
  const p: FakePanel = {
    title: '',
    viewColumn: column === 'none' ? undefined : column,
    active: false,
    disposed: false,
    revealed: 0,
    webview: {
      html: '',
      posted: [],
      cspSource: 'vscode-webview:',
      asWebviewUri: (u: unknown) => u,
      postMessage: async (m: HostToWebview) => (p.webview.posted.push(m), true),
      onDidReceiveMessage: (l: (m: unknown) => Promise<void>) => (
        (receive = l),
        { dispose: () => void (receive = async () => undefined) }
      ),
    } as FakePanel['webview'],
    onDidDispose: (l: () => void) => ((onDispose = l), { dispose: () => undefined }),
    reveal: () => void p.revealed++,
    send: (m) => receive(m),
    dispose: () => {
      if (p.disposed) return;
      p.disposed = true;
      onDispose?.();
    },
  } as FakePanel;
  return p;
}

describe('chat: panel, feature and environment against the sandbox', function () {
  this.timeout(60_000);
  let fake: ReturnType<typeof installVscodeFake>;
  let hooks: VsHooks;
  let Env: typeof EnvModule;
  let F: typeof FeatureModule;
  let H: typeof HistoryModule;
  let Idx: typeof IndexModule;
  let O: typeof OpenModule;
  let P: typeof PanelModule;
  let sb: SandboxHandle;
  let data: DataClient;
  let world: ReturnType<typeof makeWorld>;

  function makeWorld() {
    const listeners: Record<string, ((e: unknown) => void)[]> = {};
    const on = (name: string) => (l: (e: unknown) => void) => (
      (listeners[name] ??= []).push(l),
      { dispose: () => undefined }
    );
    const w = {
      listeners,
      fire: (name: string, e?: unknown) => listeners[name]?.forEach((l) => l(e)),
      warned: [] as string[],
      info: [] as string[],
      errors: [] as string[],
      active: {
        name: 'Sandbox',
        agents: [] as { label: string; url: string }[],
        defaultDeploymentId: undefined as number | undefined,
      },
      isSandbox: true,
      started: 0,
      branch: undefined as { deploymentId: number; deploymentName: string; branch: string } | undefined,
      dataAsked: [] as unknown[][],
      memento: { value: undefined as unknown },
      aiFails: false,
      services: undefined as unknown,
    };
    w.services = {
      context: {
        extensionUri: { scheme: 'file', path: '/ext' },
        subscriptions: [] as unknown[],
        workspaceState: {
          get: () => w.memento.value,
          update: async (_k: string, v: unknown) => void (w.memento.value = v),
        },
      },
      log: {
        warn: (m: string) => w.warned.push(m),
        info: (m: string) => w.info.push(m),
        error: (m: string) => w.errors.push(m),
        debug: () => undefined,
        trace: () => undefined,
        show: () => undefined,
      },
      profiles: {
        active: () => (w.active.name ? { profile: w.active, isSandbox: w.isSandbox } : undefined),
        sandbox: { start: async () => void w.started++, onDidChange: on('sandbox') },
        onDidChangeActiveProfile: on('active'),
      },
      clients: {
        ai: async (url: string) => {
          if (w.aiFails) throw new Error('The AI API key is not set.');
          return new AiClient({ baseUrl: url, apiKey: async () => sb.tokens.aiApiKey, retry: fast });
        },
        sessionSettings: () => ({ externalId: 'tester@example.com' }),
        data: async (...a: unknown[]) => (w.dataAsked.push(['data', ...a]), data),
        devData: async (...a: unknown[]) => (w.dataAsked.push(['devData', ...a]), data),
      },
      modelBranch: {
        get current() {
          return w.branch;
        },
        onDidChange: on('branch'),
      },
    };
    return w;
  }

  before(async () => {
    fake = installVscodeFake();
    hooks = fake.hooks;
    Env = fake.load('../../../src/chat/chatEnvironment');
    F = fake.load('../../../src/chat/chatFeature');
    H = fake.load('../../../src/chat/chatHistory');
    Idx = fake.load('../../../src/chat/index');
    O = fake.load('../../../src/chat/openInNotebook');
    P = fake.load('../../../src/chat/chatPanel');
    sb = await startSandbox({ rows: 200, aiEventDelayMs: 1 });
    data = new DataClient({
      baseUrl: sb.urls.dataApi,
      token: async () => sb.tokens.dataApi,
      retry: fast,
      cacheKey: 'chat',
    });
  });
  after(async () => {
    await data.close?.();
    await sb.close();
    fake.uninstall();
  });
  beforeEach(() => {
    hooks.reset();
    world = makeWorld();
    world.active.agents = sb.urls.ai.map((a) => ({ label: a.name, url: a.url }));
    created.length = 0;
    hooks.newPanel = (...a) => (created.push(a), fakePanel() as unknown as Record<string, unknown>);
  });
  /** createWebviewPanel's arguments, per panel. */
  const created: unknown[][] = [];

  const agent = () => ({ name: sb.urls.ai[0]!.name, url: sb.urls.ai[0]!.url });
  const types = (ops: HostToWebview[]) => ops.map((o) => o.type);

  function newPanel(p = fakePanel()) {
    const history = new H.ChatHistory(
      (world.services as { context: { workspaceState: HistoryModule.MementoLike } }).context.workspaceState,
    );
    const closed: unknown[] = [];
    const chat = new P.ChatPanel(
      p as never,
      agent(),
      Env.chatEnvironment(world.services as never),
      history,
      (x) => closed.push(x),
    );
    return { chat, p, history, closed };
  }

  describe('the panel', () => {
    it('on ready: init, the branch line and starters from the model; nothing before', async () => {
      hooks.config['dashboardPlatform.chat.allowRemoteImages'] = true;
      const { chat, p } = newPanel();
      assert.equal(chat.chatId, undefined, 'no chat before the first question');
      assert.equal(chat.currentSession, undefined);
      assert.equal(p.title, `Chat: ${agent().name} · Sandbox`);
      assert.equal(p.iconPath?.id, 'comment-discussion');
      assert.match(p.webview.html, /img-src vscode-webview: data: https:;/);
      assert.equal(p.webview.posted.length, 0, 'nothing before ready');
      await p.send({ type: 'ready' });
      await flush();
      await chat.ready;
      while (!p.webview.posted.some((o) => o.type === 'starters')) await flush();
      assert.deepEqual(p.webview.posted.slice(0, 2), [
        {
          type: 'init',
          agentName: agent().name,
          agentUrl: agent().url,
          chatId: undefined,
          allowRemoteImages: true,
          profileName: 'Sandbox',
        },
        { type: 'target', text: 'Data: main branch', dev: false },
      ]);
      const starters = p.webview.posted.find((o) => o.type === 'starters');
      assert.ok(starters?.type === 'starters' && starters.prompts.length > 0 && starters.prompts.length <= 4);
      assert.deepEqual(world.dataAsked, [['data']]);
      chat.dispose();
    });

    it('a question asked from the page streams the answer and records the chat in the history', async () => {
      const { chat, p, history } = newPanel();
      await p.send({ type: 'ready' });
      await p.send({ type: 'send', text: 'How many orders are there?' });
      const ops = p.webview.posted;
      assert.ok(
        ops.some((o) => o.type === 'final'),
        types(ops).join(','),
      );
      assert.equal(ops.filter((o) => o.type !== 'starters').at(-1)?.type, 'turnEnded');
      assert.ok(chat.chatId);
      await flush();
      const [entry] = history.list('Sandbox');
      assert.deepEqual(
        { ...entry, updatedAt: undefined },
        {
          chatId: chat.chatId,
          agentUrl: agent().url,
          agentName: agent().name,
          title: 'How many orders are there?',
          profile: 'Sandbox',
          updatedAt: undefined,
        },
      );
      assert.deepEqual(hooks.commands[0], { id: 'setContext', args: ['dashboardPlatform.chat.asked', true] });
      chat.dispose();
    });

    it("the page's requests: copy, history, open in notebook, new chat; a bad message is only logged", async () => {
      const { chat, p } = newPanel();
      await p.send({ type: 'ready' });
      await p.send({ type: 'copy', text: 'SELECT 1', what: 'sql' });
      await p.send({ type: 'copy', text: 'a,b', what: 'csv' });
      assert.deepEqual(hooks.clipboard, ['SELECT 1', 'a,b']);
      assert.deepEqual(hooks.statusMessages, ['SQL copied', 'Table copied as CSV']);
      await p.send({ type: 'history' });
      await p.send({ type: 'openInNotebook', sql: 'SELECT 2' });
      assert.deepEqual(hooks.commands, [
        { id: 'dashboardPlatform.chat.history', args: [] },
        { id: 'dashboardPlatform.chat.openSqlInNotebook', args: [{ sql: 'SELECT 2' }] },
      ]);
      const before = p.webview.posted.length;
      await p.send({ type: 'send', text: '' });
      await p.send({ type: 'nope' });
      assert.equal(world.warned.length, 2);
      assert.match(world.warned[0]!, /^Chat panel sent an unexpected message: ./);
      await p.send({ type: 'newChat' });
      assert.deepEqual(
        p.webview.posted.slice(before).filter((o) => o.type !== 'starters'),
        [{ type: 'reset' }],
      );
      // Stop, resume and retry without a turn do nothing.
      await p.send({ type: 'stop' });
      await p.send({ type: 'resume' });
      await p.send({ type: 'retry' });
      assert.deepEqual(
        p.webview.posted.slice(before).filter((o) => o.type !== 'starters'),
        [{ type: 'reset' }],
      );
      chat.dispose();
    });

    it('a failure in a request from the page is shown (Chat failed), not thrown', async () => {
      world.aiFails = true;
      const { chat, p } = newPanel();
      await p.send({ type: 'ready' });
      await p.send({ type: 'send', text: 'Hi' });
      assert.deepEqual(world.errors, ['Chat failed: The AI API key is not set.']);
      assert.deepEqual(
        hooks.shown.map((s) => s.message),
        ['The AI API key is not set.'],
      );
      chat.dispose();
    });

    it('the profile banner, the branch line when the model’s branch changes, and the page’s view', async () => {
      const { chat, p } = newPanel();
      chat.profileChanged('Prod');
      await p.send({ type: 'ready' });
      await flush();
      assert.ok(
        p.webview.posted.some((o) => o.type === 'profile' && o.own === 'Sandbox' && o.active === 'Prod'),
      );
      world.branch = { deploymentId: 1, deploymentName: 'Sales', branch: 'dev-ada' };
      world.fire('branch');
      await flush();
      assert.deepEqual(p.webview.posted.filter((o) => o.type === 'target').at(-1), {
        type: 'target',
        text: 'Data: branch "dev-ada" in dev mode (Sales)',
        dev: true,
      });
      assert.equal(chat.targetText, 'Data: branch "dev-ada" in dev mode (Sales)');
      // Inspect: the page answers with what it shows.
      const view = chat.inspect();
      await flush();
      const ask = p.webview.posted.filter((o) => o.type === 'inspect').at(-1);
      assert.deepEqual(ask, { type: 'inspect', requestId: 1 });
      const shown = {
        userMessages: ['q'],
        assistantTexts: [],
        finalAnswers: [],
        toolCards: [],
        notices: [],
        usage: '',
        inputDisabled: false,
        scriptElements: 1,
      };
      await p.send({ type: 'inspection', requestId: 1, view: shown });
      assert.deepEqual((await view).userMessages, ['q']);
      const counts: number[] = [];
      const sub = chat.onPainted((n) => counts.push(n));
      await p.send({ type: 'painted', count: 3 });
      sub.dispose();
      await p.send({ type: 'painted', count: 4 });
      assert.deepEqual(counts, [3]);
      chat.dispose();
    });

    it('Stop from the host stops the running turn, and does nothing without one', async () => {
      const { chat, p } = newPanel();
      await chat.stop();
      await p.send({ type: 'ready' });
      sb.faults.add({ family: 'ai', route: 'chat', latencyMs: 20_000, times: 1 });
      const asking = chat.ask('How many orders are there?');
      while (!chat.currentSession?.streaming) await flush();
      await chat.stop();
      await asking;
      assert.equal(chat.currentSession?.streaming, false);
      assert.ok(p.webview.posted.some((o) => o.type === 'aborted'));
      sb.faults.clear();
      chat.dispose();
    });

    it('a panel of no profile is titled by its agent alone', () => {
      world.active.name = '';
      const { chat, p } = newPanel();
      assert.equal(p.title, `Chat: ${agent().name}`);
      chat.dispose();
    });

    it('disposing ends the panel once, posts nothing after, and stops listening to the page', async () => {
      const { chat, p, closed } = newPanel();
      await p.send({ type: 'ready' });
      chat.dispose();
      await p.send({ type: 'copy', text: 'x', what: 'sql' });
      assert.deepEqual(hooks.clipboard, []);
      chat.dispose();
      assert.deepEqual(closed, [chat]);
      assert.equal(p.disposed, true);
      const n = p.webview.posted.length;
      chat.profileChanged('Prod');
      await flush();
      assert.equal(p.webview.posted.length, n);
    });

    it('reopens a chat from the server, with another agent when asked', async () => {
      const first = newPanel();
      await first.p.send({ type: 'ready' });
      await first.chat.ask('How many orders are there?');
      const id = first.chat.chatId!;
      first.chat.dispose();
      const { chat, p } = newPanel();
      await p.send({ type: 'ready' });
      const other = { name: 'Other agent', url: sb.urls.ai.at(-1)!.url };
      await chat.openChat(id, other);
      assert.equal(chat.agentRef.url, other.url);
      assert.equal(p.title, 'Chat: Other agent · Sandbox');
      assert.ok(
        p.webview.posted.some((o) => o.type === 'userMessage' && o.text === 'How many orders are there?'),
      );
      chat.dispose();
    });

    it('restoredState reads only a well-formed state', () => {
      assert.deepEqual(P.restoredState({ chatId: 'c', agentUrl: 'u' }), { chatId: 'c', agentUrl: 'u' });
      assert.deepEqual(P.restoredState({ chatId: 3 }), {});
      assert.deepEqual(P.restoredState(undefined), {});
    });
  });

  describe('the environment: which branch a chat uses', () => {
    const t = { deploymentId: 2, deploymentName: 'Finance', branch: 'dev-b' };
    const table: { what: string; url: string; def?: number; target: boolean }[] = [
      {
        what: "a deployment-scoped agent on the branch's deployment",
        url: 'https://h/api/v1/deployments/2/agents/1',
        target: true,
      },
      {
        what: 'a deployment-scoped agent elsewhere',
        url: 'https://h/api/v1/deployments/21/agents/1',
        target: false,
      },
      {
        what: "an agent-scoped URL, the profile's default on it",
        url: 'https://h/api/v1/public/acme/agents/1',
        def: 2,
        target: true,
      },
      {
        what: "an agent-scoped URL, the profile's default elsewhere",
        url: 'https://h/api/v1/public/acme/agents/1',
        def: 3,
        target: false,
      },
      {
        what: 'nothing known: the branch is sent',
        url: 'https://h/api/v1/public/acme/agents/1',
        target: true,
      },
      { what: 'a URL ending at the deployment', url: 'https://h/api/v1/deployments/2', target: true },
    ];
    for (const row of table) {
      it(`${row.what}: ${row.target ? 'its branch' : 'main, naming the other'}`, async () => {
        world.branch = t;
        world.active.defaultDeploymentId = row.def;
        const env = Env.chatEnvironment(world.services as never);
        assert.deepEqual(env.target(row.url), row.target ? t : undefined);
        assert.deepEqual(env.otherTarget(row.url), row.target ? undefined : t);
        await env.meta(row.url);
        assert.deepEqual(world.dataAsked, [row.target ? ['devData', 2, 'dev-b'] : ['data']]);
      });
    }

    it('no branch: main, and the lines the panel shows', () => {
      const env = Env.chatEnvironment(world.services as never);
      assert.equal(env.target('u'), undefined);
      assert.equal(env.otherTarget('u'), undefined);
      assert.deepEqual(Env.targetLine(undefined, undefined), { text: 'Data: main branch', dev: false });
      assert.deepEqual(Env.targetLine(undefined, t), {
        text: 'Data: main branch (the model\'s branch "dev-b" is on Finance, not this agent\'s deployment)',
        dev: false,
      });
      assert.equal(env.profileName(), 'Sandbox');
      world.active.name = '';
      assert.equal(env.profileName(), '');
      assert.deepEqual(env.sessionSettings(), { externalId: 'tester@example.com' });
    });

    it("the profile's agents; the sandbox is started first", async () => {
      assert.deepEqual(
        await Env.resolveAgents(world.services as never),
        world.active.agents.map((a) => ({ name: a.label, url: a.url })),
      );
      assert.equal(world.started, 1);
      world.isSandbox = false;
      await Env.resolveAgents(world.services as never);
      assert.equal(world.started, 1);
      world.active.name = '';
      assert.deepEqual(Env.profileAgents(world.services as never), []);
    });
  });

  describe('the feature', () => {
    const feature = () => new F.ChatFeature(world.services as never);

    it('one agent: opens its chat beside; a second open reveals it; a new panel goes where chats are', async () => {
      world.active.agents = [{ label: 'Analyst', url: sb.urls.ai[0]!.url }];
      const f = feature();
      const first = await f.open();
      assert.ok(first);
      assert.deepEqual(hooks.quickPicks, [], 'one agent: no pick');
      const [panel] = hooks.panels as unknown as FakePanel[];
      assert.equal(panel!.title, 'Chat: Analyst · Sandbox');
      assert.equal(await f.open(), first);
      assert.equal(panel!.revealed, 1);
      const second = await f.open({ newPanel: true });
      assert.deepEqual(created, [
        ['dashboardPlatform.chat', 'Chat: Analyst', -2, { retainContextWhenHidden: true }],
        ['dashboardPlatform.chat', 'Chat: Analyst', 2, { retainContextWhenHidden: true }],
      ]);
      assert.notEqual(second, first);
      assert.equal(hooks.panels.length, 2);
      assert.equal(f.activePanel, first, 'none active: the first');
      (hooks.panels[1] as unknown as FakePanel).active = true;
      assert.equal(f.activePanel, second, 'the active one');
      f.dispose();
      assert.deepEqual(
        (hooks.panels as unknown as FakePanel[]).map((p) => p.disposed),
        [true, true],
      );
    });

    it('a chat whose panel has no column (not shown) does not place the next one', async () => {
      world.active.agents = [{ label: 'Analyst', url: sb.urls.ai[0]!.url }];
      // The first chat is in no column, the second in column 3: the third goes beside the second.
      const columns: ('none' | number)[] = ['none', 3, 1];
      hooks.newPanel = (...a) => (
        created.push(a),
        fakePanel(columns.shift()) as unknown as Record<string, unknown>
      );
      const f = feature();
      await f.open();
      await f.open({ newPanel: true });
      await f.open({ newPanel: true });
      assert.deepEqual(
        created.map((a) => a[2]),
        [-2, -2, 3],
      );
      f.dispose();
    });

    it('several agents: picks one, described by where it runs; dismissed opens nothing', async () => {
      world.active.agents = [
        { label: 'A', url: 'https://ai.example/api/v1/public/acme/agents/1' },
        { label: 'B', url: 'https://ai.example/api/v1/public/acme/agents/2' },
      ];
      world.isSandbox = false;
      const f = feature();
      assert.equal(await f.open(), undefined);
      assert.deepEqual(
        (hooks.quickPicks[0]!.items as Record<string, unknown>[]).map((i) => [i.label, i.description]),
        [
          ['A', 'ai.example · account acme'],
          ['B', 'ai.example · account acme'],
        ],
      );
      assert.deepEqual(hooks.quickPicks[0]!.options, { title: 'Chat with which agent?' });
      hooks.pick = (items) => items[1];
      world.isSandbox = true;
      const panel = await f.open();
      assert.equal(panel?.agentRef.name, 'B');
      assert.deepEqual(
        (hooks.quickPicks[1]!.items as Record<string, unknown>[]).map((i) => i.description),
        ['Sandbox', 'Sandbox'],
      );
      f.dispose();
    });

    it('no agent: says so and offers to edit or switch the profile; an unknown agent URL is refused', async () => {
      world.active.agents = [];
      const f = feature();
      hooks.answer.warning = 'Edit Profile';
      assert.equal(await f.open(), undefined);
      hooks.answer.warning = 'Switch Profile';
      assert.equal(await f.open(), undefined);
      hooks.answer.warning = undefined;
      assert.equal(await f.open(), undefined);
      assert.deepEqual(
        hooks.shown.map((s) => [s.kind, s.message, s.actions]),
        [
          [
            'warning',
            'The active profile has no AI agent. Add an agent URL to the profile, or switch to the Sandbox profile.',
            ['Edit Profile', 'Switch Profile'],
          ],
          [
            'warning',
            'The active profile has no AI agent. Add an agent URL to the profile, or switch to the Sandbox profile.',
            ['Edit Profile', 'Switch Profile'],
          ],
          [
            'warning',
            'The active profile has no AI agent. Add an agent URL to the profile, or switch to the Sandbox profile.',
            ['Edit Profile', 'Switch Profile'],
          ],
        ],
      );
      assert.deepEqual(
        hooks.commands.map((c) => c.id),
        ['dashboardPlatform.profiles.edit', 'dashboardPlatform.profiles.switch'],
      );
      assert.equal(hooks.panels.length, 0);
      await assert.rejects(
        f.open({ agentUrl: 'https://nowhere/agents/9' }),
        /^Error: The active profile has no AI agent at https:\/\/nowhere\/agents\/9\. Edit the profile to add it\.$/,
      );
      f.dispose();
    });

    it('Ask: a typed question goes to the chat; an empty box asks nothing', async () => {
      world.active.agents = [{ label: 'Analyst', url: sb.urls.ai[0]!.url }];
      const f = feature();
      assert.equal(await f.ask({}), undefined);
      const box = hooks.inputBoxes[0] as { title: string; validateInput(v: string): string | undefined };
      assert.equal(box.title, 'Ask the AI agent');
      assert.deepEqual([box.validateInput('  '), box.validateInput('x')], ['Type a question.', undefined]);
      assert.equal(hooks.panels.length, 0);
      const asking = f.ask({ question: 'How many orders are there?' });
      await flush();
      const panel = hooks.panels[0] as unknown as FakePanel;
      await panel.send({ type: 'ready' });
      const chat = await asking;
      assert.ok(chat?.chatId);
      assert.ok(panel.webview.posted.some((o) => o.type === 'final'));
      f.dispose();
    });

    it('the history: none yet says so; a pick reopens the chat in the active panel', async () => {
      world.active.agents = [{ label: 'Analyst', url: sb.urls.ai[0]!.url }];
      const f = feature();
      await f.showHistory();
      assert.deepEqual(
        hooks.shown.map((s) => s.message),
        ['No chats in this workspace yet. Open a chat and ask a question.'],
      );
      const opening = f.ask({ question: 'How many orders are there?' });
      await flush();
      const panel = hooks.panels[0] as unknown as FakePanel;
      await panel.send({ type: 'ready' });
      const chat = (await opening)!;
      await flush();
      hooks.pick = (items) => items[0];
      panel.webview.posted.length = 0;
      await f.showHistory();
      const { items, options } = hooks.quickPicks[0]!;
      assert.deepEqual(
        (items as Record<string, unknown>[]).map((i) => [i.label, i.description]),
        [['How many orders are there?', 'Analyst']],
      );
      assert.deepEqual(options, {
        title: 'Reopen a chat',
        placeHolder: 'Chats of this workspace, newest first',
        matchOnDescription: true,
      });
      assert.ok(
        panel.webview.posted.some((o) => o.type === 'userMessage'),
        'the thread loaded again',
      );
      assert.equal(hooks.panels.length, 1, 'in the same panel');
      // Another profile's chats are not listed.
      world.active.name = 'Prod';
      hooks.shown.length = 0;
      await f.showHistory();
      assert.deepEqual(
        hooks.shown.map((s) => s.message),
        ['No chats in this workspace yet. Open a chat and ask a question.'],
      );
      assert.ok(chat.chatId);
      f.dispose();
    });

    it('a restored panel: the agent it had, else the first; none says why', async () => {
      const f = feature();
      const restored = fakePanel();
      await f.deserialize(restored as never, { agentUrl: sb.urls.ai.at(-1)!.url });
      assert.equal(restored.title, `Chat: ${sb.urls.ai.at(-1)!.name} · Sandbox`);
      const other = fakePanel();
      await f.deserialize(other as never, { agentUrl: 'https://gone' });
      assert.equal(other.title, `Chat: ${sb.urls.ai[0]!.name} · Sandbox`);
      world.active.agents = [];
      const empty = fakePanel();
      await f.deserialize(empty as never, {});
      assert.match(
        empty.webview.html,
        /This chat belongs to a profile that is not active or has no AI agent\./,
      );
      f.dispose();
    });

    it('a restored panel with a chat reloads it; open panels hear of a profile change', async () => {
      const f = feature();
      const first = fakePanel();
      const asking = f.ask({ question: 'How many orders are there?', agentUrl: sb.urls.ai[0]!.url });
      await flush();
      await (hooks.panels[0] as unknown as FakePanel).send({ type: 'ready' });
      const chatId = (await asking)!.chatId!;
      await f.deserialize(first as never, { chatId, agentUrl: sb.urls.ai[0]!.url });
      await first.send({ type: 'ready' });
      while (!first.webview.posted.some((o) => o.type === 'turnEnded')) await flush();
      assert.ok(
        first.webview.posted.some((o) => o.type === 'userMessage' && o.text === 'How many orders are there?'),
      );
      const fresh = fakePanel();
      await f.deserialize(fresh as never, { agentUrl: sb.urls.ai[0]!.url });
      await fresh.send({ type: 'ready' });
      await flush();
      assert.ok(!fresh.webview.posted.some((o) => o.type === 'turnStarted'), 'no chat: nothing loaded');
      world.fire('active', { profile: { name: 'Prod' } });
      world.fire('active', undefined);
      await flush();
      assert.deepEqual(
        fresh.webview.posted.filter((o) => o.type === 'profile'),
        [
          { type: 'profile', own: 'Sandbox', active: 'Prod' },
          { type: 'profile', own: 'Sandbox', active: '' },
        ],
      );
      f.dispose();
    });

    it('registers its commands; New Chat and Stop act on the open chat', async () => {
      world.active.agents = [{ label: 'Analyst', url: sb.urls.ai[0]!.url }];
      const { feature: f, disposables } = F.createChatFeature(world.services as never);
      assert.equal(
        await hooks.registered['dashboardPlatform.chat.stop']!(),
        undefined,
        'no chat: nothing to stop',
      );
      const newChat = hooks.registered['dashboardPlatform.chat.newChat']!();
      await flush();
      const panel = hooks.panels[0] as unknown as FakePanel;
      await panel.send({ type: 'ready' });
      await newChat;
      assert.ok(panel.webview.posted.some((o) => o.type === 'reset'));
      await hooks.registered['dashboardPlatform.chat.stop']!();
      await hooks.registered['dashboardPlatform.chat.openSqlInNotebook']!({ sql: 'SELECT 9' });
      assert.equal(
        (hooks.opened[0] as { data: { cells: { value: string }[] } }).data.cells[0]!.value,
        'SELECT 9',
      );
      assert.equal(f.activePanel?.panel, panel as never);
      assert.deepEqual(Object.keys(hooks.registered).sort(), [
        'dashboardPlatform.chat.ask',
        'dashboardPlatform.chat.history',
        'dashboardPlatform.chat.newChat',
        'dashboardPlatform.chat.open',
        'dashboardPlatform.chat.openSqlInNotebook',
        'dashboardPlatform.chat.stop',
      ]);
      for (const d of disposables) d.dispose();
    });
  });

  describe('Open in notebook', () => {
    it('no SQL: says so and opens nothing', async () => {
      assert.equal(await O.openSqlInNotebook('  '), undefined);
      assert.equal(await O.openSqlInNotebook(undefined), undefined);
      assert.deepEqual(
        hooks.shown.map((s) => [s.kind, s.message]),
        [
          ['warning', 'There is no SQL to open: the tool call carried none.'],
          ['warning', 'There is no SQL to open: the tool call carried none.'],
        ],
      );
      assert.deepEqual([hooks.edits, hooks.opened], [[], []]);
    });

    it('adds a SQL cell at the end of the active query notebook, shown and selected', async () => {
      const nb = fakeNotebook({}, [{}, {}]);
      const editor = {
        notebook: nb,
        revealed: [] as unknown[],
        selection: undefined as unknown,
        revealRange: (r: unknown, how: unknown) => editor.revealed.push([r, how]),
      };
      hooks.activeNotebookEditor = editor;
      assert.equal(await O.openSqlInNotebook('SELECT 3'), editor);
      assert.equal(hooks.edits.length, 1);
      const [uri, edits] = hooks.edits[0]!;
      assert.equal(uri, nb.uri);
      assert.deepEqual(JSON.parse(JSON.stringify(edits)), [
        {
          type: 'insertCells',
          index: 2,
          cells: [{ kind: 2, value: 'SELECT 3', languageId: 'dashboard-platform-sql' }],
        },
      ]);
      assert.deepEqual(JSON.parse(JSON.stringify(editor.revealed)), [[{ start: 2, end: 3 }, 2]]);
      assert.deepEqual(JSON.parse(JSON.stringify(editor.selection)), { start: 2, end: 3 });
      assert.deepEqual(hooks.opened, []);
    });

    it('otherwise opens a new query notebook with the cell', async () => {
      hooks.activeNotebookEditor = { notebook: { ...fakeNotebook(), notebookType: 'jupyter-notebook' } };
      await O.openSqlInNotebook('SELECT 4');
      assert.deepEqual(hooks.edits, []);
      const doc = hooks.opened[0] as { notebookType: string; data: { cells: unknown[] } };
      assert.equal(doc.notebookType, 'dashboard-platform-notebook');
      assert.deepEqual(JSON.parse(JSON.stringify(doc.data.cells)), [
        { kind: 2, value: 'SELECT 4', languageId: 'dashboard-platform-sql' },
      ]);
    });
  });

  describe('the status entry and the restored panels', () => {
    it('shows Chat while the profile has agents or is the sandbox, and follows changes', async () => {
      const s = world.services as { context: { subscriptions: unknown[] } };
      const reg = Idx.register(s as never);
      const item = hooks.statusItems.find((i) => i.id === 'dashboardPlatform.chat')!;
      assert.deepEqual(
        [item.name, item.text, item.tooltip, item.command, item.alignment, item.priority, item.visible],
        [
          'Dashboard Platform Chat',
          '$(comment-discussion) Chat',
          'Chat with an AI agent of the active profile',
          'dashboardPlatform.chat.open',
          1,
          99,
          true,
        ],
      );
      world.isSandbox = false;
      world.active.agents = [];
      world.fire('active');
      assert.equal(item.visible, false);
      world.active.agents = [{ label: 'A', url: 'https://a' }];
      world.fire('sandbox');
      assert.equal(item.visible, true);
      // A restored panel loads the feature and adopts the panel.
      const restored = fakePanel();
      const serializer = (
        hooks as unknown as {
          panelSerializer?: [string, { deserializeWebviewPanel(p: unknown, s: unknown): Promise<void> }];
        }
      ).panelSerializer;
      assert.equal(serializer?.[0], 'dashboardPlatform.chat');
      await serializer![1].deserializeWebviewPanel(restored, {});
      assert.equal(reg.feature.activePanel?.agentRef.url, 'https://a');
      for (const d of reg.disposables) d.dispose();
    });
  });
});
