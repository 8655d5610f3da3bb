// Platform (management) API client: one transport, the operations of each resource family
// (src/api/platform/<family>.ts) as methods. Reads may be retried by the transport; writes
// (publish, create, delete, ...) never are. Every method takes an optional trailing AbortSignal.
import { DeploymentOpsClient } from './deploymentOpsClient';
import { HttpClient, type ClientOptions } from './http';
import type { NotificationListQuery } from './notificationQuery';
import { nextCursor, paginate } from './paging';
import * as account from './platform/account';
import { AdminApi } from './platform/admin';
import { MeApi } from './platform/me';
import { APP_CONFIG } from './platform/admin/appConfig';
import { EMBED_TENANTS } from './platform/admin/embed';
import * as dashboards from './platform/dashboards';
import * as dbt from './platform/dbtSync';
import * as deployments from './platform/deployments';
import { EMBED_DASHBOARD_ADMIN, EmbedUserClient } from './platform/embedDashboards';
import * as notifications from './platform/notifications';
import * as notificationItem from './platform/notificationItem';
import { GITHUB } from './platform/github';
import { OperationsClient } from './platform/operation';
import { PlatformTransport } from './platform/transport';
import * as workspace from './platform/workspace';
import * as folders from './platform/folders';
import * as feed from './platform/workspaceFeed';
import * as reports from './platform/reports';
import { PLATFORM_SERVICES } from './platform/platformServices';
import * as workbooks from './platform/workbooks';

export type { NotificationListQuery } from './notificationQuery';
export type { ReportListQuery, ReportSort } from './platform/workspace';
export type { WorkspaceItemRef, WorkspaceQuery, WorkspaceType } from './platform/workspaceFeed';
export type { WaitForDbtSyncOptions } from './platform/dbtSync';
export { DeploymentOpsClient } from './deploymentOpsClient';

export interface PlatformClientOptions extends ClientOptions {
  token: () => Promise<string | undefined>;
}

/** The operations that are one call each: their methods are derived from the families' tables. */
const OPS = {
  ...deployments.DEPLOYMENTS,
  ...workspace.WORKSPACE,
  ...feed.WORKSPACE_FEED,
  ...folders.FOLDERS,
  ...reports.REPORT_WRITES,
  ...workbooks.WORKBOOK_WRITES,
  ...dashboards.DASHBOARDS,
  ...notifications.NOTIFICATIONS,
  ...notificationItem.NOTIFICATION_ITEM,
  ...dbt.DBT,
  ...EMBED_TENANTS,
  ...APP_CONFIG,
  ...GITHUB,
  ...EMBED_DASHBOARD_ADMIN,
  ...PLATFORM_SERVICES,
};

/** The operations that do more than one call, or check their input beyond the published schema. */
const FUNCTIONS = {
  mintDataApiToken: deployments.mintDataApiToken,
  getFolderAncestors: folders.getFolderAncestors,
  upsertWorkbookBySlug: workbooks.upsertWorkbookBySlug,
  publishDashboard: dashboards.publishDashboard,
  iterateRecipients: notifications.iterateRecipients,
  addRecipients: notifications.addRecipients,
  removeRecipients: notifications.removeRecipients,
  waitForDbtSync: dbt.waitForDbtSync,
  listUsers: account.listUsers,
};

export class PlatformClient extends OperationsClient(OPS, FUNCTIONS) {
  private readonly t: PlatformTransport;
  /** dbt sync runs, exports, env variable writes, health and environment tokens of a deployment. */
  readonly ops: DeploymentOpsClient;
  /** Administration: SCIM users and groups, roles, embedding, account settings. */
  readonly admin: AdminApi;
  /** The signed-in user's own: OAuth connections and settings. */
  readonly me: MeApi;
  private readonly rest: Omit<PlatformClientOptions, 'token'>;

  constructor(opts: PlatformClientOptions) {
    const { token, ...rest } = opts;
    const http = new HttpClient({ ...rest, family: 'platform', auth: token });
    const t = new PlatformTransport(http, opts.logger);
    super(t);
    this.t = t;
    this.rest = rest;
    this.ops = new DeploymentOpsClient(t);
    this.admin = new AdminApi(t);
    this.me = new MeApi(t);
  }

  close(): Promise<void> {
    return this.t.http.close();
  }

  /**
   * The same API as one embed user: requests carry `embedToken` (from exchangeEmbedSession) instead
   * of the profile's token. Close it when done.
   */
  asEmbedUser(embedToken: string): EmbedUserClient & { close(): Promise<void> } {
    const http = new HttpClient({ ...this.rest, family: 'platform', auth: async () => embedToken });
    return Object.assign(new EmbedUserClient(new PlatformTransport(http, this.rest.logger)), {
      close: () => http.close(),
    });
  }

  /** Every notification matching `q`, page after page (through this client's own list). */
  iterateNotifications(
    deploymentId: number,
    q: Omit<NotificationListQuery, 'after'> = {},
    signal?: AbortSignal,
  ) {
    return paginate((after) =>
      this.listNotifications(deploymentId, { ...q, ...(after ? { after } : {}) }, signal),
    );
  }
}

export { nextCursor };
