// Asking for a profile's AI session identity in Add/Edit Profile. The AI API needs an external id
// (an external user) or an internal id (the username of an existing user of the tenant); the
// prompt offers a default for this machine so the question can be skipped with Enter.
import * as vscode from 'vscode';
import { UserCancelled } from '../log';
import { machineExternalId } from './clientProvider';
import { sessionIdProblem, type Profile } from './profileModel';

type Field = 'externalId' | 'internalId';

export async function askSessionIdentity(title: string, current?: Profile): Promise<Profile['session']> {
  const fallback = machineExternalId();
  const choices: (vscode.QuickPickItem & { field: Field })[] = [
    {
      label: 'External user id',
      description: current?.session?.externalId ?? `default: ${fallback}`,
      detail: 'Chats run as an external user with this id (lowercase).',
      field: 'externalId',
    },
    {
      label: 'Internal user (username)',
      description: current?.session?.internalId ?? '',
      detail: 'Chats run as an existing user of the tenant, with that user’s permissions.',
      field: 'internalId',
    },
  ];
  if (current?.session?.internalId) choices.reverse();
  const picked = await vscode.window.showQuickPick(choices, {
    title,
    placeHolder: 'AI session identity (sessionSettings): who the AI agent answers as',
    ignoreFocusOut: true,
  });
  if (!picked) throw new UserCancelled();
  const field = picked.field;
  const value = await vscode.window.showInputBox({
    title,
    ignoreFocusOut: true,
    prompt:
      field === 'externalId'
        ? `External user id (lowercase; leave empty for the default ${fallback})`
        : 'Username of an existing user of the tenant (often an e-mail address)',
    value: current?.session?.[field] ?? '',
    validateInput: (v) =>
      field === 'internalId' && !v.trim() ? 'Enter the username.' : sessionIdProblem(field, v.trim()),
  });
  if (value === undefined) throw new UserCancelled();
  const rest: Record<string, unknown> = { ...current?.session };
  delete rest.externalId;
  delete rest.internalId;
  // An empty external id keeps the machine default (not stored, so it follows the machine).
  const session = { ...rest, ...(value.trim() ? { [field]: value.trim() } : {}) };
  return Object.keys(session).length > 0 ? session : undefined;
}
