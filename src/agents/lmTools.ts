// The agent tools as VS Code language model tools (contributes.languageModelTools). Before a call
// VS Code shows what will run, on which deployment and profile; a query (which costs warehouse
// time) and every path to production (publish, merge, deletes) are confirmed first; a dashboard
// proposal is shown as a diff for the user to apply or discard. Names from the service are shown
// as text (appendText escapes Markdown), never as markup.
import * as vscode from 'vscode';
import { requireTrustedWorkspace } from '../config/safetySettings';
import type { Services } from '../services';
import type { PlatformGateway } from './gateway';
import { activeProfileInfo, type ProposalDocuments, workspaceFiles } from './hostContext';
import { AGENT_TOOLS, fenced, parseInput, quote, runTool, type AgentTool, type FileAccess } from './tools';

/**
 * Text for a MarkdownString with every Markdown character escaped (names from the service stay
 * text). Not MarkdownString.appendText, which also turns every space into &nbsp;.
 */
export function markdownText(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!<>|~&]/g, '\\$&');
}

/** The registered tool objects by name (the integration tests call prepareInvocation directly). */
export type HostTools = Map<string, vscode.LanguageModelTool<Record<string, unknown>>>;

async function where(
  services: Services,
  gateway: PlatformGateway,
  deploymentId: unknown,
): Promise<{ text: string; production: boolean }> {
  let profile;
  try {
    profile = activeProfileInfo(services);
  } catch {
    return { text: 'no active profile', production: false };
  }
  const id = typeof deploymentId === 'number' ? deploymentId : profile.defaultDeploymentId;
  let dep = 'the only deployment';
  if (id !== undefined) {
    const name = await gateway.deploymentName(id).catch(() => undefined);
    dep = name ? `deployment ${quote(name)} (${id})` : `deployment ${id}`;
  }
  return {
    text: `${dep}, profile ${quote(profile.name)}${profile.production ? ' (PRODUCTION)' : ''}`,
    production: profile.production,
  };
}

function hostTool(services: Services, gateway: PlatformGateway, files: FileAccess, tool: AgentTool) {
  const impl: vscode.LanguageModelTool<Record<string, unknown>> = {
    async prepareInvocation(options) {
      let summary: string;
      try {
        summary = tool.summary(parseInput(tool, options.input));
      } catch {
        summary = tool.title;
      }
      if (tool.effect === 'write') {
        return { invocationMessage: `${summary} (shown as a diff to apply or discard; never published)` };
      }
      const at = await where(services, gateway, options.input?.deploymentId);
      const place = at.text;
      if (tool.effect === 'read') return { invocationMessage: `${summary} (${place})` };
      if (tool.effect === 'production') {
        // Always asked (a path to production is destructive), with PRODUCTION in the title there.
        const body = new vscode.MarkdownString();
        body.appendMarkdown(`${markdownText(`${summary} on ${place}?`)}\n\n`);
        body.appendMarkdown(
          "This changes what the platform's users see, at once; it cannot be undone from here.",
        );
        return {
          invocationMessage: `${summary} (${place})`,
          confirmationMessages: {
            title: `${tool.title}${at.production ? ' on PRODUCTION' : ''}?`,
            message: body,
          },
        };
      }
      const input = options.input as { sql?: unknown; query?: unknown };
      const body = new vscode.MarkdownString();
      body.appendMarkdown(`Run this query on ${markdownText(place)}?\n\n`);
      // Not appendCodeblock: its fence is always three backticks, which the SQL could close.
      if (typeof input.sql === 'string') body.appendMarkdown(fenced(input.sql, 'sql'));
      else body.appendMarkdown(fenced(JSON.stringify(input.query ?? {}, null, 2), 'json'));
      body.appendMarkdown('\n\nIt runs on the warehouse and returns at most 100 rows a page.');
      return {
        invocationMessage: `Running the query (${place})`,
        confirmationMessages: { title: 'Run a Dashboard Platform query?', message: body },
      };
    },
    async invoke(options, token) {
      requireTrustedWorkspace('Agent tools');
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        const run = await runTool(
          tool,
          { gateway, redact: (t) => services.log.redact(t), files },
          options.input,
          { log: services.log, surface: 'lm-tool', signal: controller.signal },
        );
        if (!run.ok) throw new Error(run.text);
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(run.text)]);
      } finally {
        sub.dispose();
      }
    },
  };
  return impl;
}

/** The tools' implementations by name; index.ts registers them under the contributed names. */
export function createLanguageModelTools(
  services: Services,
  gateway: PlatformGateway,
  proposals: ProposalDocuments,
): HostTools {
  const tools: HostTools = new Map();
  const files = workspaceFiles(proposals, () => {
    const active = services.profiles.active();
    return active?.profile.production ? active.profile.name : undefined;
  });
  for (const tool of AGENT_TOOLS) tools.set(tool.name, hostTool(services, gateway, files, tool));
  return tools;
}
