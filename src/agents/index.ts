// Agents feature: the language model tools, the @dashboard chat participant and the MCP server
// definition provider. Registration only: nothing runs until VS Code or an agent calls in.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { PROPOSAL_SCHEME, ProposalDocuments, hostGateway } from './hostContext';
import { registerLanguageModelTools, type HostTools } from './lmTools';
import { McpProvider, MCP_PROVIDER_ID } from './mcpProvider';
import { participantHandler, registerParticipant } from './participant';

export interface AgentsFeature {
  /** The language model tools as registered (prepareInvocation and invoke), by name. */
  tools: HostTools;
  mcpProvider: McpProvider;
  participantHandler: vscode.ChatRequestHandler;
}

export function register(services: Services): { disposables: vscode.Disposable[]; feature: AgentsFeature } {
  const gateway = hostGateway(services);
  const proposals = new ProposalDocuments();
  const { disposables, tools } = registerLanguageModelTools(services, gateway, proposals);
  disposables.push(vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, proposals));
  const mcpProvider = new McpProvider(services);
  disposables.push(
    mcpProvider,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcpProvider),
    registerParticipant(services),
  );
  return { disposables, feature: { tools, mcpProvider, participantHandler: participantHandler(services) } };
}
