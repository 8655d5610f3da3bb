// The sandbox's AI agent: a deterministic agent that streams a plausible turn over the sample
// model (thinking deltas, a meta tool call, a SQL tool call run on the real engine with a Vega-Lite
// spec, a final answer, usage), with abort, a suspended turn that resumes, and an error line.
//
// Triggers in the question: "approval" suspends the turn (resend the same chatId + messageId, with
// or without input, to resume); "error" sends a mid-stream error line; "N deltas" (e.g. "5000
// deltas") streams the answer as N content deltas (benchmarks). A turn runs on the server apart
// from the request that started it: the same messageId reattaches to it while it runs.
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
  /** How long a turn whose listeners all went away keeps running for a reattach (ms, default 1000). */
  reattachGraceMs?: number;
}

interface Line {
  [k: string]: unknown;
}

interface Chat {
  id: string;
  owner: string;
  /** Whole (non-delta) messages of the thread, in order. */
  messages: Line[];
  run?: Run;
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

const MODEL = 'sandbox-analyst-1';
const AGENT_NODE = 'cube_data_analyst_agent';

/** A turn running on the server, decoupled from the requests listening to it (reattach by messageId). */
interface Run {
  messageId: string;
  /** Every line the turn has emitted, replayed to a request that reattaches. */
  lines: Line[];
  done: boolean;
  wake: Set<() => void>;
  listeners: number;
  controller: AbortController;
  /** Aborts the turn when nobody reattaches within the grace period after the last listener left. */
  orphanTimer?: NodeJS.Timeout;
}

interface Usage {
  models: string[];
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
}

const emptyUsage = (): Usage => ({
  models: [],
  llmCalls: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheWriteTokens: 0,
  cacheReadTokens: 0,
  totalTokens: 0,
});

class AbortError extends Error {}

export function registerAiRoutes(router: Router, deps: AiDeps): void {
  const chats = new Map<string, Chat>();
  const delay = deps.eventDelayMs ?? 25;
  const graceMs = deps.reattachGraceMs ?? 1000;

  router.add('ai', 'POST', '/chat/stream-chat-state', async (ctx) => {
    const body = (ctx.body ?? {}) as Record<string, unknown>;
    const settings = body.sessionSettings as { externalId?: unknown; internalId?: unknown } | undefined;
    const owner = [settings?.externalId, settings?.internalId].find(
      (x): x is string => typeof x === 'string' && x.trim().length > 0,
    );
    if (!owner) {
      return ctx.error(
        400,
        'sessionSettings.externalId is required with Api-Key authentication (or sessionSettings.internalId).',
      );
    }
    if (
      body.messageId !== undefined &&
      (typeof body.messageId !== 'string' || !MESSAGE_ID.test(body.messageId))
    ) {
      return ctx.error(400, 'messageId must match ^\\d{13,}-message$.');
    }
    if (body.input !== undefined && (typeof body.input !== 'string' || !body.input.trim()))
      return ctx.error(400, 'input must be a non-empty string.');
    if (body.chatId !== undefined && (typeof body.chatId !== 'string' || !body.chatId))
      return ctx.error(400, 'chatId must be a non-empty string.');
    const chatId = body.chatId as string | undefined;
    const messageId = body.messageId as string | undefined;
    const input = body.input as string | undefined;

    let chat = chatId ? chats.get(chatId) : undefined;
    if (!chat && input === undefined) {
      return chatId
        ? ctx.error(404, `Chat ${chatId} not found.`)
        : ctx.error(400, 'Send input, or a chatId to read the thread.');
    }
    if (chat && chat.owner !== owner) return ctx.error(403, 'This chat belongs to another user.');

    if (chat?.run) {
      const run = chat.run;
      // The same message while its turn runs: resubscribe to the running stream.
      if (messageId !== undefined && messageId === run.messageId) return ctx.ndjson(listen(run, ctx.signal));
      if (input === undefined) return ctx.ndjson(stateLines(chat));
      // Nobody listens to the running turn any more (the client went away): it gives way.
      if (run.listeners === 0) run.controller.abort();
      else return ctx.error(409, 'Streaming for thread is in progress');
      await runEnded(run);
    }

    if (chat && messageId !== undefined && chat.suspended?.messageId === messageId) {
      // Resume the suspended turn (input may be omitted).
      const question = chat.suspended.question;
      chat.suspended = undefined;
      return ctx.ndjson(listen(start(chat, question, messageId, true), ctx.signal));
    }
    if (input === undefined) return ctx.ndjson(stateLines(chat!));
    if (chat && messageId !== undefined && chat.messages.some((m) => m.id === messageId)) {
      // That message was answered already: answer idempotently with the thread.
      return ctx.ndjson(stateLines(chat));
    }
    if (!chat) {
      chat = { id: chatId ?? randomUUID(), owner, messages: [], sort: 0 };
      chats.set(chat.id, chat);
    }
    // A request for another message ends a pending suspended turn.
    chat.suspended = undefined;
    const run = start(chat, input, messageId ?? `${Date.now()}-message`, false);
    await ctx.ndjson(listen(run, ctx.signal));
  });

  router.add('ai', 'POST', '/chat/abort', async (ctx) => {
    const body = (ctx.body ?? {}) as {
      chatId?: unknown;
      sessionSettings?: { externalId?: unknown; internalId?: unknown };
    };
    if (typeof body.chatId !== 'string' || !body.chatId) return ctx.error(400, 'chatId is required.');
    const chat = chats.get(body.chatId);
    if (!chat) return ctx.error(404, `Chat ${body.chatId} not found.`);
    const owner = body.sessionSettings?.externalId ?? body.sessionSettings?.internalId;
    if (chat.owner !== owner) return ctx.error(403, 'Only the owner of a chat can abort it.');
    deps.state.aiAborts.push({ chatId: chat.id, at: new Date().toISOString() });
    chat.run?.controller.abort();
    await ctx.noContent();
  });

  function stateLines(chat: Chat): Line[] {
    return [
      {
        id: '__cutoff__',
        role: 'assistant',
        sort: 0,
        state: {
          chatId: chat.id,
          isStreaming: chat.run !== undefined,
          ...(chat.suspended ? { suspended: { messageId: chat.suspended.messageId } } : {}),
        },
      },
      ...chat.messages,
      { id: '__usage__', type: 'usage', usage: emptyUsage() },
    ];
  }

  /** Starts a turn in the background; its lines are buffered in the run for every listener. */
  function start(chat: Chat, question: string, messageId: string, resuming: boolean): Run {
    const run: Run = {
      messageId,
      lines: [],
      done: false,
      wake: new Set(),
      listeners: 0,
      controller: new AbortController(),
    };
    chat.run = run;
    const notify = () => {
      const woken = [...run.wake];
      run.wake.clear();
      for (const w of woken) w();
    };
    void (async () => {
      try {
        for await (const line of turn(chat, question, messageId, resuming, run.controller.signal)) {
          run.lines.push(line);
          notify();
        }
      } catch (e) {
        run.lines.push({ error: e instanceof Error ? e.message : String(e) });
        run.lines.push({ id: '__usage__', type: 'usage', usage: emptyUsage() });
      } finally {
        clearTimeout(run.orphanTimer);
        if (chat.run === run) chat.run = undefined;
        run.done = true;
        notify();
      }
    })();
    return run;
  }

  function runEnded(run: Run): Promise<void> {
    if (run.done) return Promise.resolve();
    return new Promise<void>((resolve) => run.wake.add(resolve)).then(() => runEnded(run));
  }

  /** One request's view of a run: every line from the start, then the new ones as they come. */
  async function* listen(run: Run, signal: AbortSignal): AsyncGenerator<Line> {
    run.listeners++;
    clearTimeout(run.orphanTimer);
    run.orphanTimer = undefined;
    try {
      let i = 0;
      for (;;) {
        while (i < run.lines.length) yield run.lines[i++]!;
        if (run.done || signal.aborted) return;
        await new Promise<void>((resolve) => {
          const done = () => {
            signal.removeEventListener('abort', done);
            run.wake.delete(done);
            resolve();
          };
          run.wake.add(done);
          signal.addEventListener('abort', done);
        });
      }
    } finally {
      run.listeners--;
      if (run.listeners === 0 && !run.done) {
        run.orphanTimer = setTimeout(() => run.controller.abort(), graceMs);
      }
    }
  }

  /** One turn; `__usage__` is always the last line, after an abort, a suspension or an error line too. */
  async function* turn(
    chat: Chat,
    question: string,
    messageId: string,
    resuming: boolean,
    signal: AbortSignal,
  ): AsyncGenerator<Line> {
    const usage = emptyUsage();
    try {
      yield* steps(chat, question, messageId, resuming, signal, usage);
    } catch (e) {
      if (!(e instanceof AbortError)) throw e;
      yield {
        id: '__aborted__',
        type: 'abort',
        code: 'chat_aborted',
        error: 'The run was aborted.',
        sort: ++chat.sort,
      };
    }
    if (usage.llmCalls) usage.models = [MODEL];
    usage.cacheReadTokens = usage.llmCalls > 1 ? (usage.llmCalls - 1) * 900 : 0;
    usage.totalTokens =
      usage.inputTokens + usage.outputTokens + usage.cacheWriteTokens + usage.cacheReadTokens;
    yield { id: '__usage__', type: 'usage', usage };
  }

  async function* steps(
    chat: Chat,
    question: string,
    messageId: string,
    resuming: boolean,
    signal: AbortSignal,
    usage: Usage,
  ): AsyncGenerator<Line> {
    const wait = (ms: number) =>
      new Promise<void>((resolve) => {
        if (signal.aborted) return resolve();
        const done = () => {
          clearTimeout(t);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const t = setTimeout(done, ms);
        signal.addEventListener('abort', done);
      });
    const check = () => {
      if (signal.aborted) throw new AbortError();
    };
    const record = (line: Line) => {
      chat.messages.push(line);
      return line;
    };
    yield { id: '__cutoff__', role: 'assistant', sort: 0, state: { chatId: chat.id, isStreaming: true } };
    const bench = /(\d+)\s+deltas/i.exec(question);
    const p = plan(question);

    if (resuming) {
      // The thread so far, then the rest of the suspended turn.
      for (const m of [...chat.messages]) yield m;
    } else {
      yield record({ id: messageId, role: 'user', content: question, isDelta: false, sort: ++chat.sort });
      usage.llmCalls++;
      usage.inputTokens += 1200 + question.length * 3;
      usage.cacheWriteTokens += 600;
      if (!bench) {
        const thinkingId = `${messageId}-thinking`;
        const thought = `The user asks: "${question.slice(0, 80)}". I will look up the data model, then write SQL over the cubes.`;
        let acc = '';
        const sort = ++chat.sort;
        for (const part of chunks(thought, 6)) {
          check();
          acc += part;
          yield {
            id: thinkingId,
            role: 'assistant',
            content: '',
            thinking: part,
            graphPath: [AGENT_NODE],
            isDelta: true,
            isInProcess: true,
            sort,
          };
          await wait(delay);
        }
        check();
        yield record({
          id: thinkingId,
          role: 'assistant',
          content: '',
          thinking: acc,
          graphPath: [AGENT_NODE],
          isDelta: false,
          isInProcess: false,
          sort,
        });
        if (/\berror\b/i.test(question)) {
          yield { error: 'The model is overloaded right now. Try again in a moment.' };
          return;
        }
        if (/approval/i.test(question)) {
          chat.suspended = { messageId, question };
          yield {
            id: '__suspended__',
            type: 'suspend',
            code: 'chat_suspended',
            retryable: true,
            messageId,
            error: 'This step needs approval; resend the same request to resume.',
            sort: ++chat.sort,
          };
          return;
        }
      }
    }

    if (!bench) {
      await wait(delay);
      check();
      const metaResult = {
        cubes: [
          { name: 'orders', measures: ['orders.count', 'orders.total_amount', 'orders.avg_amount'] },
          { name: 'customers', dimensions: ['customers.city', 'customers.country', 'customers.segment'] },
          { name: 'products', dimensions: ['products.name', 'products.category'] },
        ],
      };
      yield record({
        id: `${messageId}-tool-meta`,
        role: 'assistant',
        toolCall: {
          name: 'cubeMetaApi',
          input: JSON.stringify({ searchQuery: question.slice(0, 80) }),
          result: JSON.stringify(metaResult),
        },
        graphPath: [AGENT_NODE, 'tools'],
        isInProcess: false,
        sort: ++chat.sort,
      });
      usage.llmCalls++;
      usage.inputTokens += 800;
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
      check();
      yield record({
        id: `${messageId}-tool-sql`,
        role: 'assistant',
        toolCall: { name: 'cubeSqlApi', input: JSON.stringify({ sql }), result: JSON.stringify(result) },
        graphPath: [AGENT_NODE, 'tools'],
        isInProcess: false,
        sort: ++chat.sort,
      });
      usage.llmCalls++;
      usage.inputTokens += 1500;
    }

    const answer = bench
      ? 'x'.repeat(Number(bench[1]))
      : p.answer(rows, Number(result.totalRows ?? rows.length));
    const finalId = `${messageId}-answer`;
    const parts = bench ? answer.split('') : chunks(answer, 12);
    let acc = '';
    const sort = ++chat.sort;
    for (const part of parts) {
      check();
      acc += part;
      yield { id: finalId, role: 'assistant', content: part, isDelta: true, isInProcess: true, sort };
      if (!bench) await wait(delay);
      else if (acc.length % 500 === 0) await new Promise((r) => setImmediate(r));
    }
    check();
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
    yield {
      id: '__state__',
      role: 'assistant',
      isDelta: false,
      sort: ++chat.sort,
      state: { messages: chat.messages },
    };
  }
}
