// Platform (management) API resources, spec section 2 plus the roots the explorer lists. Field
// names are exact. Objects are loose: fields the live service adds are kept, never fatal; a missing
// required field is an error naming it (see zodProtocolError).
import { z } from 'zod';
import { DashboardConfigSchema } from './dashboard';

export * from './dashboard';

const id = z.number().int();

export const PageInfoSchema = z.looseObject({
  hasNextPage: z.boolean(),
  hasPreviousPage: z.boolean(),
  startCursor: z.string().nullable().optional(),
  endCursor: z.string().nullable().optional(),
});

/** `{items, pageInfo}`; `pageInfo: null` means no more pages. Deprecated `data`/`count` are kept. */
export function listResponse<T extends z.ZodType>(item: T) {
  return z.looseObject({
    items: z.array(item),
    pageInfo: PageInfoSchema.nullable()
      .optional()
      .transform((v) => v ?? null),
  });
}

// ---- 2.3 / 2.4 filters and time grains

export const DASHBOARD_FILTER_OPERATORS = [
  'equals',
  'not_equals',
  'greater_than',
  'greater_than_or_equal',
  'less_than',
  'less_than_or_equal',
  'contains',
  'not_contains',
  'starts_with',
  'not_starts_with',
  'ends_with',
  'not_ends_with',
  'is_null',
  'is_not_null',
  'between',
  'custom',
] as const;

export const DashboardFilterSchema = z.looseObject({
  member: z.string().describe('The member filtered, e.g. "orders.status".'),
  operator: z.enum(DASHBOARD_FILTER_OPERATORS).nullable().optional().describe('How the member is compared.'),
  value: z
    .union([z.string(), z.number(), z.boolean(), z.array(z.unknown())])
    .nullable()
    .optional()
    .describe('The value compared against (an array for between and multi-value operators).'),
  caseSensitive: z.unknown().optional(),
  startInclusive: z.unknown().optional(),
  endInclusive: z.unknown().optional(),
});
export type DashboardFilter = z.infer<typeof DashboardFilterSchema>;

export const DashboardTimeGrainSchema = z.looseObject({
  member: z.string().describe('The time dimension, e.g. "orders.created_at".'),
  grain: z.string().describe('The time grain, e.g. "day", "week", "month".'),
});
export type DashboardTimeGrain = z.infer<typeof DashboardTimeGrainSchema>;

// ---- 2.1 notifications

export const NotificationSchema = z.looseObject({
  id,
  dashboardId: id,
  deploymentId: id,
  cronExpression: z.string(),
  timezone: z.string(),
  isEnabled: z.boolean(),
  humanReadableSchedule: z.string(),
  notificationEnabled: z.boolean(),
  notificationFormat: z.string(),
  filters: z.array(DashboardFilterSchema).nullable().optional(),
  timeGrains: z.array(DashboardTimeGrainSchema).nullable().optional(),
});
export type Notification = z.infer<typeof NotificationSchema>;
export const NotificationsListResponseSchema = listResponse(NotificationSchema);

export const SCHEDULE_TYPES = ['HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'CUSTOM'] as const;
export const NOTIFICATION_FORMATS = ['png', 'pdf'] as const;

export const CreateNotificationInputSchema = z
  .looseObject({
    dashboardId: id.min(1).optional(),
    dashboardPublicId: z.string().min(1).optional(),
    scheduleType: z.enum(SCHEDULE_TYPES),
    minute: z.number().int().min(0).max(59).optional(),
    hour: z.number().int().min(0).max(23).optional(),
    dayOfWeek: z.number().int().min(0).max(6).optional(),
    dayOfMonth: z.number().int().min(1).max(31).optional(),
    customCron: z.string().optional(),
    timezone: z.string().optional(),
    notificationFormat: z.enum(NOTIFICATION_FORMATS).optional(),
    notificationEnabled: z.boolean().optional(),
    filters: z.array(DashboardFilterSchema).optional(),
    timeGrains: z.array(DashboardTimeGrainSchema).optional(),
  })
  .superRefine((v, ctx) => {
    const count = (v.dashboardId !== undefined ? 1 : 0) + (v.dashboardPublicId !== undefined ? 1 : 0);
    if (count !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['dashboardId'],
        message: 'Give exactly one of dashboardId or dashboardPublicId.',
      });
    }
    if (v.scheduleType === 'CUSTOM' && !v.customCron) {
      ctx.addIssue({ code: 'custom', path: ['customCron'], message: 'A CUSTOM schedule needs customCron.' });
    }
  });
export type CreateNotificationInput = z.input<typeof CreateNotificationInputSchema>;

export const RECIPIENT_TYPES = ['USER', 'EMBED_USER', 'SLACK'] as const;
export const NotificationRecipientSchema = z.looseObject({
  type: z.string(),
  userId: z.number().int().optional().nullable(),
  email: z.string().optional().nullable(),
  username: z.string().optional().nullable(),
  embedTenantName: z.string().optional().nullable(),
  externalId: z.string().optional().nullable(),
  slackChannelId: z.string().optional().nullable(),
});
export type NotificationRecipient = z.infer<typeof NotificationRecipientSchema>;
/** Recipients come as an array or as `{items}`; either way a single page (`pageInfo: null`). */
export const RecipientsListSchema = z.union([
  z.array(NotificationRecipientSchema).transform((items) => ({ items, pageInfo: null })),
  listResponse(NotificationRecipientSchema),
]);
export const AddRecipientsResultSchema = z.looseObject({
  created: z.number().optional(),
  updated: z.number().optional(),
  unchanged: z.number().optional(),
});

// ---- 2.9, 2.5 published dashboard

export const ReportSnapshotSchema = z.looseObject({
  id,
  reportId: id,
  versionNumber: z.number().int().optional(),
  name: z.string().optional(),
  title: z.string().optional(),
  description: z.string().nullable().optional(),
  kind: z.string().optional(),
  meta: z.record(z.string(), z.unknown()).nullable().optional(),
  preferences: z
    .looseObject({ columnFormats: z.record(z.string(), z.unknown()).optional() })
    .nullable()
    .optional(),
  spec: z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .nullable()
    .optional(),
  sqlQuery: z.string().nullable().optional(),
  fillMissingRows: z
    .looseObject({ member: z.string(), excludedDimensions: z.array(z.string()) })
    .nullable()
    .optional(),
});

export const PUBLISHED_STATUSES = ['draft', 'published', 'archived'] as const;
export const PublishedDashboardSchema = z.looseObject({
  id,
  publicId: z.string(),
  deploymentId: id,
  workbookId: id,
  versionId: id.optional(),
  versionNumber: z.number().int(),
  status: z.union([z.enum(PUBLISHED_STATUSES), z.string()]),
  allowEmbed: z.boolean().optional(),
  config: DashboardConfigSchema.nullable().optional(),
  reportSnapshots: z.array(ReportSnapshotSchema).optional(),
  createdBy: z.number().int().nullable().optional(),
  title: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  fromSharedWorkspace: z.boolean().optional(),
  restrictDataDownload: z.boolean().optional(),
  useBoardDashboards: z.boolean().optional(),
});
export type PublishedDashboard = z.infer<typeof PublishedDashboardSchema>;

export const UpdatePublishedAiWidgetThreadInputSchema = z.looseObject({
  threadId: z.string().min(1),
  widgetId: z.string().min(1),
  checksum: z.string().optional(),
});
export type UpdatePublishedAiWidgetThreadInput = z.infer<typeof UpdatePublishedAiWidgetThreadInputSchema>;

// ---- explorer roots

export const DeploymentSchema = z.looseObject({ id, name: z.string() });
export type Deployment = z.infer<typeof DeploymentSchema>;
export const EnvironmentSchema = z.looseObject({ id, name: z.string().optional() });
export const FolderSchema = z.looseObject({
  id,
  name: z.string(),
  parentId: z.number().int().nullable().optional(),
});
export type Folder = z.infer<typeof FolderSchema>;
export const ReportPlacementSchema = z.looseObject({
  workbookId: z.union([z.string(), z.number()]).optional(),
  resultLocation: z.string().optional(),
  endResultCell: z.string().nullable().optional(),
});
export const ReportSchema = z.looseObject({
  id,
  name: z.string(),
  title: z.string().nullable().optional(),
  folderId: z.number().int().nullable().optional(),
  canEdit: z.boolean().optional(),
  canManage: z.boolean().optional(),
  externalWorkbookPlacements: z.array(ReportPlacementSchema).nullable().optional(),
});
export type Report = z.infer<typeof ReportSchema>;
export const WorkbookSchema = z.looseObject({
  id,
  name: z.string(),
  slug: z.string().nullable().optional(),
  dashboardDraft: z.unknown().optional(),
  dashboardPublished: z.unknown().optional(),
});
export type Workbook = z.infer<typeof WorkbookSchema>;
export const EnvVarSchema = z.looseObject({ name: z.string() });
export const UserSchema = z.looseObject({ id, email: z.string().optional() });
export const AppConfigResponseSchema = z.looseObject({
  appTheme: z.unknown().optional(),
  applyThemeGlobally: z.boolean().optional(),
  creatorMode: z.unknown().optional(),
  embedding: z.unknown().optional(),
});
export type AppConfigResponse = z.infer<typeof AppConfigResponseSchema>;

export const DbtSyncResponseSchema = z.looseObject({
  syncJobId: z.union([z.string(), z.number()]).transform(String),
  workflowId: z.string().nullable().optional(),
  branchName: z.string().nullable().optional(),
});
export type DbtSyncResponse = z.infer<typeof DbtSyncResponseSchema>;
export const DbtSyncJobSchema = z.looseObject({
  status: z.string(),
  error: z.string().nullable().optional(),
});
export type DbtSyncJob = z.infer<typeof DbtSyncJobSchema>;

export const ConnectReportToWorkbookInputSchema = z.looseObject({
  externalWorkbookId: z.string().min(1),
  resultLocation: z.string().min(1),
  endResultCell: z.string().optional(),
});
export type ConnectReportToWorkbookInput = z.infer<typeof ConnectReportToWorkbookInputSchema>;

export const MintTokenResponseSchema = z.looseObject({ cubeApiToken: z.string().min(1) });
