// The services handed to every feature's `register(services)`. Built once, in extension.ts.
import type * as vscode from 'vscode';
import type { ProfileService } from './profiles/profileService';
import type { ClientProvider } from './profiles/clientProvider';
import type { RedactingLog } from './log';
import type { ModelBranchState } from './model/modelBranchState';

export interface Services {
  context: vscode.ExtensionContext;
  /** The one log channel; every line is redacted (see src/log.ts). */
  log: RedactingLog;
  profiles: ProfileService;
  clients: ClientProvider;
  /** The data model's branch in dev mode (set by the model, read by the chat and notebooks). */
  modelBranch: ModelBranchState;
}

export type { ProfileService, ClientProvider };
