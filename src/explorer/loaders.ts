// What each list of the explorer fetches, as plain functions of a client: one request a page, the
// query built from the list's own state. No `vscode` here (the benchmark drives these in Node).
import type { Page, PageParams } from '../api/paging';
import { adminFetch, type AdminListing, type AdminListSpec } from './admin/adminLoaders';
import type { NotificationFilter } from './notificationFilter';
import { nameDashboards } from './notifications/dashboardNames';
import type { PageFetcher } from './pagedList';
import { deployOpsFetch, type DeployOpsKind, type DeployOpsListing } from './deployment/listing';

/** Any server object: the explorer reads fields defensively and shows the rest as JSON. */
export type Item = Record<string, unknown>;

/**
 * A key unique within one list: the id, else the name (env variables), else the identity fields of
 * a recipient (which has no id of its own).
 */
export function itemKey(item: Item): string {
  if (item['id'] !== undefined && item['id'] !== null) return String(item['id']);
  if (typeof item['name'] === 'string') return item['name'];
  // dbt sync runs, versions and tokens (never the token itself) have their own identities.
  for (const k of ['syncJobId', 'version', 'created_at'])
    if (typeof item[k] === 'string') return item[k] as string;
  if (typeof item['userName'] === 'string') return item['userName'];
  const parts = ['type', 'userId', 'embedUserId', 'embedTenantName', 'externalId', 'channelId', 'email']
    .map((k) => item[k])
    .filter((v) => v !== undefined && v !== null)
    .map(String);
  return parts.length > 0 ? parts.join(':') : JSON.stringify(item);
}

export type ReportSort = 'name' | 'createdAt' | 'updatedAt' | 'lastViewedAt';
export const REPORT_SORTS: readonly ReportSort[] = ['name', 'createdAt', 'updatedAt', 'lastViewedAt'];

export interface ReportQuery {
  search?: string;
  sortBy?: ReportSort;
  sortDirection?: 'ASC' | 'DESC';
  folderId?: number;
  externalWorkbookId?: string;
}

/**
 * The part of PlatformClient the explorer's lists use. Structural, so the real client and test
 * doubles both fit; every method takes an optional trailing AbortSignal.
 */
export interface ListingClient {
  listDeployments(p?: PageParams, signal?: AbortSignal): Promise<Page<Item>>;
  listEnvironments(deploymentId: number, p?: PageParams, signal?: AbortSignal): Promise<Page<Item>>;
  listEnvVars(deploymentId: number, p?: PageParams, signal?: AbortSignal): Promise<Page<Item>>;
  listFolders(
    deploymentId: number,
    p?: PageParams & { parentId?: number },
    signal?: AbortSignal,
  ): Promise<Page<Item>>;
  listReports(deploymentId: number, p?: PageParams & ReportQuery, signal?: AbortSignal): Promise<Page<Item>>;
  listWorkbooks(deploymentId: number, p?: PageParams, signal?: AbortSignal): Promise<Page<Item>>;
  listNotifications(
    deploymentId: number,
    q?: PageParams & NotificationFilter,
    signal?: AbortSignal,
  ): Promise<Page<Item>>;
  listRecipients(
    deploymentId: number,
    notificationId: number,
    p?: PageParams,
    signal?: AbortSignal,
  ): Promise<Page<Item>>;
  listUsers(p?: PageParams, signal?: AbortSignal): Promise<Page<Item>>;
  listWorkspace(
    deploymentId: number,
    q?: PageParams & { folderId?: number },
    signal?: AbortSignal,
  ): Promise<Page<Item>>;
  listSharedWorkspace(
    deploymentId: number,
    q?: PageParams & { folderId?: number },
    signal?: AbortSignal,
  ): Promise<Page<Item>>;
  /** A deployment's operations (dbt sync runs, health, environment tokens); see deployment/listing.ts. */
  ops?: DeployOpsListing;
  /** The app config, read as sent (absent on test doubles). */
  getAppConfig?(signal?: AbortSignal): Promise<Item>;
  /** The Administration lists (absent on clients without them, e.g. test doubles). */
  readonly admin?: AdminListing;
}

export type ListKind =
  | 'deployments'
  | 'environments'
  | 'folders'
  | 'reports'
  | 'workbooks'
  | 'notifications'
  | 'envVars'
  | 'users'
  | 'recipients'
  | 'workspace'
  | 'sharedWorkspace'
  | DeployOpsKind
  | 'admin';

export interface ListSpec {
  kind: ListKind;
  deploymentId?: number;
  /** Folders: the parent folder (undefined = top level). */
  parentId?: number;
  /** Workspace and shared workspace: the folder listed (undefined = the root). */
  folderId?: number;
  /** Recipients: the notification. */
  notificationId?: number;
  reportQuery?: ReportQuery;
  notificationFilter?: NotificationFilter;
  /** How the filter reads (names, not ids): shown in the row and the view description only. */
  notificationFilterText?: string;
  /** Environment tokens: the environment. */
  environmentId?: string;
  /** Administration lists: which one, and its query. */
  admin?: AdminListSpec;
}

/** Why a list shows only one page, or undefined when it pages normally. */
export function singlePageReason(spec: ListSpec): string | undefined {
  if (spec.kind === 'reports' && spec.reportQuery?.sortBy === 'lastViewedAt')
    return 'Sorted by last viewed: the server cannot page this order, so only the first page is shown.';
  return undefined;
}

function page(p: { first: number; after?: string }): PageParams {
  return p.after !== undefined ? { first: p.first, after: p.after } : { first: p.first };
}

function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;
}

function need(n: number | undefined, what: string): number {
  if (n === undefined) throw new Error(`The ${what} list has no deployment.`);
  return n;
}

/** The page fetcher of one list: `client` is resolved per request, so a profile switch applies at once. */
export function fetcherFor(spec: ListSpec, client: () => Promise<ListingClient>): PageFetcher<Item> {
  return async (p) => {
    const c = await client();
    const s = p.signal;
    switch (spec.kind) {
      case 'deployments':
        return c.listDeployments(page(p), s);
      case 'environments':
        return c.listEnvironments(need(spec.deploymentId, 'environments'), page(p), s);
      case 'envVars':
        return c.listEnvVars(need(spec.deploymentId, 'env variables'), page(p), s);
      case 'folders': {
        const res = await c.listFolders(
          need(spec.deploymentId, 'folders'),
          { ...page(p), ...(spec.parentId !== undefined ? { parentId: spec.parentId } : {}) },
          s,
        );
        // Without parentId the server lists folders of every level; the top shows the roots only
        // (each folder lists its own children when expanded). Still one request a page.
        return spec.parentId !== undefined
          ? res
          : { ...res, items: res.items.filter((f) => f['parentId'] === null || f['parentId'] === undefined) };
      }
      case 'reports':
        return c.listReports(
          need(spec.deploymentId, 'reports'),
          // lastViewedAt cannot page: never send a cursor with it (the list asks for one page only).
          { ...page(p), ...defined(spec.reportQuery ?? {}) },
          s,
        );
      case 'workbooks':
        return c.listWorkbooks(need(spec.deploymentId, 'workbooks'), page(p), s);
      case 'notifications': {
        const res = await c.listNotifications(
          need(spec.deploymentId, 'notifications'),
          { ...page(p), ...defined(spec.notificationFilter ?? {}) },
          s,
        );
        // Rows name their dashboard (a notification carries only its id).
        await nameDashboards(c, spec.deploymentId!, res.items, s);
        return res;
      }
      case 'users':
        return c.listUsers(page(p), s);
      case 'workspace':
      case 'sharedWorkspace': {
        const q = { ...page(p), ...(spec.folderId !== undefined ? { folderId: spec.folderId } : {}) };
        const d = need(spec.deploymentId, 'workspace');
        return spec.kind === 'workspace' ? c.listWorkspace(d, q, s) : c.listSharedWorkspace(d, q, s);
      }
      case 'recipients':
        return c.listRecipients(
          need(spec.deploymentId, 'recipients'),
          need(spec.notificationId, 'recipients'),
          page(p),
          s,
        );
      case 'admin':
        if (!spec.admin) throw new Error('The administration list has no query.');
        return adminFetch(spec.admin, c.admin, p);
      default:
        return deployOpsFetch(c.ops, spec, page(p), s);
    }
  };
}
