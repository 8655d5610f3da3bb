// The services handed to every feature's `register(services)`. Built once, in extension.ts.
import type * as vscode from 'vscode';
import type { ProfileService } from './profiles/profileService';
import type { ClientProvider } from './profiles/clientProvider';
import type { RedactingLog } from './log';

export interface Services {
  context: vscode.ExtensionContext;
  /** The one log channel; every line is redacted (see src/log.ts). */
  log: RedactingLog;
  profiles: ProfileService;
  clients: ClientProvider;
}

export type { ProfileService, ClientProvider };
