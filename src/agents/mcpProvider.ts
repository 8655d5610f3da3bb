// Offers the bundled MCP server (dist/mcp.js) to VS Code for the active profile, when
// dashboardPlatform.mcp.enabled is on. The definition VS Code sees holds no secret: the tokens are
// read from SecretStorage only when VS Code starts the server (resolve), and handed to the process
// as environment variables, never written to disk.
import * as vscode from 'vscode';
import { mcpAllowWrites } from '../config/safetySettings';
import { MCP_ENV } from '../mcp/config';
import type { Services } from '../services';

export const MCP_PROVIDER_ID = 'dashboardPlatform.mcp';
const SECTION = 'dashboardPlatform';

/**
 * The MCP settings. The two that relax safety are application-scoped in the manifest, and are read
 * here from the user's own settings only (inspect), so a workspace's settings can never turn them on.
 */
export function mcpSettings(): { enabled: boolean; allowWrites: boolean; allowProductionWrites: boolean } {
  const c = vscode.workspace.getConfiguration(SECTION);
  const userOnly = (key: string) => c.inspect<boolean>(key)?.globalValue === true;
  return {
    enabled: c.get<boolean>('mcp.enabled', false),
    allowWrites: mcpAllowWrites(),
    allowProductionWrites: vscode.workspace.isTrusted && userOnly('mcp.allowProductionWrites'),
  };
}

export class McpProvider implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.emitter.event;
  private readonly disposables: vscode.Disposable[] = [this.emitter];

  constructor(private readonly services: Services) {
    const fire = () => this.emitter.fire();
    this.disposables.push(
      services.profiles.onDidChangeActiveProfile(fire),
      services.profiles.onDidChangeProfiles(fire),
      services.profiles.onDidChangeSecrets(fire),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SECTION}.mcp`)) fire();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(fire),
    );
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    const settings = mcpSettings();
    const active = this.services.profiles.active();
    if (!settings.enabled || !active) return [];
    const p = active.profile;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const env: Record<string, string | null> = {
      // In the desktop app the extension host's executable is Electron; this makes it run as Node.
      ELECTRON_RUN_AS_NODE: '1',
      [MCP_ENV.profile]: p.name,
      [MCP_ENV.production]: p.production ? '1' : '0',
      [MCP_ENV.allowWrites]: settings.allowWrites ? '1' : '0',
      [MCP_ENV.allowProductionWrites]: settings.allowProductionWrites ? '1' : '0',
      [MCP_ENV.deployment]: p.defaultDeploymentId ? String(p.defaultDeploymentId) : null,
      [MCP_ENV.root]: folder?.fsPath ?? null,
    };
    const version = (this.services.context.extension.packageJSON as { version?: string }).version ?? '0';
    const def = new vscode.McpStdioServerDefinition(
      `Dashboard Platform (${p.name})`,
      process.execPath,
      [vscode.Uri.joinPath(this.services.context.extensionUri, 'dist', 'mcp.js').fsPath],
      env,
      // A new version makes VS Code offer to refresh the tools: profile or write mode changed.
      `${version}+${encodeURIComponent(p.name)}.${settings.allowWrites ? (settings.allowProductionWrites ? 'rwp' : 'rw') : 'ro'}`,
    );
    if (folder) def.cwd = folder;
    return [def];
  }

  /** Called when VS Code starts the server: fills in URLs and the tokens of the active profile. */
  async resolveMcpServerDefinition(
    server: vscode.McpStdioServerDefinition,
  ): Promise<vscode.McpStdioServerDefinition | undefined> {
    const { profiles } = this.services;
    const active = profiles.active();
    if (!active || !mcpSettings().enabled) return undefined;
    if (server.env[MCP_ENV.profile] !== active.profile.name) {
      throw new Error(
        `The active Dashboard Platform profile is now "${active.profile.name}"; restart the MCP server from the MCP list.`,
      );
    }
    let platformUrl = active.profile.platformUrl;
    let dataApiUrl = active.profile.dataApiUrl;
    if (active.isSandbox) {
      const h = await profiles.sandbox.start();
      platformUrl = h.urls.platform;
      dataApiUrl = h.urls.dataApi;
    }
    const platformToken = (await profiles.getSecret('platformToken', active.profile.name))?.value;
    const dataApiToken = (await profiles.getSecret('dataApiToken', active.profile.name))?.value;
    if (!platformToken && !dataApiToken) {
      throw new Error(
        `Profile "${active.profile.name}" has no platform API token, so the MCP server cannot start. Run "Dashboard Platform: Set Token…".`,
      );
    }
    this.services.log.info(`Starting the MCP server for profile "${active.profile.name}"`);
    // null removes a variable the extension host may have inherited (a token of another tenant).
    server.env = {
      ...server.env,
      [MCP_ENV.platformUrl]: platformUrl,
      [MCP_ENV.dataApiUrl]: dataApiUrl ?? null,
      [MCP_ENV.platformToken]: platformToken ?? null,
      [MCP_ENV.dataApiToken]: dataApiToken ?? null,
    };
    return server;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
