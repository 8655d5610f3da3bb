/** A query the service refuses: answered 400 `{"type": "UserError", "error": ...}`. */
export class UserError extends Error {}
