// The MCP server's configuration, from environment variables only (VS Code hands the active
// profile's tokens over this way at start; outside VS Code the user sets them). vscode-free.
import { DataClient } from '../api/dataClient';
import { PlatformClient } from '../api/platformClient';
import type { ApiLogger } from '../api/log';
import type { ClientSource, ProfileInfo } from '../agents/gateway';
import { dataApiUrlOf, jwtExpiry, validateUrl } from '../profiles/profileModel';

/** The variables the server reads (documented in the README). */
export const MCP_ENV = {
  platformUrl: 'DASHBOARD_PLATFORM_URL',
  dataApiUrl: 'DASHBOARD_PLATFORM_DATA_API_URL',
  platformToken: 'DASHBOARD_PLATFORM_TOKEN',
  dataApiToken: 'DASHBOARD_PLATFORM_DATA_API_TOKEN',
  profile: 'DASHBOARD_PLATFORM_PROFILE',
  deployment: 'DASHBOARD_PLATFORM_DEPLOYMENT_ID',
  production: 'DASHBOARD_PLATFORM_PRODUCTION',
  allowWrites: 'DASHBOARD_PLATFORM_MCP_ALLOW_WRITES',
  allowProductionWrites: 'DASHBOARD_PLATFORM_MCP_ALLOW_PRODUCTION_WRITES',
  root: 'DASHBOARD_PLATFORM_MCP_ROOT',
} as const;

export interface McpConfig {
  platformUrl: string;
  dataApiUrl: string;
  platformToken?: string;
  dataApiToken?: string;
  profile: ProfileInfo;
  allowWrites: boolean;
  /** Paths to production (publish, merge, deletes); honoured only together with allowWrites. */
  allowProductionWrites: boolean;
  /** Folder that *.dashboard.json paths are relative to (and must stay inside). */
  root: string;
}

const yes = (v: string | undefined) => /^(1|true|yes|on)$/i.test(v?.trim() ?? '');

/** Reads the configuration; throws one sentence listing what is missing or wrong. */
export function readMcpConfig(env: Record<string, string | undefined>, cwd: string): McpConfig {
  const get = (k: keyof typeof MCP_ENV) => env[MCP_ENV[k]]?.trim() || undefined;
  const problems: string[] = [];
  const platformUrl = get('platformUrl');
  if (!platformUrl)
    problems.push(
      `${MCP_ENV.platformUrl} is not set (the platform API URL, e.g. https://mytenant.example.com/api)`,
    );
  else {
    const p = validateUrl(platformUrl, MCP_ENV.platformUrl);
    if (p) problems.push(p);
  }
  const dataApi = get('dataApiUrl');
  if (dataApi) {
    const p = validateUrl(dataApi, MCP_ENV.dataApiUrl);
    if (p) problems.push(p);
  }
  const platformToken = get('platformToken');
  const dataApiToken = get('dataApiToken');
  if (!platformToken && !dataApiToken)
    problems.push(`set ${MCP_ENV.platformToken} (and optionally ${MCP_ENV.dataApiToken})`);
  const dep = get('deployment');
  const defaultDeploymentId = dep === undefined ? undefined : Number(dep);
  if (
    defaultDeploymentId !== undefined &&
    !(Number.isInteger(defaultDeploymentId) && defaultDeploymentId > 0)
  )
    problems.push(`${MCP_ENV.deployment} must be a deployment id (a whole number)`);
  if (problems.length)
    throw new Error(`The Dashboard Platform MCP server cannot start: ${problems.join('; ')}.`);
  const base = platformUrl!.replace(/\/+$/, '');
  return {
    platformUrl: base,
    dataApiUrl: dataApiUrlOf({ platformUrl: base, dataApiUrl: dataApi?.replace(/\/+$/, '') }),
    platformToken,
    dataApiToken,
    profile: {
      name: get('profile') ?? 'environment',
      production: yes(get('production')),
      sandbox: false,
      ...(defaultDeploymentId !== undefined ? { defaultDeploymentId } : {}),
    },
    allowWrites: yes(get('allowWrites')),
    allowProductionWrites: yes(get('allowProductionWrites')),
    root: get('root') ?? cwd,
  };
}

/** Clients built from the configuration; a Data API token is minted per deployment when none is given. */
export class EnvClientSource implements ClientSource {
  private platformClient: PlatformClient | undefined;
  private readonly dataClients = new Map<number | undefined, DataClient>();
  private readonly minted = new Map<number, { token: string; expiresAt: number }>();

  constructor(
    private readonly config: McpConfig,
    private readonly logger: ApiLogger,
  ) {}

  async platform(): Promise<PlatformClient> {
    if (!this.config.platformToken) {
      throw new Error(`This needs the platform API token: set ${MCP_ENV.platformToken}.`);
    }
    const token = this.config.platformToken;
    this.platformClient ??= new PlatformClient({
      baseUrl: this.config.platformUrl,
      token: async () => token,
      logger: this.logger,
    });
    return this.platformClient;
  }

  async data(deploymentId?: number): Promise<DataClient> {
    const key = this.config.dataApiToken ? undefined : deploymentId;
    const cached = this.dataClients.get(key);
    if (cached) return cached;
    let token: () => Promise<string | undefined>;
    if (this.config.dataApiToken) {
      const t = this.config.dataApiToken;
      token = async () => t;
    } else {
      if (deploymentId === undefined) throw new Error('Say which deployment to query (deploymentId).');
      token = () => this.mint(deploymentId);
    }
    const client = new DataClient({
      baseUrl: this.config.dataApiUrl,
      token,
      logger: this.logger,
      cacheKey: deploymentId !== undefined ? String(deploymentId) : 'default',
    });
    this.dataClients.set(key, client);
    return client;
  }

  private async mint(deploymentId: number): Promise<string> {
    const cached = this.minted.get(deploymentId);
    if (cached && cached.expiresAt - 60_000 > Date.now()) return cached.token;
    const token = await (await this.platform()).mintDataApiToken(deploymentId);
    this.minted.set(deploymentId, { token, expiresAt: jwtExpiry(token) ?? Date.now() + 10 * 60_000 });
    return token;
  }

  /** Every secret this source holds, for redaction. */
  secrets(): string[] {
    return [
      this.config.platformToken,
      this.config.dataApiToken,
      ...[...this.minted.values()].map((m) => m.token),
    ].filter((s): s is string => !!s);
  }

  async close(): Promise<void> {
    await Promise.allSettled([
      this.platformClient?.close(),
      ...[...this.dataClients.values()].map((c) => c.close()),
    ]);
  }
}
