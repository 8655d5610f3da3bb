// The MCP server over the agent tools: lists them with their JSON Schemas and annotations and runs
// them with the safety policy: read-only unless writes are allowed, and a write on a production
// profile only after the user confirms through the client (elicitation); otherwise refused with
// the reason. vscode-free; the stdio entry point is server.ts.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { PlatformGateway } from '../agents/gateway';
import {
  AGENT_TOOLS,
  findTool,
  inputJsonSchema,
  runTool,
  type AgentTool,
  type FileAccess,
  type ToolCallLog,
} from '../agents/tools';
import { MCP_ENV } from './config';

export interface McpServerOptions {
  gateway: PlatformGateway;
  allowWrites: boolean;
  root: string;
  redact(text: string): string;
  log: ToolCallLog;
  version: string;
}

const SETTING_HINT = `turn on "dashboardPlatform.mcp.allowWrites" in VS Code, or set ${MCP_ENV.allowWrites}=1 outside VS Code`;

/** Files under `root` only: a path that leaves it is refused. */
export function rootedFiles(root: string, write: boolean): FileAccess {
  const resolve = (file: string) => {
    const full = path.resolve(root, file);
    const rel = path.relative(root, full);
    if (rel.startsWith('..') || path.isAbsolute(rel)) {
      throw new Error(`${file} is outside the folder this server may edit (${root}).`);
    }
    return { full, display: rel.split(path.sep).join('/') };
  };
  return {
    async read(file) {
      const { full, display } = resolve(file);
      try {
        return { text: await fs.readFile(full, 'utf8'), display };
      } catch (e) {
        throw new Error(
          `Cannot read ${display}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`,
          { cause: e },
        );
      }
    },
    async propose(change) {
      const { full, display } = resolve(change.file);
      if (!write) {
        return {
          applied: false,
          detail: `${display} was not changed: the server is read-only (${SETTING_HINT}).`,
        };
      }
      // Only if the file still holds what the diff was made from: the user may have edited it since.
      const now = await fs.readFile(full, 'utf8');
      if (now !== change.oldText)
        return { applied: false, detail: `${display} changed while the proposal was made; read it again.` };
      await fs.writeFile(full, change.newText, 'utf8');
      return { applied: true, detail: `wrote ${display} (review it with your version control).` };
    },
  };
}

function annotations(tool: AgentTool) {
  return {
    title: tool.title,
    readOnlyHint: tool.effect !== 'write',
    destructiveHint: false,
    idempotentHint: tool.effect !== 'query',
    openWorldHint: tool.effect !== 'write',
  };
}

export function createMcpServer(opts: McpServerOptions): Server {
  const server = new Server(
    { name: 'dashboard-platform', title: 'Dashboard Platform', version: opts.version },
    {
      capabilities: { tools: {} },
      instructions:
        'Tools over the Dashboard Platform (deployments, data model, queries, reports, workbooks, dashboards, notifications). Start with list_deployments; queries return at most 100 rows a page. Dashboard changes are proposals to local *.dashboard.json files and are never published.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: AGENT_TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: inputJsonSchema(t) as { type: 'object'; [k: string]: unknown },
      annotations: annotations(t),
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const tool = findTool(req.params.name);
    if (!tool) return refusal(`There is no tool named "${req.params.name}".`);
    const profile = opts.gateway.profile();
    let write = opts.allowWrites;
    if (tool.effect === 'write') {
      if (!opts.allowWrites) {
        opts.log.warn(`[mcp] tool ${tool.name} refused: read-only`);
        return refusal(
          `Refused: the Dashboard Platform MCP server is read-only, so ${tool.name} cannot change files. To allow it, ${SETTING_HINT}. Nothing was changed.`,
        );
      }
      if (profile.production) {
        const ok = await confirmProduction(server, tool, req.params.arguments, profile.name);
        if (ok !== true) {
          opts.log.warn(`[mcp] tool ${tool.name} refused on production profile "${profile.name}": ${ok}`);
          return refusal(ok);
        }
      }
    } else {
      write = false;
    }
    const run = await runTool(
      tool,
      { gateway: opts.gateway, redact: opts.redact, files: rootedFiles(opts.root, write) },
      req.params.arguments ?? {},
      { log: opts.log, surface: 'mcp', signal: extra.signal },
    );
    if (!run.ok) return { content: [{ type: 'text', text: run.text }], isError: true };
    return {
      content: [{ type: 'text', text: run.text }],
      ...(run.structured ? { structuredContent: run.structured } : {}),
    };
  });
  return server;
}

function refusal(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** true when the user confirmed; otherwise the sentence explaining the refusal. */
async function confirmProduction(
  server: Server,
  tool: AgentTool,
  args: unknown,
  profile: string,
): Promise<true | string> {
  if (!server.getClientCapabilities()?.elicitation) {
    return `Refused: profile "${profile}" is marked production, and writes there need the user's confirmation, which this MCP client cannot ask for. Nothing was changed.`;
  }
  let what: string;
  try {
    what = tool.summary(tool.input.parse(args ?? {}));
  } catch {
    what = tool.title;
  }
  const answer = await server.elicitInput({
    message: `Production profile "${profile}": ${what}. Allow this change?`,
    requestedSchema: {
      type: 'object',
      properties: {
        confirm: { type: 'boolean', title: 'Allow the change', description: 'Apply it to the file.' },
      },
      required: ['confirm'],
    },
  });
  if (answer.action === 'accept' && answer.content?.confirm === true) return true;
  return `Refused: the user did not confirm the change on production profile "${profile}". Nothing was changed.`;
}
