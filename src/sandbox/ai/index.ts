// The sandbox's AI agent: a deterministic agent that answers the question asked from the model it
// reads on the sandbox's own Data API (planner.ts matches the question to /v1/meta; the planned
// query runs through /v1/load) and streams the turn in the wire format (thinking deltas, a meta tool
// call, a SQL tool call with rows, a Vega-Lite spec and the rollup that served it, the answer derived
// from the rows, usage), with abort, a suspended turn that resumes, and an error line.
//
// `activeBranchName` (with `isDefaultBranch` false) runs the turn on that data-model branch: the
// agent reads that branch's dev-mode Data API; a branch that is not running (no dev mode, no staging
// environment) answers the published "BadRequestError: Bad branch" error line.
//
// Triggers in the question: "approval" suspends the turn (resend the same chatId + messageId, with
// or without input, to resume); "error" sends a mid-stream error line; "N deltas" (e.g. "5000
// deltas") streams the answer as N content deltas (benchmarks). A turn runs on the server apart
// from the request that started it: the same messageId reattaches to it while it runs. A turn's
// content is in turn.ts; this file holds the routes, the threads and the runs.
import { randomUUID } from 'node:crypto';
import { Model } from '../data/model';
import type { Router } from '../http';
import type { SandboxState } from '../state';
import type { AgentData } from './dataApi';
import type { Catalog } from './catalog';
import { AbortError, turnSteps } from './turn';
import { emptyUsage, MODEL, type Chat, type Line, type Run } from './types';

export interface AiDeps {
  /** The agent's deployment's Data API (meta and load), as the hosted agent reads it. */
  data: AgentData;
  state: SandboxState;
  /** The agent's clock (tests fix it; relative date ranges end the day before). */
  now?: () => Date;
  /** Pause between streamed events (ms). */
  eventDelayMs?: number;
  /** How long a turn whose listeners all went away keeps running for a reattach (ms, default 1000). */
  reattachGraceMs?: number;
  /** A branch's compiled model of the agent's deployment (1), or why it cannot answer. */
  modelFor?: (
    deploymentId: number,
    devBranch: string | undefined,
  ) => Promise<Model | { status: number; error: string }>;
}

/** The agents answer for the first deployment. */
const AGENT_DEPLOYMENT = 1;

const MESSAGE_ID = /^\d{13,}-message$/;

/** The chat threads (saved with the sandbox's state). */
export function registerAiRoutes(router: Router, deps: AiDeps): { chats: Map<string, Chat> } {
  const chats = new Map<string, Chat>();
  const delay = deps.eventDelayMs ?? 25;
  const graceMs = deps.reattachGraceMs ?? 1000;
  // Values of small string dimensions, per branch and member (a value list is read once).
  const valueCache = new Map<string, Promise<string[] | undefined>>();
  const values = async (catalog: Catalog, branch: string | undefined, signal: AbortSignal) => {
    const out = new Map<string, string[]>();
    const dims = catalog.cubes.flatMap((c) =>
      c.dimensions.filter((d) => d.type === 'string' && !/(^|_)id$/.test(d.short)),
    );
    await Promise.all(
      dims.map(async (d) => {
        const key = `${branch ?? ''}|${d.name}`;
        let list = valueCache.get(key);
        if (!list) {
          // More than 50 values is not a category a question names by value.
          list = deps.data
            .load({ dimensions: [d.name], limit: 51 }, branch, signal)
            .then((r) => {
              const vs = r.data.map((row) => row[d.name]).filter((v): v is string => typeof v === 'string');
              return vs.length > 50 ? [] : vs;
            })
            .catch(() => {
              valueCache.delete(key);
              return undefined;
            });
          valueCache.set(key, list);
        }
        const vs = await list;
        if (vs?.length) out.set(d.name, vs);
      }),
    );
    return out;
  };

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
    const extra = settings as Record<string, unknown>;
    if (settings?.internalId !== undefined)
      for (const f of ['groups', 'securityContext', 'userAttributes'])
        if (extra[f] !== undefined)
          return ctx.error(
            400,
            `sessionSettings.${f} is not allowed together with sessionSettings.internalId.`,
          );
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
    if (body.activeBranchName !== undefined && typeof body.activeBranchName !== 'string')
      return ctx.error(400, 'activeBranchName must be a string.');
    if (body.isDefaultBranch !== undefined && typeof body.isDefaultBranch !== 'boolean')
      return ctx.error(400, 'isDefaultBranch must be a boolean.');
    // The default branch is assumed unless told otherwise (isDefaultBranch defaults to true).
    const branch =
      typeof body.activeBranchName === 'string' && body.activeBranchName && body.isDefaultBranch === false
        ? body.activeBranchName
        : undefined;
    if (branch !== undefined && (body.input !== undefined || body.messageId !== undefined)) {
      const m = deps.modelFor ? await deps.modelFor(AGENT_DEPLOYMENT, branch) : undefined;
      if (m && !(m instanceof Model))
        return ctx.ndjson([
          { error: `BadRequestError: Bad branch "${branch}": ${m.error}` },
          { id: '__usage__', type: 'usage', usage: emptyUsage() },
        ]);
    }
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
      return ctx.ndjson(listen(start(chat, question, messageId, true, branch), ctx.signal));
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
    const run = start(chat, input, messageId ?? `${Date.now()}-message`, false, branch);
    await ctx.ndjson(listen(run, ctx.signal));
  });

  router.add('ai', 'POST', '/chat/abort', async (ctx) => {
    const body = (ctx.body ?? {}) as {
      chatId?: unknown;
      sessionSettings?: { externalId?: unknown; internalId?: unknown };
    };
    if (typeof body.chatId !== 'string' || !body.chatId) return ctx.error(400, 'chatId is required.');
    // The documents publish 403 and 404 without a body: the status alone says what happened.
    const bare = (status: number) => void ctx.res.writeHead(status, { 'x-request-id': ctx.requestId }).end();
    const chat = chats.get(body.chatId);
    if (!chat) return bare(404);
    const owner = body.sessionSettings?.externalId ?? body.sessionSettings?.internalId;
    if (chat.owner !== owner) return bare(403);
    deps.state.aiAborts.push({ chatId: chat.id, at: new Date().toISOString() });
    chat.run?.controller.abort();
    await ctx.noContent();
  });

  return { chats };

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
  function start(chat: Chat, question: string, messageId: string, resuming: boolean, branch?: string): Run {
    const run: Run = {
      messageId,
      lines: [],
      done: false,
      wake: new Set(),
      listeners: 0,
      controller: new AbortController(),
    };
    chat.run = run;
    deps.state.aiTurns.push({
      chatId: chat.id,
      ...(branch !== undefined ? { activeBranchName: branch } : {}),
      at: new Date().toISOString(),
    });
    const notify = () => {
      const woken = [...run.wake];
      run.wake.clear();
      for (const w of woken) w();
    };
    void (async () => {
      try {
        const lines = turn(chat, question, messageId, resuming, run.controller.signal, branch);
        for await (const line of lines) {
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
    branch?: string,
  ): AsyncGenerator<Line> {
    const usage = emptyUsage();
    try {
      const on = { data: deps.data, delay, branch, now: deps.now ?? (() => new Date()), values };
      yield* turnSteps(on, chat, question, messageId, resuming, signal, usage);
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
}
