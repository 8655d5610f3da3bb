// One conversation with one agent: runs turns over the AI client's event stream and turns each
// event into a small render operation for the webview. No `vscode` import, so it is unit-tested
// in plain Node against the sandbox.
import type { AiClient, ChatEvent, SessionSettings } from '../api';
import { CUT_OFF, explainSessionRefusal, isApiError, newMessageId, redact, redactDeep } from '../api';
import { rollupsUsed } from '../api/schemas/data';
import type { HostToWebview, ToolResult } from '../shared/chatProtocol';

export interface ChatSessionDeps {
  client: Pick<AiClient, 'streamChat' | 'abort' | 'getChatState'>;
  sessionSettings: SessionSettings;
  post(op: HostToWebview): void;
  log?: { warn(message: string): void };
  /** The dev branch a turn's queries run against (read at each turn), else the main branch. */
  branch?(): string | undefined;
  /**
   * Called when a turn ends with the chat's id (to record it in the history), and the turn's
   * messageId when the user stopped it.
   */
  onTurnEnded?(chatId: string | undefined, firstInput: string | undefined, stoppedTurn?: string): void;
}

interface Turn {
  input: string | undefined;
  messageId: string;
}

/** A thread being loaded: which turns the user stopped, and the one being drawn. */
interface Loading {
  stopped: ReadonlySet<string>;
  /** The user message whose turn is being drawn, and whether it was shown as stopped. */
  current?: string;
  shownStopped: boolean;
}

export class ChatSession {
  chatId: string | undefined;
  private controller: AbortController | undefined;
  private lastTurn: Turn | undefined;
  private suspendedTurn: Turn | undefined;
  private firstInput: string | undefined;
  private running: Promise<void> | undefined;
  private stoppedByUser = false;
  private loading: Loading | undefined;

  constructor(private readonly deps: ChatSessionDeps) {}

  get streaming(): boolean {
    return this.controller !== undefined;
  }

  /** Resolves when the current turn (if any) has ended. */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  send(text: string): Promise<void> {
    this.firstInput ??= text;
    return this.run({ input: text, messageId: newMessageId() });
  }

  /** Resumes a suspended turn: the same chatId and messageId, as the API asks. */
  resume(): Promise<void> {
    const turn = this.suspendedTurn;
    if (!turn) return Promise.resolve();
    return this.run(turn);
  }

  /** Sends the last turn's input again after a failure. */
  retry(): Promise<void> {
    const turn = this.lastTurn;
    if (!turn?.input) return Promise.resolve();
    return this.run({ input: turn.input, messageId: newMessageId() });
  }

  /** Stops the running turn at once and tells the server to abort it. */
  async stop(): Promise<void> {
    const controller = this.controller;
    if (!controller) return;
    this.stoppedByUser = true;
    controller.abort();
    if (this.chatId) {
      try {
        await this.deps.client.abort(this.chatId, this.deps.sessionSettings);
      } catch (e) {
        this.deps.log?.warn(
          `Aborting chat ${this.chatId} failed: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
    }
    await this.idle();
  }

  newChat(): void {
    this.controller?.abort();
    this.chatId = undefined;
    this.lastTurn = undefined;
    this.suspendedTurn = undefined;
    this.firstInput = undefined;
    this.deps.post({ type: 'reset' });
  }

  /**
   * Loads a chat's current state from the server (history, reload) and renders it; the turns in
   * `stopped` (user messageIds) are shown as stopped, as they were when the user stopped them.
   */
  load(chatId: string, stopped: readonly string[] = []): Promise<void> {
    this.newChat();
    this.chatId = chatId;
    this.loading = { stopped: new Set(stopped), shownStopped: false };
    return this.consume(undefined, (signal) =>
      this.deps.client.getChatState(chatId, this.deps.sessionSettings, signal),
    );
  }

  private run(turn: Turn): Promise<void> {
    if (this.controller) return Promise.resolve();
    this.lastTurn = turn;
    this.suspendedTurn = undefined;
    return this.consume(turn, (signal) =>
      this.deps.client.streamChat(
        {
          input: turn.input,
          chatId: this.chatId,
          messageId: turn.messageId,
          sessionSettings: this.deps.sessionSettings,
          ...branchFields(this.deps.branch?.()),
        },
        signal,
      ),
    );
  }

  private consume(
    turn: Turn | undefined,
    open: (signal: AbortSignal) => AsyncIterable<ChatEvent>,
  ): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    const post = (op: HostToWebview) => this.deps.post(redactDeep(op));
    post({
      type: 'turnStarted',
      turnId: turn?.messageId ?? `load-${this.chatId ?? ''}`,
      userText: turn?.input,
    });
    const work = (async () => {
      let endedByServer = false;
      try {
        for await (const event of open(controller.signal)) {
          if (controller.signal.aborted) break;
          endedByServer = this.render(event, turn) || endedByServer;
        }
        if (controller.signal.aborted && !endedByServer) post({ type: 'aborted' });
        else if (!turn) this.endLoadedTurn();
      } catch (e) {
        if (controller.signal.aborted || (isApiError(e) && e.kind === 'cancelled')) {
          if (!endedByServer) post({ type: 'aborted' });
        } else {
          // Every message shown goes through redact: it removes every credential sent so far.
          post({
            type: 'error',
            message: redact(explainSessionRefusal(e instanceof Error ? e.message : String(e))),
            retryable: turn?.input !== undefined,
          });
          if (isApiError(e) && e.code === CUT_OFF && (turn ?? this.lastTurn)) {
            // The server may still hold the rest: the same chatId and messageId pick it up.
            this.suspendedTurn = turn ?? this.lastTurn;
            post({ type: 'suspended', reason: 'Resume to load the rest of the answer.' });
          }
        }
      } finally {
        const stopped = this.stoppedByUser && turn ? turn.messageId : undefined;
        this.stoppedByUser = false;
        this.loading = undefined;
        this.controller = undefined;
        this.running = undefined;
        post({ type: 'turnEnded', chatId: this.chatId });
        this.deps.onTurnEnded?.(this.chatId, this.firstInput, stopped);
      }
    })();
    this.running = work;
    return work;
  }

  /**
   * In a loaded thread, the turn being drawn ends (at the next user message `next`, or at the end of
   * the thread): a turn the user stopped is shown as stopped, not as an answer.
   */
  private endLoadedTurn(next?: string): void {
    const l = this.loading;
    if (!l) return;
    if (l.current !== undefined && l.stopped.has(l.current) && !l.shownStopped)
      this.deps.post({ type: 'aborted' });
    l.current = next;
    l.shownStopped = false;
  }

  /** Renders one event; true when it is a terminal marker (aborted, suspended). */
  private render(event: ChatEvent, turn: Turn | undefined): boolean {
    const post = (op: HostToWebview) => this.deps.post(redactDeep(op));
    switch (event.type) {
      case 'cutoff':
        if (event.chatId) this.chatId = event.chatId;
        return false;
      case 'message': {
        const m = event.message;
        // The final answer arrives as a 'final' event too, rendered as markdown there.
        if (m.graphPath?.[0] === 'final') return false;
        if (m.role === 'user') {
          if (!turn) this.endLoadedTurn(m.id);
          post({ type: 'userMessage', id: m.id, text: m.content ?? '' });
        } else if (event.delta !== undefined && m.isDelta) {
          post({
            type: 'assistantText',
            id: m.id,
            delta: event.delta,
            thinking: m.thinking ?? undefined,
            inProcess: true,
          });
        } else {
          post({
            type: 'assistantText',
            id: m.id,
            text: m.content ?? '',
            thinking: m.thinking ?? undefined,
            inProcess: m.isInProcess === true,
          });
        }
        return false;
      }
      case 'toolCall': {
        const { toolCall, message } = event;
        const input = toolCall.input;
        const sql =
          input && typeof input === 'object' && typeof (input as { sql?: unknown }).sql === 'string'
            ? (input as { sql: string }).sql
            : undefined;
        post({
          type: 'toolCall',
          id: message.id,
          name: toolCall.name,
          input,
          sql,
          result: asToolResult(toolCall.result),
          resultText: toolCall.rawResult,
        });
        return false;
      }
      case 'final':
        // A turn the user stopped stays stopped: an answer the server finished after the stop (the
        // abort came too late) is not shown, as it was not when they stopped it.
        if (!turn && this.loading?.current !== undefined && this.loading.stopped.has(this.loading.current))
          return false;
        post({ type: 'final', id: event.message.id, markdown: event.message.content ?? '' });
        return false;
      case 'usage':
        // A thread read's usage frame is all zeros: it is no turn's usage.
        if (turn) post({ type: 'usage', usage: event.usage });
        return false;
      case 'suspended':
        this.suspendedTurn = turn ?? this.lastTurn;
        post({ type: 'suspended' });
        return true;
      case 'aborted':
        if (this.loading) {
          if (this.loading.shownStopped) return false;
          this.loading.shownStopped = true;
        }
        post({ type: 'aborted' });
        // In a loaded thread a marker ends one turn, not the read.
        return turn !== undefined;
      case 'error':
        post({
          type: 'error',
          message: redact(explainSessionRefusal(event.message)),
          retryable: turn?.input !== undefined,
        });
        return true;
    }
  }
}

function asToolResult(result: unknown): ToolResult | undefined {
  if (!result || typeof result !== 'object' || Array.isArray(result)) return undefined;
  const r = result as Record<string, unknown>;
  const out: ToolResult = {};
  if (typeof r.error === 'string') out.error = r.error;
  if (Array.isArray(r.schema)) {
    out.schema = r.schema.filter(
      (c): c is { name: string } =>
        !!c && typeof c === 'object' && typeof (c as { name?: unknown }).name === 'string',
    );
  }
  if (Array.isArray(r.data)) out.data = r.data.filter((row): row is unknown[] => Array.isArray(row));
  if (typeof r.totalRows === 'number') out.totalRows = r.totalRows;
  if (r.vegaSpec !== undefined) out.vegaSpec = r.vegaSpec;
  // The engine's usedPreAggregations, as the agent passes it on: a badge with the rollup and its age.
  const rollups = rollupsUsed(r).map((u) => ({
    id: u.id,
    ...(u.lastUpdatedAt !== undefined ? { builtAt: new Date(u.lastUpdatedAt).toISOString() } : {}),
  }));
  if (rollups.length) out.rollups = rollups;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The request fields that point the agent at a dev branch (none: the main branch). */
function branchFields(branch: string | undefined): { activeBranchName?: string; isDefaultBranch?: boolean } {
  return branch ? { activeBranchName: branch, isDefaultBranch: false } : {};
}
