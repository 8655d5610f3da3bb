// What the sandbox records so tests, the CLI and the demo can observe the effects of requests
// (GET /__sandbox/state). Families append to it; nothing here is part of the emulated API.
export interface SandboxState {
  /** AI chat aborts received, in order. */
  aiAborts: { chatId: string; at: string }[];
  /** Requests seen, by family, for benchmarks and paging tests ("exactly one request a page"). */
  requestCounts: Record<string, number>;
}

export function createSandboxState(): SandboxState {
  return { aiAborts: [], requestCounts: {} };
}
