// Platform (management) API client: one transport, the operations of each resource family
// (src/api/platform/<family>.ts) as methods. Reads may be retried by the transport; writes
// (publish, create, delete, ...) never are. Every method takes an optional trailing AbortSignal.
import { DeploymentOpsClient } from './deploymentOpsClient';
import { HttpClient, type NetworkSettings, type RetryPolicy } from './http';
import type { ApiLogger } from './log';
import type { DispatcherRegistry } from './net/agents';
import type { NotificationListQuery } from './notificationQuery';
import { nextCursor, paginate, type PageParams } from './paging';
import * as account from './platform/account';
import { AdminApi } from './platform/admin';
import * as dashboards from './platform/dashboards';
import * as dbt from './platform/dbtSync';
import * as deployments from './platform/deployments';
import * as notifications from './platform/notifications';
import * as notificationItem from './platform/notificationItem';
import { PlatformTransport } from './platform/transport';
import * as workspace from './platform/workspace';
import * as folders from './platform/folders';
import * as feed from './platform/workspaceFeed';
import * as reports from './platform/reports';
import * as workbooks from './platform/workbooks';
import type { PublishDashboardInput } from './schemas/dashboard';

export type { NotificationListQuery } from './notificationQuery';
export type { ReportListQuery, ReportSort } from './platform/workspace';
export type { WorkspaceItemRef, WorkspaceQuery, WorkspaceType } from './platform/workspaceFeed';
export type { WaitForDbtSyncOptions } from './platform/dbtSync';
export { DeploymentOpsClient } from './deploymentOpsClient';

export interface PlatformClientOptions {
  baseUrl: string;
  token: () => Promise<string | undefined>;
  network?: NetworkSettings;
  logger?: ApiLogger;
  retry?: RetryPolicy;
  dispatchers?: DispatcherRegistry;
  userAgent?: string;
}

export class PlatformClient {
  private readonly t: PlatformTransport;
  /** dbt sync runs, exports, env variable writes, health and environment tokens of a deployment. */
  readonly ops: DeploymentOpsClient;
  /** Administration: SCIM users and groups, roles, embedding, account settings. */
  readonly admin: AdminApi;

  constructor(opts: PlatformClientOptions) {
    const http = new HttpClient({
      baseUrl: opts.baseUrl,
      family: 'platform',
      auth: opts.token,
      network: opts.network,
      logger: opts.logger,
      retry: opts.retry,
      dispatchers: opts.dispatchers,
      userAgent: opts.userAgent,
    });
    this.t = new PlatformTransport(http, opts.logger);
    this.ops = new DeploymentOpsClient(this.t);
    this.admin = new AdminApi(this.t);
  }

  close(): Promise<void> {
    return this.t.http.close();
  }

  // ---- deployments and what they hold

  listDeployments(p?: PageParams, signal?: AbortSignal) {
    return deployments.listDeployments(this.t, p, signal);
  }
  getDeployment(deploymentId: number, signal?: AbortSignal) {
    return deployments.getDeployment(this.t, deploymentId, signal);
  }
  listEnvironments(deploymentId: number, p?: PageParams, signal?: AbortSignal) {
    return deployments.listEnvironments(this.t, deploymentId, p, signal);
  }
  listEnvVars(deploymentId: number, p?: PageParams, signal?: AbortSignal) {
    return deployments.listEnvVars(this.t, deploymentId, p, signal);
  }
  /** POST /v1/deployments/{id}/token: a Data API token for users who only have a platform token. */
  mintDataApiToken(deploymentId: number, opts: { expiresIn?: number; signal?: AbortSignal } = {}) {
    return deployments.mintDataApiToken(this.t, deploymentId, opts);
  }

  // ---- workspace

  listFolders(deploymentId: number, p?: PageParams & { parentId?: number }, signal?: AbortSignal) {
    return workspace.listFolders(this.t, deploymentId, p, signal);
  }
  listReports(deploymentId: number, q?: workspace.ReportListQuery, signal?: AbortSignal) {
    return workspace.listReports(this.t, deploymentId, q, signal);
  }
  getReport(deploymentId: number, reportId: number, signal?: AbortSignal) {
    return workspace.getReport(this.t, deploymentId, reportId, signal);
  }
  connectReportToWorkbook(
    deploymentId: number,
    reportId: number,
    input: workspace.ConnectReportToWorkbookInput,
    signal?: AbortSignal,
  ) {
    return workspace.connectReportToWorkbook(this.t, deploymentId, reportId, input, signal);
  }
  listWorkbooks(deploymentId: number, p?: PageParams, signal?: AbortSignal) {
    return workspace.listWorkbooks(this.t, deploymentId, p, signal);
  }
  getWorkbook(deploymentId: number, workbookId: number, signal?: AbortSignal) {
    return workspace.getWorkbook(this.t, deploymentId, workbookId, signal);
  }
  duplicateWorkbook(
    deploymentId: number,
    workbookId: number,
    input?: { shared?: boolean },
    signal?: AbortSignal,
  ) {
    return workspace.duplicateWorkbook(this.t, deploymentId, workbookId, input, signal);
  }

  // ---- workspace feed, folders, report and workbook writes, embed access
  listWorkspace(deploymentId: number, q?: feed.WorkspaceQuery, signal?: AbortSignal) {
    return feed.listWorkspace(this.t, deploymentId, q, signal);
  }
  listSharedWorkspace(deploymentId: number, q?: feed.WorkspaceQuery, signal?: AbortSignal) {
    return feed.listSharedWorkspace(this.t, deploymentId, q, signal);
  }
  moveWorkspaceItem(d: number, item: feed.WorkspaceItemRef, folderId: number | null, signal?: AbortSignal) {
    return feed.moveWorkspaceItem(this.t, d, item, folderId, signal);
  }
  bulkMoveWorkspaceItems(
    d: number,
    items: feed.WorkspaceItemRef[],
    folderId: number | null,
    signal?: AbortSignal,
  ) {
    return feed.bulkMoveWorkspaceItems(this.t, d, items, folderId, signal);
  }
  bulkDeleteWorkspaceItems(d: number, items: feed.WorkspaceItemRef[], signal?: AbortSignal) {
    return feed.bulkDeleteWorkspaceItems(this.t, d, items, signal);
  }
  createFolder(d: number, input: folders.CreateFolderInput, signal?: AbortSignal) {
    return folders.createFolder(this.t, d, input, signal);
  }
  renameFolder(d: number, folderId: number, name: string, signal?: AbortSignal) {
    return folders.renameFolder(this.t, d, folderId, name, signal);
  }
  deleteFolder(d: number, folderId: number, signal?: AbortSignal) {
    return folders.deleteFolder(this.t, d, folderId, signal);
  }
  getFolderAncestors(d: number, folderId: number, signal?: AbortSignal) {
    return folders.getFolderAncestors(this.t, d, folderId, signal);
  }
  createReport(d: number, input: reports.CreateReportInput, signal?: AbortSignal) {
    return reports.createReport(this.t, d, input, signal);
  }
  updateReport(d: number, reportId: number, input: reports.UpdateReportInput, signal?: AbortSignal) {
    return reports.updateReport(this.t, d, reportId, input, signal);
  }
  deleteReport(d: number, reportId: number, signal?: AbortSignal) {
    return reports.deleteReport(this.t, d, reportId, signal);
  }
  refreshReport(d: number, reportId: number, target?: reports.PlacementTarget, signal?: AbortSignal) {
    return reports.refreshReport(this.t, d, reportId, target, signal);
  }
  disconnectReportFromWorkbook(
    d: number,
    reportId: number,
    target: reports.PlacementTarget,
    signal?: AbortSignal,
  ) {
    return reports.disconnectReportFromWorkbook(this.t, d, reportId, target, signal);
  }
  createWorkbook(d: number, input: workbooks.CreateWorkbookInput, signal?: AbortSignal) {
    return workbooks.createWorkbook(this.t, d, input, signal);
  }
  updateWorkbook(d: number, workbookId: number, input: workbooks.UpdateWorkbookInput, signal?: AbortSignal) {
    return workbooks.updateWorkbook(this.t, d, workbookId, input, signal);
  }
  deleteWorkbook(d: number, workbookId: number, signal?: AbortSignal) {
    return workbooks.deleteWorkbook(this.t, d, workbookId, signal);
  }
  upsertWorkbookBySlug(d: number, slug: string, input: workbooks.CreateWorkbookInput, signal?: AbortSignal) {
    return workbooks.upsertWorkbookBySlug(this.t, d, slug, input, signal);
  }
  getEmbedAccess(d: number, workbookId: number, signal?: AbortSignal) {
    return workbooks.getEmbedAccess(this.t, d, workbookId, signal);
  }
  updateEmbedAccess(
    d: number,
    workbookId: number,
    input: workbooks.UpdateEmbedAccessInput,
    signal?: AbortSignal,
  ) {
    return workbooks.updateEmbedAccess(this.t, d, workbookId, input, signal);
  }

  // ---- dashboards

  /** Spec 4.2. Never retried: a publish that may have reached the server is reported, not repeated. */
  publishDashboard(
    deploymentId: number,
    workbookId: number,
    input: PublishDashboardInput,
    signal?: AbortSignal,
  ) {
    return dashboards.publishDashboard(this.t, deploymentId, workbookId, input, signal);
  }
  updateAiWidgetThread(
    deploymentId: number,
    workbookId: number,
    input: dashboards.UpdatePublishedAiWidgetThreadInput,
    signal?: AbortSignal,
  ) {
    return dashboards.updateAiWidgetThread(this.t, deploymentId, workbookId, input, signal);
  }

  // ---- notifications (admin only)

  listNotifications(deploymentId: number, q?: NotificationListQuery, signal?: AbortSignal) {
    return notifications.listNotifications(this.t, deploymentId, q, signal);
  }
  iterateNotifications(
    deploymentId: number,
    q: Omit<NotificationListQuery, 'after'> = {},
    signal?: AbortSignal,
  ) {
    return paginate((after) =>
      this.listNotifications(deploymentId, { ...q, ...(after ? { after } : {}) }, signal),
    );
  }
  createNotification(
    deploymentId: number,
    input: notifications.CreateNotificationInput,
    signal?: AbortSignal,
  ) {
    return notifications.createNotification(this.t, deploymentId, input, signal);
  }
  /** One page of a notification's recipients. */
  listRecipients(deploymentId: number, notificationId: number, p?: PageParams, signal?: AbortSignal) {
    return notifications.listRecipients(this.t, deploymentId, notificationId, p, signal);
  }
  /** Every recipient of a notification, page after page. */
  iterateRecipients(deploymentId: number, notificationId: number, signal?: AbortSignal) {
    return notifications.iterateRecipients(this.t, deploymentId, notificationId, signal);
  }
  addRecipients(
    deploymentId: number,
    notificationId: number,
    recipients: notifications.NotificationRecipientInput[],
    signal?: AbortSignal,
  ) {
    return notifications.addRecipients(this.t, deploymentId, notificationId, recipients, signal);
  }
  removeRecipients(
    deploymentId: number,
    notificationId: number,
    recipients: notifications.RemoveRecipientInput[],
    signal?: AbortSignal,
  ) {
    return notifications.removeRecipients(this.t, deploymentId, notificationId, recipients, signal);
  }
  // polish: one notification's lifecycle (pause/resume is an update of isEnabled)
  getNotification(deploymentId: number, notificationId: number, signal?: AbortSignal) {
    return notificationItem.getNotification(this.t, deploymentId, notificationId, signal);
  }
  updateNotification(
    deploymentId: number,
    notificationId: number,
    input: notificationItem.UpdateNotificationInput,
    signal?: AbortSignal,
  ) {
    return notificationItem.updateNotification(this.t, deploymentId, notificationId, input, signal);
  }
  deleteNotification(deploymentId: number, notificationId: number, signal?: AbortSignal) {
    return notificationItem.deleteNotification(this.t, deploymentId, notificationId, signal);
  }

  // ---- dbt sync

  startDbtSync(deploymentId: number, input?: dbt.StartDbtSyncInput, signal?: AbortSignal) {
    return dbt.startDbtSync(this.t, deploymentId, input, signal);
  }
  getDbtSyncJob(deploymentId: number, syncJobId: string, signal?: AbortSignal) {
    return dbt.getDbtSyncJob(this.t, deploymentId, syncJobId, signal);
  }
  waitForDbtSync(deploymentId: number, syncJobId: string, opts?: dbt.WaitForDbtSyncOptions) {
    return dbt.waitForDbtSync(this.t, deploymentId, syncJobId, opts);
  }

  // ---- account level

  async deleteEmbedTenant(name: string, signal?: AbortSignal): Promise<void> {
    await account.deleteEmbedTenant(this.t, name, signal);
  }
  getAppConfig(signal?: AbortSignal) {
    return account.getAppConfig(this.t, signal);
  }
  /** SCIM users, one page at a time (the cursor is the next startIndex). */
  listUsers(p?: PageParams, signal?: AbortSignal) {
    return account.listUsers(this.t, p, signal);
  }
}

export { nextCursor };
