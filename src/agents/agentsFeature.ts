// The agents feature, loaded on first use (see index.ts, which registers the tools, the @dashboard
// participant and the MCP provider at activation as small shims that call in here).
import * as vscode from 'vscode';
import type { Services } from '../services';
import { PROPOSAL_SCHEME, ProposalDocuments, hostGateway } from './hostContext';
import { createLanguageModelTools, type HostTools } from './lmTools';
import { McpProvider } from './mcpProvider';
import { participantHandler } from './participant';

export interface AgentsFeature {
  /** The language model tools as registered (prepareInvocation and invoke), by name. */
  tools: HostTools;
  mcpProvider: McpProvider;
  participantHandler: vscode.ChatRequestHandler;
}

/** The feature: the tools' implementations, the MCP provider and the participant's handler. */
export function createAgentsFeature(services: Services): {
  disposables: vscode.Disposable[];
  feature: AgentsFeature;
} {
  const gateway = hostGateway(services);
  const proposals = new ProposalDocuments();
  const tools = createLanguageModelTools(services, gateway, proposals);
  const mcpProvider = new McpProvider(services);
  const disposables: vscode.Disposable[] = [
    vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, proposals),
    mcpProvider,
  ];
  return { disposables, feature: { tools, mcpProvider, participantHandler: participantHandler(services) } };
}
