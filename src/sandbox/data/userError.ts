// The three ways the engine refuses a query, answered the way it answers them:
// - UserError: a model-level error (unknown member or granularity, no join path): 400
//   `{"type": "UserError", "error"}`.
// - RequestError: the request itself (its format, a missing or undecodable query, a date it cannot
//   read): 400 `{"error"}` with no type.
// - EngineError: anything else the engine throws (a hidden member, a limit above the maximum):
//   500 `{"error": "Error: <message>"}`.
// None carries a requestId: the engine puts none in error bodies.

/** A model-level error: answered 400 `{"type": "UserError", "error": ...}`. */
export class UserError extends Error {}

/** A malformed request: answered 400 `{"error": ...}` without a type. */
export class RequestError extends Error {}

/** An error the engine does not classify: answered 500 `{"error": "Error: ..."}`. */
export class EngineError extends Error {}

/** The status and body the engine answers for a thrown error; undefined for a sandbox bug. */
export function engineAnswer(e: unknown): { status: number; body: Record<string, unknown> } | undefined {
  if (e instanceof UserError) return { status: 400, body: { type: 'UserError', error: e.message } };
  if (e instanceof RequestError) return { status: 400, body: { error: e.message } };
  if (e instanceof EngineError) return { status: 500, body: { error: `Error: ${e.message}` } };
  return undefined;
}
