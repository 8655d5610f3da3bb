// Add Profile's review step: the connection test's result in one modal (what works, what does not
// and why), with Save (Save Anyway when something failed), Edit (back through the steps) or Cancel;
// and the deployments its default deployment is picked from, listed with the URL and token typed.
import * as vscode from 'vscode';
import type * as Api from '../api';
import { readNetworkSettings } from '../config/networkSettings';
import { lazyModule } from '../lazyModule';
import { apiLogger, UserCancelled, type RedactingLog } from '../log';
import {
  checkConnection,
  describeCheck,
  listDeploymentsFor,
  type CheckDeps,
  type ListedDeployment,
} from './connectionCheck';
import type { ProfileInput, SecretKind } from './profileModel';

/** Shows what works and what does not; true: save, false: edit again (Cancel throws). */
export async function connectionReviewed(
  input: ProfileInput,
  secrets: Partial<Record<SecretKind, string>>,
  log: RedactingLog,
): Promise<boolean> {
  const lines = await withApiProgress('Testing the connection…', log, (deps, signal) =>
    checkConnection(input, secrets, deps, signal),
  );
  const failed = lines.some((l) => l.state === 'fails');
  const save = failed ? 'Save Anyway' : 'Save';
  const choice = await vscode.window.showInformationMessage(
    failed
      ? `Profile "${input.name}": the connection test found problems.`
      : `Profile "${input.name}": connected.`,
    { modal: true, detail: describeCheck(lines) },
    save,
    'Edit',
  );
  if (choice === save) return true;
  if (choice === 'Edit') return false;
  throw new UserCancelled();
}

/** The deployments the profile being written sees, with progress in the picker's place. */
export async function listDeployments(
  q: { name: string; platformUrl: string; token: string | undefined },
  log: RedactingLog,
): Promise<{ items: ListedDeployment[]; truncated: boolean }> {
  return withApiProgress('Listing deployments…', log, (deps, signal) => listDeploymentsFor(q, deps, signal));
}

/** Runs a connection call with cancellable progress, on the API loaded lazily and today's network settings. */
async function withApiProgress<T>(
  title: string,
  log: RedactingLog,
  run: (deps: CheckDeps, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (_p, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        const deps = {
          api: lazyModule<typeof Api>('src/api/index.ts'),
          network: await readNetworkSettings((m) => log.warn(m)),
          logger: apiLogger(log),
        };
        return await run(deps, abort.signal);
      } finally {
        sub.dispose();
      }
    },
  );
}
