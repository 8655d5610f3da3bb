// The chat feature's activation part: the status bar entry and the panel serializer (panels survive
// a reload). Everything else (chatFeature.ts) loads on the first chat command or restored panel.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { commandIds, lazyModule, registerLazyFeature, type Registered } from '../lazy';
import type { Services } from '../services';
import { profileAgents } from './chatEnvironment';
import type { ChatFeature } from './chatFeature';
import type * as ChatModule from './chatFeature';

export type { ChatFeature };

/** Same as chatPanel.ts's CHAT_VIEW_TYPE (and the manifest's onWebviewPanel activation event). */
const CHAT_VIEW_TYPE = 'dashboardPlatform.chat';

/** "Chat" in the status bar while the active profile has agents (the Sandbox always does). */
function chatStatusItem(services: Services): vscode.Disposable[] {
  const item = vscode.window.createStatusBarItem(
    'dashboardPlatform.chat',
    vscode.StatusBarAlignment.Left,
    99,
  );
  item.name = 'Dashboard Platform Chat';
  item.text = '$(comment-discussion) Chat';
  item.tooltip = 'Chat with an AI agent of the active profile';
  item.command = COMMANDS.chatOpen.id;
  const update = () => {
    // The Sandbox always has agents (once started), so its entry shows before the first start too.
    if (services.profiles.active()?.isSandbox || profileAgents(services).length > 0) item.show();
    else item.hide();
  };
  update();
  return [
    item,
    services.profiles.onDidChangeActiveProfile(update),
    services.profiles.sandbox.onDidChange(update),
  ];
}

export function register(services: Services): Registered<ChatFeature> {
  const registered = registerLazyFeature(
    commandIds(COMMANDS, 'dashboardPlatform.chat.'),
    services.context.subscriptions,
    () => lazyModule<typeof ChatModule>('src/chat/chatFeature.ts').createChatFeature(services),
  );
  registered.disposables.push(
    ...chatStatusItem(services),
    vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state) => registered.feature.deserialize(panel, state),
    }),
  );
  return registered;
}
