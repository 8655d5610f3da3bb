// The sandbox AI agent's shapes: a streamed line, a chat thread, a turn running on the server, and
// a turn's usage.

export interface Line {
  [k: string]: unknown;
}

export interface Chat {
  id: string;
  owner: string;
  /** Whole (non-delta) messages of the thread, in order. */
  messages: Line[];
  run?: Run;
  suspended?: { messageId: string; question: string };
  sort: number;
}

/** A turn running on the server, decoupled from the requests listening to it (reattach by messageId). */
export interface Run {
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

export interface Usage {
  models: string[];
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
}

export const emptyUsage = (): Usage => ({
  models: [],
  llmCalls: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheWriteTokens: 0,
  cacheReadTokens: 0,
  totalTokens: 0,
});

export const MODEL = 'sandbox-analyst-1';
