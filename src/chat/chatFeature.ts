// The chat feature, loaded on first use (see index.ts): panels, history, commands and "Open in
// notebook" for SQL from a tool call.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { ChatHistory } from './chatHistory';
import { CHAT_VIEW_TYPE, ChatPanel, restoredState } from './chatPanel';
import { chatEnvironment, resolveAgents } from './chatEnvironment';
import type { AgentRef } from './chatEnvironment';
import { openSqlInNotebook } from './openInNotebook';
import { COMMANDS } from '../commands';
import { registerCommand } from '../commandRunner';
import { agentDescription } from './agentLabel';

export class ChatFeature implements vscode.Disposable {
  private readonly panels = new Set<ChatPanel>();
  private readonly history: ChatHistory;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly services: Services) {
    this.history = new ChatHistory(services.context.workspaceState);
    // The status bar entry lives in index.ts (shown before the feature loads); open panels say
    // when the active profile is no longer theirs.
    this.disposables.push(
      services.profiles.onDidChangeActiveProfile((active) => {
        for (const p of this.panels) p.profileChanged(active?.profile.name ?? '');
      }),
    );
  }

  /** The most recently active chat panel, for commands and tests. */
  get activePanel(): ChatPanel | undefined {
    let last: ChatPanel | undefined;
    for (const p of this.panels) if (p.panel.active || !last) last = p;
    return last;
  }

  async open(args?: { agentUrl?: string; newPanel?: boolean }): Promise<ChatPanel | undefined> {
    const agent = await this.pickAgent(args?.agentUrl);
    if (!agent) return undefined;
    const existing = [...this.panels].find((p) => p.agentRef.url === agent.url);
    if (existing && !args?.newPanel) {
      existing.panel.reveal();
      return existing;
    }
    // A second chat opens where the chats already are, not in yet another editor group.
    const column = [...this.panels].find((p) => p.panel.viewColumn !== undefined)?.panel.viewColumn;
    const panel = vscode.window.createWebviewPanel(
      CHAT_VIEW_TYPE,
      `Chat: ${agent.name}`,
      column ?? vscode.ViewColumn.Beside,
      {
        retainContextWhenHidden: true,
      },
    );
    return this.adopt(panel, agent);
  }

  async ask(args: { question?: string; agentUrl?: string }): Promise<ChatPanel | undefined> {
    const question =
      args.question ??
      (await vscode.window.showInputBox({
        title: 'Ask the AI agent',
        prompt: 'A question about your data',
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : 'Type a question.'),
      }));
    if (!question) return undefined;
    const panel = await this.open({ agentUrl: args.agentUrl });
    await panel?.ask(question);
    return panel;
  }

  async showHistory(): Promise<void> {
    const entries = this.history.list(this.services.profiles.active()?.profile.name ?? '');
    if (entries.length === 0) {
      void vscode.window.showInformationMessage(
        'No chats in this workspace yet. Open a chat and ask a question.',
      );
      return;
    }
    const pick = await vscode.window.showQuickPick(
      entries.map((e) => ({
        label: e.title,
        description: e.agentName,
        detail: new Date(e.updatedAt).toLocaleString(),
        entry: e,
      })),
      {
        title: 'Reopen a chat',
        placeHolder: 'Chats of this workspace, newest first',
        matchOnDescription: true,
      },
    );
    if (!pick) return;
    const agent = { name: pick.entry.agentName, url: pick.entry.agentUrl };
    const panel = this.activePanel ?? (await this.open({ agentUrl: agent.url }));
    await panel?.openChat(pick.entry.chatId, agent);
  }

  async deserialize(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const { chatId, agentUrl } = restoredState(state);
    const agents = await resolveAgents(this.services).catch(() => []);
    const agent = agents.find((a) => a.url === agentUrl) ?? agents[0];
    if (!agent) {
      panel.webview.html = `<!DOCTYPE html><html><body><p>This chat belongs to a profile that is not active or has no AI agent. Switch profile and open the chat again.</p></body></html>`;
      return;
    }
    const chat = this.adopt(panel, agent);
    if (chatId) {
      void chat
        .openChat(chatId)
        .catch((e: unknown) => this.services.log.warn(`Reopening chat failed: ${String(e)}`));
    }
  }

  private adopt(panel: vscode.WebviewPanel, agent: AgentRef): ChatPanel {
    const chat = new ChatPanel(panel, agent, chatEnvironment(this.services), this.history, (p) =>
      this.panels.delete(p),
    );
    this.panels.add(chat);
    return chat;
  }

  private async pickAgent(agentUrl?: string): Promise<AgentRef | undefined> {
    const agents = await resolveAgents(this.services);
    if (agentUrl) {
      const match = agents.find((a) => a.url === agentUrl);
      if (match) return match;
      throw new Error(`The active profile has no AI agent at ${agentUrl}. Edit the profile to add it.`);
    }
    if (agents.length === 0) {
      const choice = await vscode.window.showWarningMessage(
        'The active profile has no AI agent. Add an agent URL to the profile, or switch to the Sandbox profile.',
        'Edit Profile',
        'Switch Profile',
      );
      if (choice === 'Edit Profile') await vscode.commands.executeCommand('dashboardPlatform.profiles.edit');
      if (choice === 'Switch Profile')
        await vscode.commands.executeCommand('dashboardPlatform.profiles.switch');
      return undefined;
    }
    if (agents.length === 1) return agents[0];
    const pick = await vscode.window.showQuickPick(
      agents.map((a) => ({
        label: a.name,
        description: agentDescription(a.url, !!this.services.profiles.active()?.isSandbox),
        agent: a,
      })),
      { title: 'Chat with which agent?' },
    );
    return pick?.agent;
  }

  dispose(): void {
    for (const p of [...this.panels]) p.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** The feature and its commands (the panel serializer and status entry are registered at activation). */
export function createChatFeature(services: Services): {
  feature: ChatFeature;
  disposables: vscode.Disposable[];
} {
  const feature = new ChatFeature(services);
  const disposables: vscode.Disposable[] = [
    feature,
    registerCommand(services, COMMANDS.chatOpen, (args?: { agentUrl?: string }) => feature.open(args)),
    registerCommand(services, COMMANDS.chatAsk, (args?: { question?: string; agentUrl?: string }) =>
      feature.ask(args ?? {}),
    ),
    registerCommand(services, COMMANDS.chatNew, async () => {
      const panel = feature.activePanel ?? (await feature.open());
      await panel?.newChat();
    }),
    registerCommand(services, COMMANDS.chatStop, () => feature.activePanel?.stop()),
    registerCommand(services, COMMANDS.chatHistory, () => feature.showHistory()),
    registerCommand(services, COMMANDS.chatOpenSqlInNotebook, (args?: { sql?: string }) =>
      openSqlInNotebook(args?.sql),
    ),
  ];
  return { feature, disposables };
}
