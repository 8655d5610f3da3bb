// AI API client: streams a chat turn as typed events (deltas merged by message id, tool calls
// parsed, sentinels decoded), aborts a running turn, and reads a thread's state.
import { ApiError, isApiError } from './errors';
import { redact } from './log';
import { HttpClient, type ClientOptions } from './http';
import { ndjsonLines } from './ndjson';
import {
  ChatLineSchema,
  MESSAGE_ID_PATTERN,
  UsageSchema,
  type ChatEvent,
  type ChatLine,
  type ChatMessage,
  type ParsedToolCall,
  type SessionSettings,
} from './schemas/ai';

export type { ChatEvent, ChatMessage, SessionSettings } from './schemas/ai';

/** The `code` of the ApiError a chat stream ends with when it was cut off mid-answer. */
export const CUT_OFF = 'CHAT_CUT_OFF';

/** `baseUrl`: `.../api/v1/public/{account}/agents/{agentId}`. */
export interface AiClientOptions extends ClientOptions {
  apiKey: () => Promise<string | undefined>;
}

export interface StreamChatRequest {
  input?: string;
  chatId?: string;
  /** `<13+ digit ms timestamp>-message`; generated for a new input when absent. */
  messageId?: string;
  sessionSettings: SessionSettings;
  /** A development branch to run the agent's queries against (the main branch when absent). */
  activeBranchName?: string;
  /** Whether `activeBranchName` is the default branch (the service assumes true when unset). */
  isDefaultBranch?: boolean;
}

let lastStamp = 0;
/** A fresh message id: `<ms timestamp>-message`, strictly increasing within the process. */
export function newMessageId(now = Date.now()): string {
  lastStamp = Math.max(now, lastStamp + 1);
  return `${lastStamp}-message`;
}

export function isValidMessageId(id: string): boolean {
  return MESSAGE_ID_PATTERN.test(id);
}

/** Parses a tool's JSON-string input/result, keeping the raw strings. */
export function parseToolCall(tc: { name: string; input?: string; result?: string }): ParsedToolCall {
  const parse = (raw: string): unknown => {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return raw;
    }
  };
  const rawInput = tc.input ?? '';
  const out: ParsedToolCall = { name: tc.name, input: rawInput ? parse(rawInput) : undefined, rawInput };
  if (tc.result !== undefined) {
    out.rawResult = tc.result;
    out.result = parse(tc.result);
    const r = out.result as { error?: unknown } | null;
    if (r && typeof r === 'object' && typeof r.error === 'string') out.error = r.error;
  }
  return out;
}

const isFinalPath = (m: ChatLine): boolean =>
  Array.isArray(m.graphPath) && m.graphPath[0] === 'final' && m.graphPath.length <= 2;

/** Turns stream lines into events; keeps the merged messages of the turn. */
export class ChatStreamState {
  readonly messages = new Map<string, ChatMessage>();
  chatId: string | undefined;
  private finalSent = new Map<string, string>(); // id -> content when its 'final' was emitted
  lastFinal: ChatMessage | undefined;
  /** A terminal line (usage, aborted, suspended, error) was read: the turn ended on the server. */
  terminal = false;
  /** The final answer arrived complete (not a delta, or a delta no longer in process). */
  finalComplete = false;
  /** Lines read, and lines that were chat messages or markers this client knows. */
  lines = 0;
  recognised = 0;

  constructor(chatId?: string) {
    this.chatId = chatId;
  }

  *accept(raw: unknown, line: number, messageId?: string): Generator<ChatEvent> {
    const parsed = ChatLineSchema.safeParse(raw);
    if (!parsed.success) {
      throw new ApiError('protocol', `Line ${line} of the chat stream is not a chat message object.`, {
        line,
      });
    }
    const m = parsed.data;
    const id = m.id;
    this.lines++;
    if (id === undefined) {
      if (typeof m.error === 'string') {
        this.recognised++;
        this.terminal = true;
        yield { type: 'error', message: redact(m.error) };
      }
      return; // unknown id-less line: ignore
    }
    this.recognised++;
    if (id === '__usage__' || m.type === 'usage' || id === '__aborted__' || m.type === 'abort')
      this.terminal = true;
    if (id === '__suspended__' || m.type === 'suspend') this.terminal = true;
    if (id === '__cutoff__') {
      const state = m.state ?? {};
      if (typeof state.chatId === 'string') this.chatId = state.chatId;
      const suspended = state.suspended as { messageId?: unknown } | undefined;
      yield {
        type: 'cutoff',
        chatId: this.chatId,
        isStreaming: typeof state.isStreaming === 'boolean' ? state.isStreaming : undefined,
        ...(typeof suspended?.messageId === 'string' ? { suspendedMessageId: suspended.messageId } : {}),
      };
      return;
    }
    if (id === '__usage__' || m.type === 'usage') {
      const usage = UsageSchema.safeParse(m.usage ?? {});
      yield { type: 'usage', usage: usage.success ? usage.data : {} };
      return;
    }
    if (id === '__aborted__' || m.type === 'abort') {
      yield { type: 'aborted' };
      return;
    }
    if (id === '__suspended__' || m.type === 'suspend') {
      yield {
        type: 'suspended',
        retryable: m.retryable ?? true,
        chatId: this.chatId,
        messageId: m.messageId ?? messageId,
        ...(m.error ? { reason: redact(m.error) } : {}),
      };
      return;
    }
    if (id === '__state__') return; // a snapshot of the thread; the merged messages already hold it
    if (typeof m.error === 'string' && m.content === undefined && m.toolCall === undefined) {
      this.terminal = true;
      yield { type: 'error', message: redact(m.error) };
      return;
    }

    const prev = this.messages.get(id);
    let merged: ChatMessage;
    let delta: string | undefined;
    if (m.isDelta && prev) {
      delta = m.content ?? '';
      merged = {
        ...prev,
        ...m,
        id,
        content: (prev.content ?? '') + (m.content ?? ''),
        ...(m.thinking !== undefined || prev.thinking !== undefined
          ? { thinking: (prev.thinking ?? '') + (m.thinking ?? '') }
          : {}),
        toolCall: m.toolCall ?? prev.toolCall,
      };
    } else {
      if (m.isDelta) delta = m.content ?? '';
      merged = { ...m, id };
    }
    this.messages.set(id, merged);

    if (merged.toolCall && typeof merged.toolCall.name === 'string') {
      yield { type: 'toolCall', message: merged, toolCall: parseToolCall(merged.toolCall) };
    } else {
      yield delta !== undefined
        ? { type: 'message', message: merged, delta }
        : { type: 'message', message: merged };
    }
    if (merged.role === 'assistant' && isFinalPath(merged)) {
      this.lastFinal = merged;
      // Final only when no longer in process (a full message counts unless it says it is).
      const complete = m.isInProcess === false || (!m.isDelta && m.isInProcess !== true);
      if (complete) this.finalComplete = true;
      if (complete && this.finalSent.get(id) !== merged.content) {
        this.finalSent.set(id, merged.content ?? '');
        yield { type: 'final', message: merged };
      }
    }
  }

  /**
   * At the end of the stream: the final answer if it was only ever sent as deltas and a terminal
   * line closed the turn. A stream that ends with neither a terminal line nor a complete final
   * answer was cut off: an error, never a partial answer shown as final.
   */
  *finish(turn = true): Generator<ChatEvent> {
    // A state read (no input) is a snapshot, complete as it is.
    if (turn && !this.terminal && !this.finalComplete) {
      if (this.lines > 0 && this.recognised === 0) {
        throw new ApiError(
          'protocol',
          `None of the ${this.lines} lines of the agent's answer was a chat message this extension knows. The service may be newer than this extension; update it.`,
          { code: 'CHAT_UNRECOGNISED' },
        );
      }
      throw new ApiError(
        'protocol',
        'The answer was cut off before it was complete. Resume to load the rest of it, or retry.',
        { code: CUT_OFF },
      );
    }
    const f = this.lastFinal;
    if (f && this.finalSent.get(f.id) !== f.content) {
      this.finalSent.set(f.id, f.content ?? '');
      yield { type: 'final', message: f };
    }
  }
}

export class AiClient {
  readonly http: HttpClient;

  constructor(opts: AiClientOptions) {
    const { apiKey, ...rest } = opts;
    this.http = new HttpClient({ ...rest, family: 'ai', auth: apiKey });
  }

  /**
   * `POST .../chat/stream-chat-state` as events. Resume a suspended turn by calling again with the
   * same `chatId` and `messageId`. Never retried automatically (it starts work on the server).
   */
  async *streamChat(req: StreamChatRequest, signal?: AbortSignal): AsyncGenerator<ChatEvent> {
    if (req.messageId !== undefined && !isValidMessageId(req.messageId)) {
      throw new ApiError(
        'validation',
        `The message id "${req.messageId}" is not valid: it must look like <13+ digit ms timestamp>-message.`,
        { code: 'BAD_MESSAGE_ID' },
      );
    }
    if (req.input === undefined && !req.chatId) {
      throw new ApiError('validation', 'Reading a chat needs a chat id (or send an input to start one).', {
        code: 'NO_CHAT_ID',
      });
    }
    const messageId = req.messageId ?? (req.input !== undefined ? newMessageId() : undefined);
    const body: Record<string, unknown> = { sessionSettings: req.sessionSettings };
    if (req.input !== undefined) body.input = req.input;
    if (req.chatId) body.chatId = req.chatId;
    if (messageId) body.messageId = messageId;
    if (req.activeBranchName !== undefined) {
      body.activeBranchName = req.activeBranchName;
      body.isDefaultBranch = req.isDefaultBranch ?? false;
    }
    // A turn (with input) is a write; reading a thread's state is not, and may be retried.
    const send =
      req.input !== undefined ? this.http.writeStream.bind(this.http) : this.http.request.bind(this.http);
    const res = await send({
      method: 'POST',
      path: '/chat/stream-chat-state',
      body,
      signal,
      ...(req.input === undefined ? { idempotent: true } : {}),
      action: req.input !== undefined ? 'The chat request' : 'Loading the chat',
      check: {
        hint: 'Reload the chat to see whether the agent received the message before sending it again.',
      },
      messages: {
        conflict: 'This chat is still answering a previous message. Wait for it or stop it first.',
      },
    });
    const state = new ChatStreamState(req.chatId);
    try {
      for await (const { value, line } of ndjsonLines(res.body)) {
        yield* state.accept(value, line, messageId);
      }
    } catch (e) {
      // Mid-answer the turn is already running on the server: sending it again would start a second
      // one, so a broken stream is a cut-off answer (resume it), not a "try again".
      if (req.input === undefined || !isApiError(e) || e.kind === 'cancelled' || state.terminal) throw e;
      const reason = e.message.replace(/\s*(The response may have been cut off; )?try again\.?/gi, '').trim();
      throw new ApiError(
        'protocol',
        `The answer was cut off (${reason.replace(/\.$/, '')}). Resume to load the rest of it, or retry.`,
        { code: CUT_OFF, cause: e, line: e.line, requestId: e.requestId },
      );
    }
    yield* state.finish(req.input !== undefined);
  }

  /** The current state of a thread (streamChat without input). */
  getChatState(
    chatId: string,
    sessionSettings: SessionSettings,
    signal?: AbortSignal,
  ): AsyncGenerator<ChatEvent> {
    return this.streamChat({ chatId, sessionSettings }, signal);
  }

  /** `POST .../chat/abort`: stops the running turn of `chatId` (204). */
  async abort(chatId: string, sessionSettings: SessionSettings, signal?: AbortSignal): Promise<void> {
    await this.http.writeNoContent({
      method: 'POST',
      path: '/chat/abort',
      body: { chatId, sessionSettings },
      signal,
      forbiddenHint: 'Only the user who started this chat can stop it: use the profile of that user.',
      messages: { notFound: 'This chat is unknown to the agent; it may have expired.' },
    });
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
