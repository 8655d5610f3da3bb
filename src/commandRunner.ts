// The one catch per command: log the failure, show a message with "Show Logs", stay silent on
// cancellation. ApiError messages are already sentences for the user, so they are shown as they are.
import * as vscode from 'vscode';
import { isApiError } from './api/errors';
import { COMMANDS, type CommandSpec } from './commands';
import type { Services } from './services';
import { errorMessage, isCancellation, type RedactingLog } from './log';

export const SHOW_LOGS = 'Show Logs';
/** Offered for a write whose outcome is unknown, instead of any "try again". */
export const CHECK = 'Check';

/** Known secrets are stripped from messages too when the log can do it (the extension's log can). */
function redactMessage(log: vscode.LogOutputChannel, message: string): string {
  const r = (log as Partial<RedactingLog>).redact;
  return typeof r === 'function' ? r(message) : message;
}

/** Runs `fn`, reporting any failure to the user. Returns `fn`'s result, or undefined on failure. */
export async function runCommand<T>(
  services: Pick<Services, 'log'>,
  fn: () => T | Promise<T>,
  what = 'Command',
): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    reportError(services, e, what);
    return undefined;
  }
}

/** Logs a failure and shows it with "Show Logs"; silent (debug log only) for cancellation. */
export function reportError(services: Pick<Services, 'log'>, e: unknown, what = 'Command'): void {
  if (isCancellation(e)) {
    services.log.debug(`${what} cancelled`);
    return;
  }
  const message = redactMessage(services.log, errorMessage(e));
  services.log.error(`${what} failed: ${message}`);
  if (!isApiError(e) && e instanceof Error && e.stack) services.log.trace(e.stack);
  const check = isApiError(e) && e.kind === 'unknownOutcome' ? e.check : undefined;
  const actions = check?.command ? [CHECK, SHOW_LOGS] : [SHOW_LOGS];
  void vscode.window.showErrorMessage(message, ...actions).then((choice) => {
    if (choice === SHOW_LOGS) services.log.show(true);
    if (choice === CHECK && check?.command) {
      void vscode.commands.executeCommand(check.command, ...(check.args ?? []));
    }
  });
}

/** registerCommand + runCommand. The handler's result is returned to the caller (tests, other features). */
export function registerCommand(
  services: Pick<Services, 'log'>,
  command: CommandSpec,
  handler: (...args: never[]) => unknown,
): vscode.Disposable {
  return vscode.commands.registerCommand(command.id, (...args: unknown[]) =>
    runCommand(services, () => (handler as (...a: unknown[]) => unknown)(...args), command.title),
  );
}

export { COMMANDS };
