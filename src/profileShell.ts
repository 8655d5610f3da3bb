// The profiles' activation part: the client provider (whose platform client, like the other
// clients, loads the HTTP stack on first use) and the profile commands, loaded on first use.
import * as vscode from 'vscode';
import { COMMANDS } from './commands';
import { readNetworkSettings, affectsNetwork } from './config/networkSettings';
import { commandIds, LazyFeature, lazyModule } from './lazy';
import { apiLogger, type RedactingLog } from './log';
import { ProfileClientProvider } from './profiles/clientProvider';
import type * as PlatformFactory from './profiles/platformFactory';
import type * as ProfileCommands from './profiles/profileCommands';
import type { ProfileService } from './profiles/profileService';
import type { Services } from './services';

export function createClients(profiles: ProfileService, log: RedactingLog): ProfileClientProvider {
  return new ProfileClientProvider({
    profiles,
    logger: apiLogger(log),
    network: () => readNetworkSettings((m) => log.warn(m)),
    createPlatform: (opts) =>
      lazyModule<typeof PlatformFactory>('src/profiles/platformFactory.ts').createPlatformClient(opts),
  });
}

export function registerProfileShell(
  services: Services,
  clients: ProfileClientProvider,
): vscode.Disposable[] {
  const commands = new LazyFeature(commandIds(COMMANDS, 'dashboardPlatform.profiles.'), () =>
    services.context.subscriptions.push(
      ...lazyModule<typeof ProfileCommands>('src/profiles/profileCommands.ts').registerProfileCommands(
        services,
      ),
    ),
  );
  return [
    clients,
    commands,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsNetwork(e)) clients.reset();
    }),
  ];
}
