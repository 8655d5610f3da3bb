// Forwards one question to the platform's AI agent and writes the answer to a chat response: the
// final answer streamed line by line as Markdown, each tool call once with its SQL and a small
// table, progress for the rest. Consumes AiClient.streamChat the way src/chat/chatSession.ts does
// (chat id from the cut-off line, final answer from the 'final' path). vscode-free, so it is
// unit-tested in plain Node against the sandbox.
import type { AiClient, ChatEvent, SessionSettings } from '../api/aiClient';
import type { ChatUsage } from '../api/schemas/ai';
import { excerpt } from '../api/log';
import { fenced, markdownTable } from './tools/format';

export interface ResponseSink {
  markdown(text: string): void;
  progress(text: string): void;
}

export interface TurnRequest {
  input: string;
  chatId?: string;
  sessionSettings: SessionSettings;
}

export interface TurnOutcome {
  chatId?: string;
  usage?: ChatUsage;
  /** The agent's error message, when the turn failed. */
  error?: string;
  suspended?: boolean;
  aborted?: boolean;
}

/** Rows of a tool result shown in the chat (the panel and notebooks show the rest). */
const TOOL_ROWS = 10;

export interface ForwardOptions {
  allowRemoteImages: boolean;
  redact(text: string): string;
}

/** Markdown from the agent, made safe for the native chat: remote images become their alt text. */
export function safeMarkdown(text: string, opts: ForwardOptions): string {
  const out = opts.allowRemoteImages ? text : text.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1');
  return opts.redact(out);
}

function toolCallMarkdown(name: string, input: unknown, result: unknown, opts: ForwardOptions): string {
  const lines = [`\n\n**Tool: ${name.replace(/[*_`[\]]/g, '')}**\n`];
  const sql =
    input && typeof input === 'object' && typeof (input as { sql?: unknown }).sql === 'string'
      ? (input as { sql: string }).sql
      : undefined;
  if (sql) lines.push(`${fenced(opts.redact(sql), 'sql')}\n`);
  const r = result && typeof result === 'object' ? (result as Record<string, unknown>) : undefined;
  if (r && typeof r.error === 'string') lines.push(`The tool failed: ${safeMarkdown(r.error, opts)}\n`);
  if (r && Array.isArray(r.schema) && Array.isArray(r.data)) {
    const columns = r.schema.map((c) => String((c as { name?: unknown }).name ?? ''));
    const rows = (r.data as unknown[]).filter((x): x is unknown[] => Array.isArray(x));
    const total = typeof r.totalRows === 'number' ? r.totalRows : rows.length;
    lines.push(markdownTable({ columns, rows: rows.slice(0, TOOL_ROWS) }, opts.redact));
    lines.push(`\n_${Math.min(rows.length, TOOL_ROWS)} of ${total} rows._\n`);
  }
  return `${lines.join('\n')}\n`;
}

/** Runs one turn; never throws for what the agent reports (it comes back in the outcome). */
export async function forwardTurn(
  client: Pick<AiClient, 'streamChat'>,
  req: TurnRequest,
  sink: ResponseSink,
  opts: ForwardOptions,
  signal?: AbortSignal,
): Promise<TurnOutcome> {
  const outcome: TurnOutcome = { chatId: req.chatId };
  /** Characters of each final message already written. */
  const written = new Map<string, number>();
  const toolsShown = new Set<string>();
  let wroteAnswer = false;
  const writeFinal = (id: string, content: string, complete: boolean) => {
    const from = written.get(id) ?? 0;
    // Whole lines only while streaming, so Markdown constructs (images, tables) are never split.
    const end = complete ? content.length : content.lastIndexOf('\n') + 1;
    if (end <= from) return;
    sink.markdown(safeMarkdown(content.slice(from, end), opts));
    written.set(id, end);
    wroteAnswer = true;
  };
  const events: AsyncIterable<ChatEvent> = client.streamChat(
    { input: req.input, chatId: req.chatId, sessionSettings: req.sessionSettings },
    signal,
  );
  for await (const event of events) {
    switch (event.type) {
      case 'cutoff':
        if (event.chatId) outcome.chatId = event.chatId;
        break;
      case 'message': {
        const m = event.message;
        if (m.role !== 'assistant') break;
        if (m.graphPath?.[0] === 'final') writeFinal(m.id, m.content ?? '', false);
        else if (!m.isDelta && m.content) sink.progress(excerpt(m.content.split('\n')[0]!, 100, opts.redact));
        break;
      }
      case 'toolCall': {
        const { toolCall, message } = event;
        if (toolCall.result === undefined) {
          sink.progress(`Running ${toolCall.name}…`);
        } else if (!toolsShown.has(message.id)) {
          toolsShown.add(message.id);
          sink.markdown(toolCallMarkdown(toolCall.name, toolCall.input, toolCall.result, opts));
        }
        break;
      }
      case 'final':
        writeFinal(event.message.id, event.message.content ?? '', true);
        break;
      case 'usage':
        outcome.usage = event.usage;
        break;
      case 'suspended':
        outcome.suspended = true;
        sink.markdown(
          `\n\n_The agent paused this answer${event.reason ? ` (${safeMarkdown(event.reason, opts)})` : ''}. Ask again to continue._`,
        );
        break;
      case 'aborted':
        outcome.aborted = true;
        break;
      case 'error':
        outcome.error = opts.redact(event.message);
        break;
    }
  }
  if (!wroteAnswer && !outcome.error && !outcome.suspended && !outcome.aborted) {
    sink.markdown('_The agent ended the turn without an answer._');
  }
  return outcome;
}
