// Scheduled notifications (admin only) and their recipients. Filters read from the service keep
// operators this extension has never seen (shown as they are); filters we send use the published
// operators only.
import { z } from 'zod';
import { ApiError } from '../errors';
import { notificationQueryProblems } from '../notificationQuery';
import { paginate } from '../paging';
import { adminOnly, call, table } from './operation';
import { id, maybe, PageQuery, type PlatformTransport } from './transport';

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
  'is_empty',
  'is_not_empty',
  'between',
  'custom',
] as const;

const filterValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.unknown())]);

/** A filter as read: any operator string is kept. */
export const DashboardFilterSchema = z.looseObject({
  member: z.string().describe('The member filtered, e.g. "orders.status".'),
  operator: maybe(z.string()).describe(
    `How the member is compared; known: ${DASHBOARD_FILTER_OPERATORS.join(', ')}.`,
  ),
  value: maybe(filterValue).describe(
    'The value compared against (an array for between and multi-value operators).',
  ),
  caseSensitive: z.unknown().optional(),
  startInclusive: z.unknown().optional(),
  endInclusive: z.unknown().optional(),
});
export type DashboardFilter = z.infer<typeof DashboardFilterSchema>;

export const DashboardTimeGrainSchema = z.looseObject({
  member: z.string().describe('The time dimension, e.g. "orders.created_at".'),
  grain: z.string().describe('The time grain, e.g. "day", "week", "month".'),
});

const memberName = z.string().regex(/.+\..+/, 'must be cube.member');
export const DashboardFilterInputSchema = z.strictObject({
  member: memberName,
  operator: z.enum(DASHBOARD_FILTER_OPERATORS).optional(),
  value: filterValue.nullable().optional(),
  caseSensitive: z.boolean().optional(),
  startInclusive: z.boolean().optional(),
  endInclusive: z.boolean().optional(),
});
export const DashboardTimeGrainInputSchema = z.strictObject({ member: memberName, grain: z.string().min(1) });

// ---- 2.1 notifications

export const NotificationSchema = z.looseObject({
  id,
  dashboardId: id.optional(),
  deploymentId: id.optional(),
  cronExpression: z.string().optional(),
  timezone: z.string().optional(),
  isEnabled: z.boolean().optional(),
  humanReadableSchedule: z.string().optional(),
  notificationEnabled: z.boolean().optional(),
  notificationFormat: z.string().optional(),
  notificationAiSummary: z.boolean().optional(),
  filters: maybe(z.array(DashboardFilterSchema)),
  timeGrains: maybe(z.array(DashboardTimeGrainSchema)),
});
export type Notification = z.infer<typeof NotificationSchema>;

export const SCHEDULE_TYPES = ['HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'CUSTOM'] as const;
export const NOTIFICATION_FORMATS = ['png', 'pdf'] as const;

export const CreateNotificationInputSchema = z
  .strictObject({
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
    notificationAiSummary: z.boolean().optional(),
    filters: z.array(DashboardFilterInputSchema).optional(),
    timeGrains: z.array(DashboardTimeGrainInputSchema).optional(),
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

// ---- recipients

export const RECIPIENT_TYPES = ['USER', 'EMBED_USER', 'SLACK'] as const;

/** A recipient as read: any type string is kept; the Slack channel is `channelId`. */
export const NotificationRecipientSchema = z.looseObject({
  type: z.string(),
  userId: maybe(z.number().int()),
  email: maybe(z.string()),
  username: maybe(z.string()),
  embedUserId: maybe(z.number().int()),
  embedTenantName: maybe(z.string()),
  externalId: maybe(z.string()),
  channelId: maybe(z.string()),
  channelName: maybe(z.string()),
});
export type NotificationRecipient = z.infer<typeof NotificationRecipientSchema>;

/** The published NotificationRecipientInput; its field notes say what each type needs. */
export const NotificationRecipientInputSchema = z
  .strictObject({
    type: z.enum(RECIPIENT_TYPES),
    userId: z.number().int().min(1).optional(),
    email: z.string().min(1).optional(),
    embedTenantName: z.string().min(1).optional(),
    externalId: z.string().min(1).optional(),
    channelId: z.string().min(1).optional(),
    channelName: z.string().optional(),
    groups: z.array(z.string()).optional(),
    securityContext: z.record(z.string(), z.unknown()).optional(),
    userAttributes: z.array(z.strictObject({ name: z.string(), value: z.unknown() })).optional(),
  })
  .refine((r) => r.type !== 'USER' || r.userId !== undefined || r.email !== undefined, {
    message: 'A USER recipient needs userId or email.',
  })
  .refine((r) => r.type !== 'EMBED_USER' || (r.embedTenantName && r.externalId), {
    message: 'An EMBED_USER recipient needs embedTenantName and externalId.',
  })
  .refine((r) => r.type !== 'SLACK' || r.channelId !== undefined, {
    message: 'A SLACK recipient needs channelId.',
  });
export type NotificationRecipientInput = z.infer<typeof NotificationRecipientInputSchema>;
export const AddRecipientsInputSchema = z.strictObject({
  recipients: z.array(NotificationRecipientInputSchema).min(1).max(1000),
});

/** `{type, id}`: id is the userId (USER), embedUserId (EMBED_USER, with embedTenantName) or channelId (SLACK). */
export const RemoveRecipientInputSchema = z
  .strictObject({
    type: z.enum(RECIPIENT_TYPES),
    id: z.union([z.number().int(), z.string().min(1)]),
    embedTenantName: z.string().min(1).optional(),
  })
  .refine((r) => r.type !== 'EMBED_USER' || r.embedTenantName !== undefined, {
    message: 'An EMBED_USER entry also needs embedTenantName.',
  });
export type RemoveRecipientInput = z.infer<typeof RemoveRecipientInputSchema>;
export const RemoveRecipientsInputSchema = z.strictObject({
  recipients: z.array(RemoveRecipientInputSchema).min(1).max(1000),
});

/** What a removal needs to name `r`, from a listed recipient. Throws when the listing lacks it. */
export function recipientRemoval(
  r: Partial<NotificationRecipient> & Record<string, unknown>,
): RemoveRecipientInput {
  const type = String(r.type ?? '');
  const missing = (field: string) =>
    new ApiError(
      'validation',
      `This ${type} recipient cannot be removed: the service did not send its ${field}.`,
    );
  if (type === 'USER') {
    if (typeof r.userId !== 'number') throw missing('userId');
    return { type, id: r.userId };
  }
  if (type === 'EMBED_USER') {
    if (typeof r.embedUserId !== 'number') throw missing('embedUserId');
    if (typeof r.embedTenantName !== 'string' || r.embedTenantName === '') throw missing('embedTenantName');
    return { type, id: r.embedUserId, embedTenantName: r.embedTenantName };
  }
  if (type === 'SLACK') {
    if (typeof r.channelId !== 'string' || r.channelId === '') throw missing('channelId');
    return { type, id: r.channelId };
  }
  throw new ApiError(
    'validation',
    `Recipients of type "${type}" cannot be removed by this version of the extension.`,
  );
}

const recipientList = z.array(z.unknown()).optional().default([]);
/** The add result: the recipients created, updated and left unchanged (arrays, read tolerantly). */
export const AddRecipientsResultSchema = z.looseObject({
  createdRecipients: recipientList,
  updatedRecipients: recipientList,
  unchangedRecipients: recipientList,
});
export type AddRecipientsResult = z.infer<typeof AddRecipientsResultSchema>;

/** "2 added, 1 updated, 0 unchanged" from an add result. */
export function describeAddResult(r: AddRecipientsResult): string {
  return `${r.createdRecipients.length} added, ${r.updatedRecipients.length} updated, ${r.unchangedRecipients.length} unchanged`;
}

/**
 * The published query of getNotifications with the rules of spec 4.1 (one dashboard identifier,
 * one recipient filter, the embed pair together), checked before sending.
 */
export const NotificationListQuerySchema = z
  .object({
    first: z.number().optional(),
    after: z.string().optional(),
    dashboardId: z.number().optional(),
    dashboardPublicId: z.string().optional(),
    recipientUserId: z.number().optional(),
    recipientEmail: z.string().optional(),
    recipientEmbedTenantName: z.string().optional(),
    recipientExternalId: z.string().optional(),
  })
  .superRefine((q, ctx) => {
    const problems = notificationQueryProblems(q);
    if (problems.length > 0) ctx.addIssue({ code: 'custom', message: problems.join(' ') });
  });

const list = '/v1/deployments/{deploymentId}/notifications';
const recipients = `${list}/{id}/recipients`;

/** The words of every notification row (notificationItem.ts shares them). */
export const NOTIFICATION_WORDS = {
  names: { id: 'notificationId' },
  place: 'the notifications list',
  many: 'notifications',
  forbidden: adminOnly,
};

const RECIPIENTS = table(
  { ...NOTIFICATION_WORDS, many: 'recipients' },
  {
    /** One page of recipients (cursor-paged like every list). */
    listRecipients: {
      method: 'GET',
      path: recipients,
      query: PageQuery,
      item: NotificationRecipientSchema,
    },
    addRecipients: {
      method: 'POST',
      path: recipients,
      body: AddRecipientsInputSchema,
      answer: AddRecipientsResultSchema,
      refused: 'Recipients not added',
      check: 'Refresh the recipients list to see whether they were added before adding them again.',
      verb: 'Adding',
    },
    removeRecipients: {
      method: 'DELETE',
      path: recipients,
      kind: 'write',
      body: RemoveRecipientsInputSchema,
      refused: 'Recipients not removed',
      check: 'Refresh the recipients list to see whether they were removed.',
      verb: 'Removing',
    },
  },
);

export const NOTIFICATIONS = {
  listRecipients: RECIPIENTS.listRecipients,
  ...table(NOTIFICATION_WORDS, {
    listNotifications: {
      method: 'GET',
      path: list,
      query: NotificationListQuerySchema,
      item: NotificationSchema,
      refused: 'Notification filter not sent',
    },
    createNotification: {
      method: 'POST',
      path: list,
      body: CreateNotificationInputSchema,
      answer: NotificationSchema,
      refused: 'Notification not created',
      action: 'Creating the notification',
    },
  }),
};

/** Every recipient, following every page. */
export function iterateRecipients(
  t: PlatformTransport,
  deploymentId: number,
  notificationId: number,
  signal?: AbortSignal,
) {
  return paginate((after) =>
    call(
      t,
      NOTIFICATIONS.listRecipients,
      deploymentId,
      notificationId,
      after ? { first: 200, after } : { first: 200 },
      signal,
    ),
  );
}

/** The recipients as an array (the body wraps them). */
export function addRecipients(
  t: PlatformTransport,
  deploymentId: number,
  notificationId: number,
  list: NotificationRecipientInput[],
  signal?: AbortSignal,
): Promise<AddRecipientsResult> {
  return call(t, RECIPIENTS.addRecipients, deploymentId, notificationId, { recipients: list }, signal);
}

export async function removeRecipients(
  t: PlatformTransport,
  deploymentId: number,
  notificationId: number,
  list: RemoveRecipientInput[],
  signal?: AbortSignal,
): Promise<void> {
  await call(t, RECIPIENTS.removeRecipients, deploymentId, notificationId, { recipients: list }, signal);
}
