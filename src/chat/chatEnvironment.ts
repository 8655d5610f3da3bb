// What the chat panel needs from the rest of the extension, gathered in one small interface so the
// panel does not reach into profiles, clients and settings itself.
import * as vscode from 'vscode';
import type { AiClient, SessionSettings } from '../api';
import type { Meta } from '../api/schemas/data';
import { reportError } from '../commandRunner';
import type { Services } from '../services';

export interface AgentRef {
  name: string;
  url: string;
}

export interface ChatEnvironment {
  extensionUri: vscode.Uri;
  log: { warn(message: string): void; info(message: string): void };
  aiClient(agentUrl: string): Promise<AiClient>;
  sessionSettings(): SessionSettings;
  profileName(): string;
  /** The semantic model of the profile's default deployment (for starter prompts). */
  meta(): Promise<Meta>;
  allowRemoteImages(): boolean;
  showError(error: unknown): void;
}

/** The active profile's agents ({name, url}); empty when signed out or the profile has none. */
export function profileAgents(services: Services): AgentRef[] {
  const active = services.profiles.active();
  return (active?.profile.agents ?? []).map((a) => ({ name: a.label, url: a.url }));
}

/** Like {@link profileAgents}, but starts the sandbox first when it is the active profile (its agents are known only once it runs). */
export async function resolveAgents(services: Services): Promise<AgentRef[]> {
  if (services.profiles.active()?.isSandbox) await services.profiles.sandbox.start();
  return profileAgents(services);
}

export function chatEnvironment(services: Services): ChatEnvironment {
  return {
    extensionUri: services.context.extensionUri,
    log: services.log,
    aiClient: (url) => services.clients.ai(url),
    sessionSettings: () => services.clients.sessionSettings(),
    profileName: () => services.profiles.active()?.profile.name ?? '',
    meta: async () => (await services.clients.data()).meta(),
    allowRemoteImages: () =>
      vscode.workspace.getConfiguration('dashboardPlatform').get<boolean>('chat.allowRemoteImages', false),
    showError: (error) => reportError(services, error, 'Chat'),
  };
}
