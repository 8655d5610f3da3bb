// One turn of the sandbox AI agent: thinking, the meta tool call (the model from /v1/meta, and what
// the question matched in it), the SQL tool call (the planned semantic query run on the sandbox's
// Data API, shown in its SQL API form with rows, a chart and the rollup that served it) and the
// answer derived from the result, in deltas; or a refusal that says what it can answer instead; or a
// suspension or an error line when asked.
import type { Meta } from '../../api/schemas/data';
import { answerText, refusalText, sqlOf, toolResult } from './answer';
import { DataApiError, type AgentData } from './dataApi';
import { catalogOf, exampleQuestions, type Catalog } from './catalog';
import { loadQuery, planQuestion, type Plan } from './planner';
import type { Chat, Line, Usage } from './types';

const AGENT_NODE = 'cube_data_analyst_agent';

/** Thrown inside a turn when its signal aborts. */
export class AbortError extends Error {}

export interface TurnDeps {
  data: AgentData;
  delay: number;
  branch?: string;
  /** The agent's clock (relative dates end the day before). */
  now: () => Date;
  /** Values of the model's small string dimensions (for filters), cached by the caller. */
  values: (
    catalog: Catalog,
    branch: string | undefined,
    signal: AbortSignal,
  ) => Promise<Map<string, string[]>>;
}

function chunks(text: string, n: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export async function* turnSteps(
  deps: TurnDeps,
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

  let answer: string;
  if (bench) {
    answer = 'x'.repeat(Number(bench[1]));
  } else {
    await wait(deps.delay);
    check();
    // The model the agent answers from: the dev branch's when one is named (its dev-mode Data API).
    let meta: Meta | undefined;
    let metaError: string | undefined;
    try {
      meta = await deps.data.meta(deps.branch, signal);
    } catch (e) {
      check();
      metaError = e instanceof Error ? e.message : String(e);
    }
    check();
    const catalog = meta ? catalogOf(meta) : undefined;
    let plan: Plan | { kind: 'refusal'; reason: string } | undefined;
    if (catalog) {
      const values = await deps.values(catalog, deps.branch, signal).catch(() => new Map<string, string[]>());
      check();
      const now = deps.now();
      const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
      plan = planQuestion(question, catalog, { today, values });
    }
    yield record({
      id: `${messageId}-tool-meta`,
      role: 'assistant',
      toolCall: {
        name: 'cubeMetaApi',
        input: JSON.stringify({ searchQuery: question.slice(0, 80) }),
        result: JSON.stringify(
          catalog
            ? {
                ...(deps.branch !== undefined ? { branch: deps.branch } : {}),
                cubes: catalog.cubes.map((c) => ({
                  name: c.name,
                  title: c.title,
                  measures: c.measures.map((m) => m.name),
                  dimensions: c.dimensions.map((d) => d.name),
                })),
                ...(plan?.kind === 'plan'
                  ? {
                      matched: {
                        measures: plan.measures.map((m) => m.name),
                        dimensions: plan.dimensions.map((d) => d.name),
                        ...(plan.time ? { timeDimension: plan.time.dimension.name } : {}),
                        ...(plan.filters.length
                          ? {
                              filters: plan.filters.map(
                                (f) => `${f.member.name} ${f.operator} ${f.values.join(', ')}`,
                              ),
                            }
                          : {}),
                      },
                    }
                  : {}),
              }
            : { error: metaError ?? 'The data model could not be read.' },
        ),
      },
      graphPath: [AGENT_NODE, 'tools'],
      isInProcess: false,
      sort: ++chat.sort,
    });
    usage.llmCalls++;
    usage.inputTokens += 800;

    if (!catalog || !plan) {
      answer = `I could not read the data model, so I cannot answer: ${metaError ?? 'no model'}.`;
    } else if (plan.kind === 'refusal') {
      answer = refusalText(plan.reason, catalog, exampleQuestions(catalog));
    } else {
      const sql = sqlOf(plan, catalog);
      let result: Record<string, unknown>;
      try {
        const loaded = await deps.data.load(loadQuery(plan), deps.branch, signal);
        result = toolResult(plan, loaded);
        answer = answerText(plan, loaded);
      } catch (e) {
        check();
        const message = e instanceof Error ? e.message : String(e);
        result = { error: message };
        answer = `The query failed${e instanceof DataApiError ? ` (${e.status})` : ''}: ${message}`;
      }
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
  }

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
