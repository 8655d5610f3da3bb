// One turn of the sandbox AI agent: the plan for a question (the SQL, the Vega-Lite chart and the
// answer over the result), and the lines the turn streams (thinking, the meta and SQL tool calls run
// on the real engine, the answer in deltas, or a suspension or an error line when asked).
import type { SqlValue } from 'sql.js';
import type { DataEngine } from '../data/engine';
import { rewriteMeasures } from '../data/index';
import type { Model } from '../data/model';
import type { Chat, Line, Usage } from './types';

const AGENT_NODE = 'cube_data_analyst_agent';

/** Thrown inside a turn when its signal aborts. */
export class AbortError extends Error {}

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

export async function* turnSteps(
  deps: { engine: DataEngine; delay: number; model?: Model; branch?: string },
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
        await wait(deps.delay);
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
    await wait(deps.delay);
    check();
    // On a dev branch the agent reads that branch's model (what its dev-mode Data API serves).
    const metaResult = deps.model
      ? {
          branch: deps.branch,
          cubes: deps.model.cubes.map((c) => ({
            name: c.name,
            measures: c.measures.map((m) => `${c.name}.${m.name}`),
            dimensions: c.dimensions.map((d) => `${c.name}.${d.name}`),
          })),
        }
      : {
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
    const all = deps.engine.all(rewriteMeasures(sql, deps.model));
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
    await wait(deps.delay);
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
    if (!bench) await wait(deps.delay);
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
