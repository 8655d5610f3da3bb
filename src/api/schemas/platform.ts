// Platform (management) API resources, spec section 2 plus the roots the explorer lists. Field
// names are exact. Objects are loose: fields the live service adds are kept, never fatal; a missing
// required field is an error naming it (see zodProtocolError).
import { z } from 'zod';

const BREAKPOINTS = ['lg', 'md', 'sm', 'xs', 'xxs'] as const;
export type Breakpoint = (typeof BREAKPOINTS)[number];
export const BREAKPOINT_KEYS = BREAKPOINTS;

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

// ---- 2.6 - 2.8 dashboard config (publish input shapes, with descriptions for the JSON Schema)

const gridBox = z
  .looseObject({
    h: z.number().describe('Height in grid rows.'),
    w: z.number().describe('Width in grid columns.'),
    x: z.number().describe('Column of the left edge (0-based).'),
    y: z.number().describe('Row of the top edge (0-based).'),
  })
  .describe('A position and size on the grid.');

const perBreakpoint = <T extends z.ZodType>(value: T, what: string) =>
  z
    .looseObject(
      Object.fromEntries(
        BREAKPOINTS.map((b) => [b, value.optional().describe(`${what} at the ${b} breakpoint.`)]),
      ) as Record<Breakpoint, z.ZodOptional<T>>,
    )
    .describe(`${what} per breakpoint (keys lg, md, sm, xs, xxs).`);

export const LayoutSchema = z
  .looseObject({
    breakpoints: perBreakpoint(z.number(), 'Minimum container width in pixels').optional(),
    cols: perBreakpoint(z.number(), 'Number of grid columns').optional(),
    containerPadding: z
      .array(z.number())
      .optional()
      .describe('Padding of the grid container, [x, y] in pixels.'),
    margin: z.array(z.number()).optional().describe('Space between widgets, [x, y] in pixels.'),
    rowHeight: z.number().optional().describe('Height of one grid row in pixels.'),
  })
  .describe('The responsive grid the widgets are placed on.');
export type Layout = z.infer<typeof LayoutSchema>;

const str = (d: string) => z.string().optional().describe(d);
const borderSchema = z
  .looseObject({
    color: str('Border colour (CSS colour).'),
    radius: str('Corner radius (CSS length).'),
    style: str('Border style (CSS border-style).'),
    width: str('Border width (CSS length).'),
  })
  .optional();
const titleSchema = z
  .looseObject({
    color: str('Title colour.'),
    fontFamily: str('Title font family.'),
    fontSize: str('Title font size.'),
    fontWeight: str('Title font weight.'),
  })
  .optional();

export const ThemeSchema = z
  .looseObject({
    backgroundColor: str('Page background colour.'),
    fontFamily: str('Default font family.'),
    primaryColor: str('Accent colour.'),
    themeId: str('Id of a saved theme this one derives from.'),
    controls: z
      .looseObject({
        backgroundColor: str('Background of filter controls.'),
        padding: str('Padding of filter controls.'),
        border: borderSchema.describe('Border of filter controls.'),
        title: titleSchema.describe('Titles of filter controls.'),
      })
      .optional()
      .describe('Filter and control widgets.'),
    dashboard: z
      .looseObject({
        backgroundColor: str('Dashboard background colour.'),
        padding: str('Dashboard padding.'),
      })
      .optional()
      .describe('The dashboard canvas.'),
    widgets: z
      .looseObject({
        backgroundColor: str('Widget background colour.'),
        margin: str('Widget margin.'),
        padding: str('Widget padding.'),
        border: borderSchema.describe('Widget border.'),
        text: z
          .looseObject({
            codeFontFamily: str('Font family of code.'),
            color: str('Text colour.'),
            fontFamily: str('Text font family.'),
            secondaryColor: str('Secondary text colour.'),
          })
          .optional()
          .describe('Widget text.'),
        title: titleSchema.describe('Widget titles.'),
      })
      .optional()
      .describe('Widgets on the dashboard.'),
  })
  .describe('Colours, fonts, borders and paddings (all values are strings).');
export type Theme = z.infer<typeof ThemeSchema>;

export const WIDGET_TYPES = [
  'CHART',
  'TEXT',
  'FILTER',
  'AI',
  'TIME_GRAIN',
  'FIELD',
  'PARENT',
  'SPACER',
  'DIVIDER',
  'CONTAINER',
] as const;

export const WidgetSchema = z
  .looseObject({
    id: z.string().describe('Widget id, unique in the dashboard.'),
    position: gridBox.describe('Position and size on the grid ({h, w, x, y}).'),
    config: z.record(z.string(), z.unknown()).optional().describe('Widget configuration (free-form).'),
    responsiveLayouts: perBreakpoint(gridBox, 'Position and size').optional(),
    style: z.record(z.string(), z.unknown()).optional().describe('Widget style (free-form).'),
    type: z
      .union([z.enum(WIDGET_TYPES), z.string()])
      .optional()
      .describe(`Widget type; known values: ${WIDGET_TYPES.join(', ')}.`),
  })
  .describe('A widget placed on the dashboard grid.');
export type Widget = z.infer<typeof WidgetSchema>;

export const DashboardConfigSchema = z
  .looseObject({
    title: z.string().optional().describe('Dashboard title.'),
    description: z.string().optional().describe('Dashboard description.'),
    layout: LayoutSchema.optional(),
    settings: z.record(z.string(), z.unknown()).optional().describe('Dashboard settings (free-form).'),
    theme: ThemeSchema.optional(),
    widgets: z.array(WidgetSchema).optional().describe('The widgets (optional in the publish input).'),
  })
  .describe('The dashboard: layout, theme, settings and widgets.');
export type DashboardConfig = z.infer<typeof DashboardConfigSchema>;

export const PublishDashboardInputSchema = z
  .looseObject({
    workbookId: id.min(1).describe('The workbook to publish (the only required field).'),
    dashboardId: id.optional().describe('The dashboard to update, when it exists already.'),
    allowEmbed: z.boolean().optional().describe('Whether the published dashboard may be embedded.'),
    title: z.string().optional().describe('Title of the published dashboard.'),
    description: z.string().optional().describe('Description of the published dashboard.'),
    config: DashboardConfigSchema.optional().describe(
      'The dashboard config; omit it to publish the saved draft.',
    ),
  })
  .describe(
    'A dashboard to publish from a workbook (POST /v1/deployments/{deploymentId}/workbooks/{workbookId}/publish).',
  );
export type PublishDashboardInput = z.infer<typeof PublishDashboardInputSchema>;

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
