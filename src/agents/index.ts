// The agents feature's activation part: the language model tools (under the names the manifest
// contributes), the @dashboard chat participant and the MCP server definition provider are
// registered as small shims; the tools' code, the API clients and the MCP provider's logic
// (agentsFeature.ts) load on the first call.
import * as vscode from 'vscode';
import { LazyFeature, lazyModule } from '../lazy';
import type { Services } from '../services';
import type { AgentsFeature } from './agentsFeature';
import type * as AgentsModule from './agentsFeature';

export type { AgentsFeature };

/** Same as participant.ts's PARTICIPANT_ID and mcpProvider.ts's MCP_PROVIDER_ID (and the manifest). */
const PARTICIPANT_ID = 'dashboardPlatform.dashboard';
const MCP_PROVIDER_ID = 'dashboardPlatform.mcp';

/** The tool names the manifest contributes (a unit test keeps them equal to the tools' code). */
function contributedToolNames(context: vscode.ExtensionContext): string[] {
  const pkg = context.extension.packageJSON as {
    contributes?: { languageModelTools?: { name?: unknown }[] };
  };
  return (pkg.contributes?.languageModelTools ?? [])
    .map((t) => t.name)
    .filter((n): n is string => typeof n === 'string');
}

export function register(services: Services): {
  readonly feature: AgentsFeature;
  disposables: vscode.Disposable[];
} {
  const changed = new vscode.EventEmitter<void>();
  let forward: vscode.Disposable | undefined;
  const lazy = new LazyFeature([], () => {
    const mod = lazyModule<typeof AgentsModule>('src/agents/agentsFeature.ts');
    const { feature, disposables } = mod.createAgentsFeature(services);
    forward = feature.mcpProvider.onDidChangeMcpServerDefinitions(() => changed.fire());
    services.context.subscriptions.push(...disposables);
    return feature;
  });
  const tool = (name: string): vscode.LanguageModelTool<Record<string, unknown>> => {
    const impl = () => {
      const t = lazy.get().tools.get(name);
      if (!t) throw new Error(`The tool ${name} is not part of this version of the extension.`);
      return t;
    };
    return {
      prepareInvocation: (options, token) => impl().prepareInvocation?.(options, token),
      invoke: (options, token) => impl().invoke(options, token),
    };
  };
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, context, stream, token) =>
    lazy.get().participantHandler(request, context, stream, token),
  );
  participant.iconPath = vscode.Uri.joinPath(
    services.context.extensionUri,
    'media',
    'dashboard-platform.svg',
  );
  return {
    get feature() {
      return lazy.get();
    },
    disposables: [
      lazy,
      changed,
      { dispose: () => forward?.dispose() },
      participant,
      ...contributedToolNames(services.context).map((name) => vscode.lm.registerTool(name, tool(name))),
      vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
        onDidChangeMcpServerDefinitions: changed.event,
        provideMcpServerDefinitions: () => lazy.get().mcpProvider.provideMcpServerDefinitions(),
        // Only stdio definitions are provided, so only those come back to be resolved.
        resolveMcpServerDefinition: (server) =>
          lazy.get().mcpProvider.resolveMcpServerDefinition(server as vscode.McpStdioServerDefinition),
      }),
    ],
  };
}
