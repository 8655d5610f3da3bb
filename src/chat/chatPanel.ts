// The "Dashboard Platform Chat" webview panel: one ChatSession per panel, the page made by the
// shared webview helper, messages parsed with the shared protocol both ways.
import * as vscode from 'vscode';
import {
  chatPanelState,
  webviewToHost,
  type HostToWebview,
  type TranscriptView,
  type WebviewToHost,
} from '../shared/chatProtocol';
import { webviewOptions, webviewPageHtml } from '../ui/webviewHtml';
import type { ChatHistory } from './chatHistory';
import { ChatSession } from './chatSession';
import { starterPrompts } from './starterPrompts';
import { targetLine, type AgentRef, type ChatEnvironment } from './chatEnvironment';

export const CHAT_VIEW_TYPE = 'dashboardPlatform.chat';

export class ChatPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private session: ChatSession | undefined;
  private readyResolve!: () => void;
  /** Resolves once the page has sent `ready`; nothing is posted before. */
  readonly ready = new Promise<void>((resolve) => (this.readyResolve = resolve));
  private readonly paintedListeners = new Set<(count: number) => void>();
  private disposed = false;
  private inspectSeq = 0;
  private readonly inspections = new Map<number, (view: TranscriptView) => void>();
  /** The profile whose agent this panel talks to (its client is made for that profile). */
  readonly profileName: string;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private agent: AgentRef,
    private readonly env: ChatEnvironment,
    private readonly history: ChatHistory,
    private readonly onDispose: (panel: ChatPanel) => void,
  ) {
    this.profileName = env.profileName();
    panel.webview.options = webviewOptions(env.extensionUri);
    panel.iconPath = new vscode.ThemeIcon('comment-discussion');
    panel.webview.html = webviewPageHtml({
      webview: panel.webview,
      extensionUri: env.extensionUri,
      name: 'chat',
      title: 'Dashboard Platform Chat',
      imgSrc: env.allowRemoteImages() ? ['https:'] : [],
    });
    this.disposables.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      panel.onDidDispose(() => this.dispose()),
      // The model's dev branch changed: say what the agent now answers from, with its starters.
      env.onDidChangeTarget(() => {
        void this.ready.then(() => {
          this.postTarget();
          void this.sendStarters();
        });
      }),
    );
    this.updateTitle();
  }

  get agentRef(): AgentRef {
    return this.agent;
  }

  get chatId(): string | undefined {
    return this.session?.chatId;
  }

  get currentSession(): ChatSession | undefined {
    return this.session;
  }

  /** Waits for the next `painted` acknowledgements until `count` operations are on screen. */
  onPainted(listener: (count: number) => void): vscode.Disposable {
    this.paintedListeners.add(listener);
    return new vscode.Disposable(() => this.paintedListeners.delete(listener));
  }

  /** Asks the page what it shows (the real DOM, as text). */
  async inspect(): Promise<TranscriptView> {
    await this.ready;
    const requestId = ++this.inspectSeq;
    return new Promise<TranscriptView>((resolve) => {
      this.inspections.set(requestId, resolve);
      this.post({ type: 'inspect', requestId });
    });
  }

  /** Sends a question as if typed (used by commands and tests). */
  async ask(text: string): Promise<void> {
    await this.ready;
    await this.sendQuestion(text);
  }

  private async sendQuestion(text: string): Promise<void> {
    // The walkthrough's "Ask the AI agent" step completes on a question asked, not on opening the chat.
    void vscode.commands.executeCommand('setContext', 'dashboardPlatform.chat.asked', true);
    await (await this.ensureSession()).send(text);
  }

  async stop(): Promise<void> {
    await this.session?.stop();
  }

  async openChat(chatId: string, agent?: AgentRef): Promise<void> {
    if (agent && agent.url !== this.agent.url) {
      this.agent = agent;
      this.session = undefined;
      this.updateTitle();
    }
    await this.ready;
    this.postTarget();
    await (await this.ensureSession()).load(chatId, this.history.stoppedTurns(chatId));
  }

  async newChat(): Promise<void> {
    await this.ready;
    (await this.ensureSession()).newChat();
  }

  private post(op: HostToWebview): void {
    if (!this.disposed) void this.panel.webview.postMessage(op);
  }

  private async ensureSession(): Promise<ChatSession> {
    if (this.session) return this.session;
    const client = await this.env.aiClient(this.agent.url);
    const sessionSettings = this.env.sessionSettings();
    const agent = this.agent;
    this.session = new ChatSession({
      client,
      sessionSettings,
      post: (op) => this.post(op),
      log: this.env.log,
      branch: () => this.env.target(this.agent.url)?.branch,
      onTurnEnded: (chatId, firstInput, stoppedTurn) => {
        if (!chatId) return;
        void this.history.record({
          chatId,
          agentUrl: agent.url,
          agentName: agent.name,
          title: firstInput ? firstInput.slice(0, 80) : chatId,
          // The chat belongs to the profile its client was made for, not the one active now.
          profile: this.profileName,
          ...(stoppedTurn ? { stopped: [stoppedTurn] } : {}),
        });
      },
    });
    return this.session;
  }

  private async receive(raw: unknown): Promise<void> {
    const parsed = webviewToHost.safeParse(raw);
    if (!parsed.success) {
      this.env.log.warn(`Chat panel sent an unexpected message: ${parsed.error.issues[0]?.message ?? ''}`);
      return;
    }
    const msg: WebviewToHost = parsed.data;
    try {
      switch (msg.type) {
        case 'ready':
          this.post({
            type: 'init',
            agentName: this.agent.name,
            agentUrl: this.agent.url,
            chatId: this.session?.chatId,
            allowRemoteImages: this.env.allowRemoteImages(),
            profileName: this.profileName,
          });
          this.postTarget();
          this.readyResolve();
          void this.sendStarters();
          break;
        case 'send':
          await this.sendQuestion(msg.text);
          break;
        case 'stop':
          await this.session?.stop();
          break;
        case 'resume':
          await this.session?.resume();
          break;
        case 'retry':
          await this.session?.retry();
          break;
        case 'newChat':
          await this.newChat();
          break;
        case 'history':
          await vscode.commands.executeCommand('dashboardPlatform.chat.history');
          break;
        case 'openInNotebook':
          await vscode.commands.executeCommand('dashboardPlatform.chat.openSqlInNotebook', { sql: msg.sql });
          break;
        case 'copy':
          await vscode.env.clipboard.writeText(msg.text);
          void vscode.window.setStatusBarMessage(
            msg.what === 'sql' ? 'SQL copied' : 'Table copied as CSV',
            3000,
          );
          break;
        case 'painted':
          for (const listener of this.paintedListeners) listener(msg.count);
          break;
        case 'inspection':
          this.inspections.get(msg.requestId)?.(msg.view);
          this.inspections.delete(msg.requestId);
          break;
      }
    } catch (e) {
      this.env.showError(e);
    }
  }

  private updateTitle(): void {
    this.panel.title = `Chat: ${this.agent.name}${this.profileName ? ` · ${this.profileName}` : ''}`;
  }

  /** What the agent's queries run against, as the panel's header says it. */
  get targetText(): string {
    return targetLine(this.env.target(this.agent.url), this.env.otherTarget(this.agent.url)).text;
  }

  private postTarget(): void {
    this.post({
      type: 'target',
      ...targetLine(this.env.target(this.agent.url), this.env.otherTarget(this.agent.url)),
    });
  }

  /** Starter prompts from the model's cubes; a chat that cannot read the model just has none. */
  private async sendStarters(): Promise<void> {
    try {
      const prompts = starterPrompts(await this.env.meta(this.agent.url));
      if (prompts.length > 0) this.post({ type: 'starters', prompts });
    } catch (e) {
      this.env.log.info(`No starter prompts: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /**
   * The active profile changed: the banner names it while it is not this panel's, and goes away
   * when the user switches back.
   */
  profileChanged(active: string): void {
    void this.ready.then(() => this.post({ type: 'profile', own: this.profileName, active }));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    void this.session?.stop();
    this.onDispose(this);
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
  }
}

/** State saved by the page (chatId, agent) so a reload reopens the same conversation. */
export function restoredState(state: unknown): { chatId?: string; agentUrl?: string } {
  const parsed = chatPanelState.safeParse(state);
  return parsed.success ? parsed.data : {};
}
