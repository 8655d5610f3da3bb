// The extension's one log. `createRedactingLog` wraps a LogOutputChannel so that every line (and
// every error message) goes through `redact` from src/api/log.ts, whose registry holds every secret
// the extension knows (tokens from SecretStorage, env vars, the sandbox, secrets typed in admin
// flows, credentials the clients sent). It only imports vscode types, so the wrapping is
// unit-testable in plain Node with a fake channel.
import type * as vscode from 'vscode';
import { isApiError } from './api/errors';
import { forgetSecret, redact, registeredSecrets, rememberSecret, type ApiLogger } from './api/log';

/**
 * The extension's handle on the one secret registry of src/api/log.ts (there is no second list):
 * what is added here is redacted in the log, toasts, chat transcripts, notebook outputs and tool
 * results alike.
 */
export class KnownSecrets {
  add(...secrets: (string | undefined)[]): void {
    for (const s of secrets) rememberSecret(s);
  }

  delete(secret: string | undefined): void {
    forgetSecret(secret);
  }

  list(): readonly string[] {
    return registeredSecrets();
  }
}

/** Redacts `text` with the one registry (and the patterns of src/api/log.ts). */
export function redactText(text: string): string {
  return redact(text);
}

/** Error -> redacted one-line description (stack only at trace level, and redacted too). */
function describe(value: unknown): string {
  if (value instanceof Error) {
    const extra = (value as { requestId?: string }).requestId;
    return redact(`${value.name}: ${value.message}${extra ? ` (request id ${extra})` : ''}`);
  }
  if (typeof value === 'string') return redact(value);
  try {
    return redact(JSON.stringify(value));
  } catch {
    return redact(String(value));
  }
}

function line(message: string | Error, args: unknown[]): string {
  return [describe(message), ...args.map((a) => describe(a))].join(' ');
}

/** The extension's log: a LogOutputChannel that also redacts text for other sinks (error messages). */
export interface RedactingLog extends vscode.LogOutputChannel {
  redact(text: string): string;
  /** Makes a secret met at run time (a created token, an env value) known to the redaction. */
  addSecret(secret: string): void;
}

/** A LogOutputChannel that redacts every message before it reaches `inner`. */
export function createRedactingLog(
  inner: vscode.LogOutputChannel,
  secrets: KnownSecrets = new KnownSecrets(),
): RedactingLog {
  const r = (t: string): string => redact(t);
  const wrapped: RedactingLog = {
    redact: r,
    addSecret: (secret: string) => secrets.add(secret),
    get name() {
      return inner.name;
    },
    get logLevel() {
      return inner.logLevel;
    },
    get onDidChangeLogLevel() {
      return inner.onDidChangeLogLevel;
    },
    trace: (m: string, ...args: unknown[]) => inner.trace(line(m, args)),
    debug: (m: string, ...args: unknown[]) => inner.debug(line(m, args)),
    info: (m: string, ...args: unknown[]) => inner.info(line(m, args)),
    warn: (m: string, ...args: unknown[]) => inner.warn(line(m, args)),
    error: (m: string | Error, ...args: unknown[]) => inner.error(line(m, args)),
    append: (v: string) => inner.append(r(v)),
    appendLine: (v: string) => inner.appendLine(r(v)),
    replace: (v: string) => inner.replace(r(v)),
    clear: () => inner.clear(),
    show: ((a?: unknown, b?: boolean) =>
      typeof a === 'boolean' || a === undefined
        ? inner.show(a)
        : inner.show(a as vscode.ViewColumn, b)) as vscode.LogOutputChannel['show'],
    hide: () => inner.hide(),
    dispose: () => inner.dispose(),
  };
  return wrapped;
}

/** The log as an ApiLogger for src/api clients (already redacted by the channel). */
export function apiLogger(log: vscode.LogOutputChannel): ApiLogger {
  return {
    trace: (m) => log.trace(m),
    debug: (m) => log.debug(m),
    info: (m) => log.info(m),
    warn: (m) => log.warn(m),
    error: (m) => log.error(m),
  };
}

// How an unknown thrown value becomes a message for the user.

/** Thrown by flows when the user dismisses an input; never reported. */
export class UserCancelled extends Error {
  override readonly name = 'UserCancelled';
  constructor() {
    super('Cancelled');
  }
}

export function isCancellation(e: unknown): boolean {
  if (e instanceof UserCancelled) return true;
  if (isApiError(e)) return e.kind === 'cancelled';
  // By name too: a UserCancelled from another copy of this module (a test bundle) is still one.
  if (e instanceof Error)
    return ['UserCancelled', 'AbortError', 'Canceled', 'CancellationError'].includes(e.name);
  return false;
}

export function errorMessage(e: unknown): string {
  if (isApiError(e)) return e.message;
  if (e instanceof Error) return redact(e.message || e.name);
  return redact(String(e));
}
