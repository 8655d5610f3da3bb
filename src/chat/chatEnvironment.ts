// What the chat panel needs from the rest of the extension, gathered in one small interface so the
// panel does not reach into profiles, clients and settings itself.
import type * as vscode from 'vscode';
import type { AiClient, SessionSettings } from '../api';
import type { Meta } from '../api/schemas/data';
import { reportError } from '../commandRunner';
import { allowRemoteImages } from '../config/safetySettings';
import type { Services } from '../services';
import type { ModelBranchTarget } from '../model/modelBranchState';

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
  /**
   * The model's branch in dev mode when it belongs to the agent's deployment (a deployment-scoped
   * agent URL's, else the profile's default deployment): the agent is pointed at it with the AI
   * API's `activeBranchName`. Undefined: the main branch.
   */
  target(agentUrl: string): ModelBranchTarget | undefined;
  /** The model's branch in dev mode that a chat could not use (another deployment's), if any. */
  otherTarget(agentUrl: string): ModelBranchTarget | undefined;
  readonly onDidChangeTarget: vscode.Event<unknown>;
  /** The semantic model the agent answers from (for starter prompts): the target's, else main's. */
  meta(agentUrl: string): Promise<Meta>;
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
    target: (url) => {
      const t = services.modelBranch.current;
      return t && sameDeployment(services, url, t) ? t : undefined;
    },
    otherTarget: (url) => {
      const t = services.modelBranch.current;
      return t && !sameDeployment(services, url, t) ? t : undefined;
    },
    onDidChangeTarget: services.modelBranch.onDidChange,
    meta: async (url) => {
      const t = services.modelBranch.current;
      if (t && sameDeployment(services, url, t))
        return (await services.clients.devData(t.deploymentId, t.branch)).meta();
      return (await services.clients.data()).meta();
    },
    allowRemoteImages: () => allowRemoteImages(),
    showError: (error) => reportError(services, error, 'Chat'),
  };
}

/**
 * Whether the model's branch belongs to the agent's deployment: a deployment-scoped URL's, else
 * the profile's default deployment. With neither known (an agent-scoped URL, no default) the
 * branch is sent: the service answers "Bad branch" if the agent cannot use it.
 */
function sameDeployment(services: Services, agentUrl: string, t: ModelBranchTarget): boolean {
  const m = /\/deployments\/(\d+)(?:\/|$)/.exec(agentUrl);
  const id = m ? Number(m[1]) : services.profiles.active()?.profile.defaultDeploymentId;
  return id === undefined || id === t.deploymentId;
}

/** The panel's line saying what the agent's queries run against. */
export function targetLine(
  dev: ModelBranchTarget | undefined,
  other: ModelBranchTarget | undefined,
): { text: string; dev: boolean } {
  if (dev) return { text: `Data: branch "${dev.branch}" in dev mode (${dev.deploymentName})`, dev: true };
  if (other)
    return {
      text: `Data: main branch (the model's branch "${other.branch}" is on ${other.deploymentName}, not this agent's deployment)`,
      dev: false,
    };
  return { text: 'Data: main branch', dev: false };
}
