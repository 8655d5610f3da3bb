// Add Profile's review step: the connection test's result in one modal (what works, what does not
// and why), with Save (Save Anyway when something failed), Edit (back through the steps) or Cancel;
// and the deployments its default deployment is picked from, listed with the URL and token typed.
import * as vscode from 'vscode';
import type * as Api from '../api';
import { readNetworkSettings } from '../config/networkSettings';
import { lazyModule } from '../lazyModule';
import { apiLogger, UserCancelled, type RedactingLog } from '../log';
import { checkConnection, describeCheck, listDeploymentsFor, type ListedDeployment } from './connectionCheck';
import type { ProfileInput, SecretKind } from './profileModel';

/** Shows what works and what does not; true: save, false: edit again (Cancel throws). */
export async function connectionReviewed(
  input: ProfileInput,
  secrets: Partial<Record<SecretKind, string>>,
  log: RedactingLog,
): Promise<boolean> {
  const lines = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Testing the connection…', cancellable: true },
    async (_p, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        return await checkConnection(
          input,
          secrets,
          {
            api: lazyModule<typeof Api>('src/api/index.ts'),
            network: await readNetworkSettings((m) => log.warn(m)),
            logger: apiLogger(log),
          },
          abort.signal,
        );
      } finally {
        sub.dispose();
      }
    },
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
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Listing deployments…', cancellable: true },
    async (_p, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        return await listDeploymentsFor(
          q,
          {
            api: lazyModule<typeof Api>('src/api/index.ts'),
            network: await readNetworkSettings((m) => log.warn(m)),
            logger: apiLogger(log),
          },
          abort.signal,
        );
      } finally {
        sub.dispose();
      }
    },
  );
}
