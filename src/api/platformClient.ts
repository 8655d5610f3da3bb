// Platform (management) API client: every operation of spec 4.1-4.3 plus list/get for the roots
// the explorer shows. Reads may be retried by the transport; writes (publish, create, delete, ...)
// never are. Every method takes an optional trailing AbortSignal.
import type { z } from 'zod';
import { ApiError, type WriteCheck } from './errors';
import { HttpClient, sleep, type NetworkSettings, type QueryValue, type RetryPolicy } from './http';
import type { ApiLogger } from './log';
import type { DispatcherRegistry } from './net/agents';
import { validateNotificationQuery, type NotificationListQuery } from './notificationQuery';
import { nextCursor, paginate, type Page, type PageParams } from './paging';
import {
  AddRecipientsResultSchema,
  AppConfigResponseSchema,
  ConnectReportToWorkbookInputSchema,
  CreateNotificationInputSchema,
  DbtSyncJobSchema,
  DbtSyncResponseSchema,
  DeploymentSchema,
  EnvVarSchema,
  EnvironmentSchema,
  FolderSchema,
  MintTokenResponseSchema,
  NotificationSchema,
  NotificationsListResponseSchema,
  PublishDashboardInputSchema,
  PublishedDashboardSchema,
  RecipientsListSchema,
  ReportSchema,
  UpdatePublishedAiWidgetThreadInputSchema,
  UserSchema,
  WorkbookSchema,
  listResponse,
  type CreateNotificationInput,
  type DbtSyncJob,
  type NotificationRecipient,
  type PublishDashboardInput,
  type UpdatePublishedAiWidgetThreadInput,
} from './schemas/platform';

export type { NotificationListQuery } from './notificationQuery';

export interface PlatformClientOptions {
  baseUrl: string;
  token: () => Promise<string | undefined>;
  network?: NetworkSettings;
  logger?: ApiLogger;
  retry?: RetryPolicy;
  dispatchers?: DispatcherRegistry;
  userAgent?: string;
}

export type ReportSort = 'name' | 'createdAt' | 'updatedAt' | 'lastViewedAt';
export interface ReportListQuery extends PageParams {
  search?: string;
  name?: string;
  folderId?: number;
  externalWorkbookId?: string;
  sortBy?: ReportSort;
}

export interface WaitForDbtSyncOptions {
  intervalMs?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  onStatus?(job: DbtSyncJob): void;
}

const FINISHED = new Set(['COMPLETED', 'FAILED']);

function checkPage(p: PageParams | undefined): void {
  const first = p?.first;
  if (first !== undefined && !(Number.isInteger(first) && first >= 1 && first <= 200)) {
    throw new ApiError(
      'validation',
      `Page size must be a whole number from 1 to 200 (got ${String(first)}).`,
    );
  }
}

/** Validates a request body, naming the field at fault. */
function parseInput<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new ApiError('validation', `${what}: ${issue.path.join('.') || 'input'}: ${issue.message}`);
}

function positiveId(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new ApiError('validation', `${what} must be a whole number of at least 1 (got ${String(value)}).`);
  }
  return value;
}

export class PlatformClient {
  private readonly http: HttpClient;

  constructor(opts: PlatformClientOptions) {
    this.http = new HttpClient({
      baseUrl: opts.baseUrl,
      family: 'platform',
      auth: opts.token,
      network: opts.network,
      logger: opts.logger,
      retry: opts.retry,
      dispatchers: opts.dispatchers,
      userAgent: opts.userAgent,
    });
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private get<T>(
    path: string,
    schema: z.ZodType<T>,
    query?: Record<string, QueryValue>,
    signal?: AbortSignal,
    action?: string,
  ) {
    return this.http.json({ method: 'GET', path, query, signal, action }, schema);
  }

  /** Every write goes through http.write: sent once; an unclear failure says how to check. */
  private write<T>(
    method: string,
    path: string,
    body: unknown,
    schema: z.ZodType<T>,
    signal?: AbortSignal,
    action?: string,
    check?: WriteCheck,
  ) {
    return this.http.write({ method, path, body, signal, action, check }, schema);
  }

  private list<T extends z.ZodType>(
    path: string,
    item: T,
    params: PageParams & Record<string, QueryValue> = {},
    signal?: AbortSignal,
    action?: string,
  ): Promise<Page<z.infer<T>>> {
    checkPage(params);
    return this.get(path, listResponse(item), params, signal, action) as Promise<Page<z.infer<T>>>;
  }

  // ---- deployments and what they hold

  async listDeployments(p?: PageParams, signal?: AbortSignal) {
    return this.list('/v1/deployments', DeploymentSchema, { ...p }, signal, 'Listing deployments');
  }

  async getDeployment(deploymentId: number, signal?: AbortSignal) {
    const d = positiveId(deploymentId, 'deploymentId');
    return this.http.json(
      {
        method: 'GET',
        path: `/v1/deployments/${d}`,
        signal,
        messages: { notFound: `Deployment ${d} does not exist, or this token cannot see it.` },
      },
      DeploymentSchema,
    );
  }

  async listEnvironments(deploymentId: number, p?: PageParams, signal?: AbortSignal) {
    return this.list(
      `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/environments`,
      EnvironmentSchema,
      { ...p },
      signal,
    );
  }

  async listEnvVars(deploymentId: number, p?: PageParams, signal?: AbortSignal) {
    return this.list(
      `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/env-vars`,
      EnvVarSchema,
      { ...p },
      signal,
    );
  }

  async listFolders(deploymentId: number, p?: PageParams & { parentId?: number }, signal?: AbortSignal) {
    return this.list(
      `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/folders`,
      FolderSchema,
      { ...p },
      signal,
    );
  }

  async listReports(deploymentId: number, q: ReportListQuery = {}, signal?: AbortSignal) {
    if (q.sortBy === 'lastViewedAt' && q.after) {
      throw new ApiError(
        'validation',
        'Reports sorted by lastViewedAt cannot be paged with a cursor: only the first page is available. Sort by name, createdAt or updatedAt to page.',
      );
    }
    return this.list(
      `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/reports`,
      ReportSchema,
      { ...q },
      signal,
    );
  }

  async getReport(deploymentId: number, reportId: number, signal?: AbortSignal) {
    return this.get(
      `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/reports/${positiveId(reportId, 'reportId')}`,
      ReportSchema,
      undefined,
      signal,
    );
  }

  async connectReportToWorkbook(
    deploymentId: number,
    reportId: number,
    input: { externalWorkbookId: string; resultLocation: string; endResultCell?: string },
    signal?: AbortSignal,
  ) {
    const body = parseInput(ConnectReportToWorkbookInputSchema, input, 'Report not connected');
    return this.write(
      'PUT',
      `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/reports/${positiveId(reportId, 'reportId')}/connect-workbook`,
      body,
      ReportSchema,
      signal,
    );
  }

  async listWorkbooks(deploymentId: number, p?: PageParams, signal?: AbortSignal) {
    return this.list(
      `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/workbooks`,
      WorkbookSchema,
      { ...p },
      signal,
    );
  }

  async getWorkbook(deploymentId: number, workbookId: number, signal?: AbortSignal) {
    return this.get(
      `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/workbooks/${positiveId(workbookId, 'workbookId')}`,
      WorkbookSchema,
      undefined,
      signal,
    );
  }

  async duplicateWorkbook(
    deploymentId: number,
    workbookId: number,
    input: { shared?: boolean } = {},
    signal?: AbortSignal,
  ) {
    return this.write(
      'POST',
      `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/workbooks/${positiveId(workbookId, 'workbookId')}/duplicate`,
      input.shared === undefined ? {} : { shared: input.shared },
      WorkbookSchema,
      signal,
    );
  }

  /** Spec 4.2. Never retried: a publish that may have reached the server is reported, not repeated. */
  async publishDashboard(
    deploymentId: number,
    workbookId: number,
    input: PublishDashboardInput,
    signal?: AbortSignal,
  ) {
    const body = parseInput(PublishDashboardInputSchema, input, 'Dashboard not published');
    return this.write(
      'POST',
      `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/workbooks/${positiveId(workbookId, 'workbookId')}/publish`,
      body,
      PublishedDashboardSchema,
      signal,
      'Publishing the dashboard',
      { hint: 'Check the publish history before publishing again, so as not to make a duplicate version.' },
    );
  }

  async updateAiWidgetThread(
    deploymentId: number,
    workbookId: number,
    input: UpdatePublishedAiWidgetThreadInput,
    signal?: AbortSignal,
  ) {
    return this.write(
      'POST',
      `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/workbooks/${positiveId(workbookId, 'workbookId')}/dashboard/ai-widget-thread`,
      parseInput(UpdatePublishedAiWidgetThreadInputSchema, input, 'AI widget thread not attached'),
      PublishedDashboardSchema,
      signal,
    );
  }

  // ---- notifications (admin only)

  /** Spec 4.1: the rules are checked before any request; 403 says the admin role is needed. */
  async listNotifications(deploymentId: number, q: NotificationListQuery = {}, signal?: AbortSignal) {
    validateNotificationQuery(q);
    const d = positiveId(deploymentId, 'deploymentId');
    return this.http.json(
      {
        method: 'GET',
        path: `/v1/deployments/${d}/notifications`,
        query: { ...q },
        signal,
        forbiddenHint: 'Listing notifications needs the admin role. Use a token of an admin user.',
      },
      NotificationsListResponseSchema,
    );
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

  async createNotification(deploymentId: number, input: CreateNotificationInput, signal?: AbortSignal) {
    const body = parseInput(CreateNotificationInputSchema, input, 'Notification not created');
    return this.http.write(
      {
        method: 'POST',
        path: `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/notifications`,
        body,
        signal,
        action: 'Creating the notification',
        check: {
          hint: 'Refresh the notifications list to see whether it was created before creating it again.',
        },
        forbiddenHint: 'Creating notifications needs the admin role. Use a token of an admin user.',
      },
      NotificationSchema,
    );
  }

  async listRecipients(deploymentId: number, notificationId: number, signal?: AbortSignal) {
    return this.get(
      `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/notifications/${positiveId(notificationId, 'notificationId')}/recipients`,
      RecipientsListSchema,
      undefined,
      signal,
    );
  }

  async addRecipients(
    deploymentId: number,
    notificationId: number,
    recipients: Partial<NotificationRecipient>[],
    signal?: AbortSignal,
  ) {
    return this.write(
      'POST',
      `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/notifications/${positiveId(notificationId, 'notificationId')}/recipients`,
      { recipients },
      AddRecipientsResultSchema,
      signal,
    );
  }

  async removeRecipients(
    deploymentId: number,
    notificationId: number,
    recipients: Partial<NotificationRecipient>[],
    signal?: AbortSignal,
  ): Promise<void> {
    await this.http.writeNoContent({
      method: 'DELETE',
      path: `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/notifications/${positiveId(notificationId, 'notificationId')}/recipients`,
      body: { recipients },
      signal,
      check: { hint: 'Refresh the recipients list to see whether they were removed.' },
    });
  }

  // ---- dbt sync

  async startDbtSync(deploymentId: number, input: { branchName?: string } = {}, signal?: AbortSignal) {
    return this.write(
      'POST',
      `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/dbt-sync`,
      input,
      DbtSyncResponseSchema,
      signal,
      'Starting the dbt sync',
      { hint: 'Look for a running dbt sync job of this deployment before starting another one.' },
    );
  }

  async getDbtSyncJob(deploymentId: number, syncJobId: string, signal?: AbortSignal) {
    return this.get(
      `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/dbt-sync/${encodeURIComponent(syncJobId)}`,
      DbtSyncJobSchema,
      undefined,
      signal,
    );
  }

  /** Polls the job until COMPLETED or FAILED (unknown states count as running). */
  async waitForDbtSync(
    deploymentId: number,
    syncJobId: string,
    opts: WaitForDbtSyncOptions = {},
  ): Promise<DbtSyncJob> {
    const interval = opts.intervalMs ?? 1000;
    const end = Date.now() + (opts.timeoutMs ?? 30 * 60_000);
    for (;;) {
      const job = await this.getDbtSyncJob(deploymentId, syncJobId, opts.signal);
      opts.onStatus?.(job);
      if (FINISHED.has(job.status)) return job;
      if (Date.now() + interval > end) {
        throw new ApiError(
          'timeout',
          `The dbt sync job ${syncJobId} did not finish in time; it is still ${job.status}.`,
        );
      }
      await sleep(interval, opts.signal);
    }
  }

  // ---- account level

  async deleteEmbedTenant(name: string, signal?: AbortSignal): Promise<void> {
    if (!name.trim()) throw new ApiError('validation', 'Name the embed tenant to delete.');
    await this.http.writeNoContent({
      method: 'DELETE',
      path: `/v1/embed-tenants/${encodeURIComponent(name)}`,
      signal,
      check: { hint: 'Refresh the explorer to see whether the embed tenant still exists.' },
      messages: { notFound: `There is no embed tenant named "${name}".` },
    });
  }

  async getAppConfig(signal?: AbortSignal) {
    return this.get('/v1/app-config', AppConfigResponseSchema, undefined, signal);
  }

  async listUsers(p?: PageParams, signal?: AbortSignal) {
    return this.list('/v1/users', UserSchema, { ...p }, signal, 'Listing users');
  }

  /** POST /v1/deployments/{id}/token: a Data API token for users who only have a platform token. */
  async mintDataApiToken(
    deploymentId: number,
    opts: { expiresIn?: number; signal?: AbortSignal } = {},
  ): Promise<string> {
    const expiresIn = opts.expiresIn;
    if (expiresIn !== undefined && !(Number.isInteger(expiresIn) && expiresIn >= 60 && expiresIn <= 86400)) {
      throw new ApiError('validation', `expiresIn must be 60 to 86400 seconds (got ${String(expiresIn)}).`);
    }
    const res = await this.write(
      'POST',
      `/v1/deployments/${positiveId(deploymentId, 'deploymentId')}/token`,
      expiresIn === undefined ? {} : { expiresIn },
      MintTokenResponseSchema,
      opts.signal,
      'Getting a Data API token',
    );
    return res.cubeApiToken;
  }
}

export { nextCursor };
