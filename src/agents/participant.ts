// The @dashboard chat participant: forwards each question to the active profile's AI agent (the
// same stream as the chat panel) and keeps the agent's chat id in the result metadata, so the next
// question continues the same conversation. /new starts a fresh one.
import * as vscode from 'vscode';
import { allowRemoteImages } from '../config/safetySettings';
import type { Services } from '../services';
import { errorMessage, isCancellation } from '../log';
import { forwardTurn } from './participantStream';

export const PARTICIPANT_ID = 'dashboardPlatform.dashboard';

interface TurnMetadata {
  chatId?: string;
  profile?: string;
  agentUrl?: string;
}

/** The chat id of the last answer in this conversation from the same profile and agent. */
function previousChatId(context: vscode.ChatContext, profile: string, agentUrl: string): string | undefined {
  for (let i = context.history.length - 1; i >= 0; i--) {
    const turn = context.history[i];
    if (!(turn instanceof vscode.ChatResponseTurn) || turn.participant !== PARTICIPANT_ID) continue;
    const m = turn.result.metadata as TurnMetadata | undefined;
    if (m?.chatId && m.profile === profile && m.agentUrl === agentUrl) return m.chatId;
    // A /new turn without a chat of its own (it failed) still ends the earlier conversation.
    if (turn.command === 'new') return undefined;
  }
  return undefined;
}

export function participantHandler(services: Services): vscode.ChatRequestHandler {
  return async (request, context, response, token) => {
    const controller = new AbortController();
    let chatId: string | undefined;
    let client: Awaited<ReturnType<Services['clients']['ai']>> | undefined;
    const sub = token.onCancellationRequested(() => {
      controller.abort();
      if (chatId && client) {
        void client.abort(chatId, services.clients.sessionSettings()).catch((e: unknown) => {
          services.log.warn(`Stopping chat ${chatId} failed: ${errorMessage(e)}`);
        });
      }
    });
    try {
      const active = services.profiles.active();
      if (!active)
        throw new Error(
          'No Dashboard Platform profile is active. Choose one (or "Sandbox") from the status bar.',
        );
      if (active.isSandbox) await services.profiles.sandbox.start();
      const agent = services.profiles.active()?.profile.agents[0];
      if (!agent) {
        throw new Error(
          `Profile "${active.profile.name}" has no AI agent. Edit the profile to add an agent URL.`,
        );
      }
      const prompt = request.prompt.trim();
      if (!prompt) {
        response.markdown(
          `Ask **${agent.label}** (profile "${active.profile.name}") a question about your data.`,
        );
        return { metadata: {} };
      }
      chatId =
        request.command === 'new' ? undefined : previousChatId(context, active.profile.name, agent.url);
      client = await services.clients.ai(agent.url);
      response.progress(`Asking ${agent.label} (profile "${active.profile.name}")…`);
      services.log.info(
        `[chat participant] question to agent "${agent.label}"${chatId ? ` in chat ${chatId}` : ''}`,
      );
      const outcome = await forwardTurn(
        client,
        { input: prompt, chatId, sessionSettings: services.clients.sessionSettings() },
        { markdown: (t) => response.markdown(t), progress: (t) => response.progress(t) },
        {
          allowRemoteImages: allowRemoteImages(),
          redact: (t) => services.log.redact(t),
        },
        controller.signal,
      );
      chatId = outcome.chatId;
      const metadata: TurnMetadata = {
        chatId: outcome.chatId,
        profile: active.profile.name,
        agentUrl: agent.url,
      };
      if (outcome.error) return { metadata, errorDetails: { message: outcome.error } };
      return { metadata };
    } catch (e) {
      if (isCancellation(e) || token.isCancellationRequested) return { metadata: { chatId } };
      const message = services.log.redact(errorMessage(e));
      services.log.error(`[chat participant] ${message}`);
      return { errorDetails: { message }, metadata: { chatId } };
    } finally {
      sub.dispose();
    }
  };
}
