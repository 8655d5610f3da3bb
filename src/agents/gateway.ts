// The one seam between the agent tools and src/api: every call the tools make to the platform goes
// through this adapter, so when the API clients change shape only this file needs adjusting.
// vscode-free: the language model tools (extension host) and the MCP server (plain Node) share it.
import type { DataClient, CubeSqlChunk, CubeSqlOptions } from '../api/dataClient';
import type { PlatformClient } from '../api/platformClient';
import type { LoadQuery, LoadResponse, MetaCube } from '../api/schemas/data';
import type { PublishDashboardInput } from '../api/schemas/dashboard';
import type { PublishedDashboard } from '../api/platform/dashboards';
import { nextCursor, type Page } from '../api/paging';

/** Where the clients come from: the extension's ClientProvider, or env-built clients in the MCP server. */
export interface ClientSource {
  platform(): Promise<PlatformClient>;
  /** A Data API client for the deployment (tokens minted as needed by the source). */
  data(deploymentId?: number): Promise<DataClient>;
}

/** The profile the tools act for (non-secret parts). */
export interface ProfileInfo {
  name: string;
  production: boolean;
  defaultDeploymentId?: number;
  sandbox: boolean;
}

export interface PageOf<T> {
  items: T[];
  hasMore: boolean;
  nextCursor?: string;
}

export type Item = Record<string, unknown> & { id: number };

function pageOf<T>(page: Page<T>): PageOf<T> {
  const cursor = nextCursor(page);
  return { items: page.items, hasMore: cursor !== undefined, ...(cursor ? { nextCursor: cursor } : {}) };
}

export interface ListArgs {
  first?: number;
  after?: string;
}

export class PlatformGateway {
  /** Deployment names by profile and id (profiles may point at different tenants). */
  private readonly names = new Map<string, string>();

  constructor(
    private readonly source: ClientSource,
    readonly profile: () => ProfileInfo,
  ) {}

  private nameKey(deploymentId: number): string {
    return `${this.profile().name}\u0000${deploymentId}`;
  }

  async listDeployments(args: ListArgs, signal?: AbortSignal): Promise<PageOf<Item>> {
    const p = await this.source.platform();
    const page = pageOf(await p.listDeployments(args, signal));
    for (const d of page.items) this.names.set(this.nameKey(d.id), d.name);
    return page as PageOf<Item>;
  }

  /** The deployment's name (cached), or undefined when it cannot be read. */
  async deploymentName(deploymentId: number, signal?: AbortSignal): Promise<string | undefined> {
    const known = this.names.get(this.nameKey(deploymentId));
    if (known !== undefined) return known;
    try {
      const d = await (await this.source.platform()).getDeployment(deploymentId, signal);
      this.names.set(this.nameKey(d.id), d.name);
      return d.name;
    } catch {
      return undefined;
    }
  }

  async cubes(deploymentId: number, signal?: AbortSignal): Promise<MetaCube[]> {
    const data = await this.source.data(deploymentId);
    return (await data.meta({ signal })).cubes;
  }

  async *cubesql(
    deploymentId: number,
    sql: string,
    opts: Pick<CubeSqlOptions, 'signal' | 'timeoutMs'>,
  ): AsyncGenerator<CubeSqlChunk> {
    const data = await this.source.data(deploymentId);
    yield* data.cubesql(sql, opts);
  }

  async load(deploymentId: number, query: LoadQuery, signal?: AbortSignal): Promise<LoadResponse> {
    const data = await this.source.data(deploymentId);
    return data.load(query, { signal, timeoutMs: 120_000 });
  }

  async listReports(
    deploymentId: number,
    args: ListArgs & { search?: string },
    signal?: AbortSignal,
  ): Promise<PageOf<Item>> {
    const p = await this.source.platform();
    return pageOf(await p.listReports(deploymentId, args, signal)) as PageOf<Item>;
  }

  async getReport(deploymentId: number, reportId: number, signal?: AbortSignal): Promise<Item> {
    return (await (await this.source.platform()).getReport(deploymentId, reportId, signal)) as Item;
  }

  async listWorkbooks(deploymentId: number, args: ListArgs, signal?: AbortSignal): Promise<PageOf<Item>> {
    const p = await this.source.platform();
    return pageOf(await p.listWorkbooks(deploymentId, args, signal)) as PageOf<Item>;
  }

  async getWorkbook(deploymentId: number, workbookId: number, signal?: AbortSignal): Promise<Item> {
    return (await (await this.source.platform()).getWorkbook(deploymentId, workbookId, signal)) as Item;
  }

  /** Publishes a dashboard (a path to production; never retried: see the client). */
  async publishDashboard(
    deploymentId: number,
    workbookId: number,
    input: PublishDashboardInput,
    signal?: AbortSignal,
  ): Promise<PublishedDashboard> {
    return (await this.source.platform()).publishDashboard(deploymentId, workbookId, input, signal);
  }

  async listNotifications(
    deploymentId: number,
    args: ListArgs & { dashboardId?: number },
    signal?: AbortSignal,
  ): Promise<PageOf<Item>> {
    const p = await this.source.platform();
    return pageOf(await p.listNotifications(deploymentId, args, signal)) as PageOf<Item>;
  }
}
