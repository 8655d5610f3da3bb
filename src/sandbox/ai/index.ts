// The sandbox's AI agent: a deterministic agent that streams a plausible turn over the sample
// model (thinking deltas, a meta tool call, a SQL tool call run on the real engine with a Vega-Lite
// spec, a final answer, usage), with abort, a suspended turn that resumes, and an error line.
//
// Triggers in the question: "approval" suspends the turn; "error" sends a mid-stream error line;
// "N deltas" (e.g. "5000 deltas") streams the answer as N content deltas (benchmarks).
import { randomUUID } from 'node:crypto';
import type { SqlValue } from 'sql.js';
import type { DataEngine } from '../data/engine';
import { rewriteMeasures } from '../data/index';
import type { Router } from '../http';
import type { SandboxState } from '../state';

export interface AiDeps {
  engine: DataEngine;
  state: SandboxState;
  /** Pause between streamed events (ms). */
  eventDelayMs?: number;
}

interface Line {
  [k: string]: unknown;
}

interface Chat {
  id: string;
  owner: string;
  messages: Line[];
  streaming: AbortController | undefined;
  suspended?: { messageId: string; question: string };
  sort: number;
}

const MESSAGE_ID = /^\d{13,}-message$/;

interface Plan {
  sql: string;
  chart: Record<string, unknown>;
  answer: (rows: SqlValue[][], total: number) => string;
}

function plan(question: string): Plan {
  const q = question.toLowerCase();
  if (/revenue|amount|sales/.test(q) && /month|trend|time/.test(q)) {
    return {
      sql: "SELECT strftime('%Y-%m', created_at) AS month, MEASURE(total_amount) AS revenue FROM orders WHERE created_at >= '2025-11-01' GROUP BY 1 ORDER BY 1",
      chart: {
        mark: { type: 'line', point: true },
        encoding: {
          x: { field: 'month', type: 'ordinal', title: 'Month' },
          y: { field: 'revenue', type: 'quantitative', title: 'Revenue' },
        },
      },
      answer: (rows) =>
        `Revenue over the last 12 months, by month:\n\n| Month | Revenue |\n|---|---:|\n${rows.map((r) => `| ${String(r[0])} | ${Number(r[1]).toLocaleString('en-US', { maximumFractionDigits: 0 })} |`).join('\n')}\n\nThe best month was **${String(rows.reduce((a, b) => (Number(b[1]) > Number(a[1]) ? b : a), rows[0] ?? ['-', 0])[0])}**.`,
    };
  }
  if (/product|category/.test(q)) {
    return {
      sql: 'SELECT p.category AS category, COUNT(*) AS orders FROM orders o JOIN products p ON p.id = o.product_id GROUP BY 1 ORDER BY 2 DESC',
      chart: {
        mark: 'bar',
        encoding: {
          x: { field: 'category', type: 'nominal', sort: '-y' },
          y: { field: 'orders', type: 'quantitative' },
        },
      },
      answer: (rows) =>
        `Orders by product category:\n\n${rows.map((r) => `- **${String(r[0])}**: ${String(r[1])}`).join('\n')}`,
    };
  }
  if (/customer|country|city/.test(q)) {
    return {
      sql: 'SELECT country, MEASURE(customers.count) AS customers FROM customers GROUP BY 1 ORDER BY 2 DESC',
      chart: {
        mark: 'bar',
        encoding: {
          y: { field: 'country', type: 'nominal', sort: '-x' },
          x: { field: 'customers', type: 'quantitative' },
        },
      },
      answer: (rows) =>
        `Customers by country: ${rows.map((r) => `${String(r[0])} (${String(r[1])})`).join(', ')}.`,
    };
  }
  return {
    sql: 'SELECT status, MEASURE(count) AS orders FROM orders GROUP BY 1 ORDER BY 2 DESC',
    chart: {
      mark: 'bar',
      encoding: {
        x: { field: 'status', type: 'nominal', sort: '-y' },
        y: { field: 'orders', type: 'quantitative', title: 'Orders' },
      },
    },
    answer: (rows, total) =>
      `There are ${total} order statuses:\n\n| Status | Orders |\n|---|---:|\n${rows.map((r) => `| ${String(r[0])} | ${String(r[1])} |`).join('\n')}`,
  };
}

function chunks(text: string, n: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export function registerAiRoutes(router: Router, deps: AiDeps): void {
  const chats = new Map<string, Chat>();
  const delay = deps.eventDelayMs ?? 25;

  router.add('ai', 'POST', '/chat/stream-chat-state', async (ctx) => {
    const body = (ctx.body ?? {}) as Record<string, unknown>;
    const settings = body.sessionSettings as { externalId?: unknown } | undefined;
    if (!settings || typeof settings.externalId !== 'string' || !settings.externalId) {
      return ctx.error(400, 'sessionSettings.externalId is required with Api-Key authentication.');
    }
    if (
      body.messageId !== undefined &&
      (typeof body.messageId !== 'string' || !MESSAGE_ID.test(body.messageId))
    ) {
      return ctx.error(400, 'messageId must match ^\\d{13,}-message$.');
    }
    const chatId = typeof body.chatId === 'string' && body.chatId ? body.chatId : undefined;
    let chat = chatId ? chats.get(chatId) : undefined;
    if (chatId && !chat && body.input === undefined) return ctx.error(404, `Chat ${chatId} not found.`);
    if (chat && chat.owner !== settings.externalId)
      return ctx.error(403, 'This chat belongs to another user.');
    if (body.input === undefined) {
      // The thread's current state.
      return ctx.ndjson([
        {
          id: '__cutoff__',
          role: 'assistant',
          sort: 0,
          state: { chatId: chat!.id, isStreaming: !!chat!.streaming },
        },
        ...chat!.messages,
        {
          id: '__usage__',
          type: 'usage',
          usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        },
      ]);
    }
    if (typeof body.input !== 'string' || !body.input.trim())
      return ctx.error(400, 'input must be a non-empty string.');
    if (chat?.streaming) return ctx.error(409, 'Streaming for thread is in progress');
    if (!chat) {
      chat = {
        id: chatId ?? randomUUID(),
        owner: settings.externalId,
        messages: [],
        streaming: undefined,
        sort: 0,
      };
      chats.set(chat.id, chat);
    }
    const messageId = typeof body.messageId === 'string' ? body.messageId : `${Date.now()}-message`;
    const resuming = chat.suspended?.messageId === messageId;
    const question = resuming ? chat.suspended!.question : body.input;
    chat.suspended = undefined;
    const controller = new AbortController();
    chat.streaming = controller;
    ctx.signal.addEventListener('abort', () => controller.abort());
    await ctx.ndjson(turn(chat, question, messageId, resuming, controller.signal));
  });

  router.add('ai', 'POST', '/chat/abort', async (ctx) => {
    const body = (ctx.body ?? {}) as { chatId?: unknown; sessionSettings?: { externalId?: unknown } };
    if (typeof body.chatId !== 'string') return ctx.error(400, 'chatId is required.');
    const chat = chats.get(body.chatId);
    if (!chat) return ctx.error(404, `Chat ${body.chatId} not found.`);
    if (chat.owner !== body.sessionSettings?.externalId)
      return ctx.error(403, 'Only the owner of a chat can abort it.');
    deps.state.aiAborts.push({ chatId: chat.id, at: new Date().toISOString() });
    chat.streaming?.abort();
    await ctx.noContent();
  });

  /** One turn; `__usage__` is always the last line, after an abort, a suspension or an error line too. */
  async function* turn(
    chat: Chat,
    question: string,
    messageId: string,
    resuming: boolean,
    signal: AbortSignal,
  ): AsyncGenerator<Line> {
    const usage = { llmCalls: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    try {
      yield* steps(chat, question, messageId, resuming, signal, usage);
    } catch (e) {
      if (!(e instanceof AbortError)) throw e;
      yield { id: '__aborted__', type: 'abort', sort: ++chat.sort };
    } finally {
      chat.streaming = undefined;
    }
    usage.totalTokens = usage.inputTokens + usage.outputTokens;
    yield { id: '__usage__', type: 'usage', usage };
  }

  async function* steps(
    chat: Chat,
    question: string,
    messageId: string,
    resuming: boolean,
    signal: AbortSignal,
    usage: { llmCalls: number; inputTokens: number; outputTokens: number },
  ): AsyncGenerator<Line> {
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const record = (line: Line) => {
      if (!line.isDelta) chat.messages.push(line);
      return line;
    };
    {
      yield { id: '__cutoff__', role: 'assistant', sort: 0, state: { chatId: chat.id, isStreaming: true } };
      if (!resuming)
        yield record({ id: messageId, role: 'user', content: question, isDelta: false, sort: ++chat.sort });
      const bench = /(\d+)\s+deltas/i.exec(question);
      const p = plan(question);
      usage.llmCalls++;
      usage.inputTokens += 1200 + question.length * 3;

      if (!bench) {
        const thinkingId = `${messageId}-thinking`;
        const thought = `The user asks: "${question.slice(0, 80)}". I will look up the data model, then write SQL over the cubes.`;
        let acc = '';
        for (const part of chunks(thought, 6)) {
          if (signal.aborted) break;
          acc += part;
          yield {
            id: thinkingId,
            role: 'assistant',
            content: '',
            thinking: part,
            isDelta: true,
            isInProcess: true,
            sort: chat.sort + 1,
          };
          await wait(delay);
        }
        if (signal.aborted) throw new AbortError();
        yield record({
          id: thinkingId,
          role: 'assistant',
          content: '',
          thinking: acc,
          isDelta: false,
          isInProcess: false,
          sort: ++chat.sort,
        });

        if (/\berror\b/i.test(question)) {
          yield { error: 'The model is overloaded right now. Try again in a moment.' };
          return;
        }
        if (!resuming && /approval/i.test(question)) {
          chat.suspended = { messageId, question };
          yield {
            id: '__suspended__',
            type: 'suspend',
            retryable: true,
            sort: ++chat.sort,
            reason: 'This action needs approval. Resume to continue.',
          };
          return;
        }
        await wait(delay);
        const metaResult = { cubes: ['orders', 'customers', 'products'] };
        yield record({
          id: `${messageId}-tool-meta`,
          role: 'assistant',
          toolCall: {
            name: 'cubeMetaApi',
            input: JSON.stringify({ cubes: ['orders'] }),
            result: JSON.stringify(metaResult),
          },
          isInProcess: false,
          sort: ++chat.sort,
        });
        usage.llmCalls++;
      }

      const sql = p.sql;
      let result: Record<string, unknown>;
      let rows: SqlValue[][] = [];
      try {
        const all = deps.engine.all(rewriteMeasures(sql));
        rows = all.rows.slice(0, 100);
        result = {
          schema: all.columns.map((name, i) => ({
            name,
            column_type: typeof all.rows[0]?.[i] === 'number' ? 'Float64' : 'String',
          })),
          data: rows.map((r) => r.map((v) => (v === null ? null : String(v)))),
          totalRows: all.rows.length,
          vegaSpec: JSON.stringify({
            $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
            ...p.chart,
          }),
        };
      } catch (e) {
        result = { error: e instanceof Error ? e.message : String(e) };
      }
      if (!bench) {
        await wait(delay);
        if (signal.aborted) throw new AbortError();
        yield record({
          id: `${messageId}-tool-sql`,
          role: 'assistant',
          toolCall: { name: 'cubeSqlApi', input: JSON.stringify({ sql }), result: JSON.stringify(result) },
          isInProcess: false,
          sort: ++chat.sort,
        });
      }

      const answer = bench
        ? 'x'.repeat(Number(bench[1]))
        : p.answer(rows, Number(result.totalRows ?? rows.length));
      const finalId = `${messageId}-answer`;
      const parts = bench ? answer.split('') : chunks(answer, 12);
      let acc = '';
      const sort = ++chat.sort;
      for (const part of parts) {
        if (signal.aborted) throw new AbortError();
        acc += part;
        yield { id: finalId, role: 'assistant', content: part, isDelta: true, isInProcess: true, sort };
        if (!bench) await wait(delay);
        else if (acc.length % 500 === 0) await new Promise((r) => setImmediate(r));
      }
      yield record({
        id: finalId,
        role: 'assistant',
        content: answer,
        graphPath: ['final'],
        isDelta: false,
        isInProcess: false,
        sort,
      });
      usage.outputTokens += Math.ceil(answer.length / 4) + 200;
    }
  }
}

class AbortError extends Error {}
