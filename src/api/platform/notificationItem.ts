// One scheduled notification: get, update (schedule, format, filters; pause and resume are an
// update of `isEnabled`, as the published document has no separate operation) and delete.
import { z } from 'zod';
import {
  DashboardFilterInputSchema,
  DashboardTimeGrainInputSchema,
  NOTIFICATION_FORMATS,
  NOTIFICATION_WORDS,
  NotificationSchema,
  SCHEDULE_TYPES,
} from './notifications';
import { table } from './operation';

/**
 * A filter sent back exactly as the service sent it (`{ kept: filter }`): a set given replaces the
 * stored one, so the filters an edit did not touch go back with their flags (`caseSensitive`, …),
 * fields and operators this extension does not know. Only filters read from the service qualify;
 * new or changed ones are validated against the published input.
 */
const KeptFilterSchema = z.strictObject({ kept: z.looseObject({ member: z.string().min(1) }) });
export type KeptFilter = z.infer<typeof KeptFilterSchema>;

/** Any subset of the schedule; omitted fields stay as they are; lists given replace the stored ones. */
export const UpdateNotificationInputSchema = z
  .strictObject({
    scheduleType: z.enum(SCHEDULE_TYPES).optional(),
    minute: z.number().int().min(0).max(59).optional(),
    hour: z.number().int().min(0).max(23).optional(),
    dayOfWeek: z.number().int().min(0).max(6).optional(),
    dayOfMonth: z.number().int().min(1).max(31).optional(),
    customCron: z.string().min(1).optional(),
    timezone: z.string().min(1).optional(),
    isEnabled: z.boolean().optional(),
    notificationEnabled: z.boolean().optional(),
    notificationAiSummary: z.boolean().optional(),
    notificationFormat: z.enum(NOTIFICATION_FORMATS).optional(),
    filters: z
      .array(z.union([KeptFilterSchema, DashboardFilterInputSchema]))
      .transform((fs) => fs.map((f) => ('kept' in f ? f.kept : f)))
      .optional(),
    timeGrains: z.array(DashboardTimeGrainInputSchema).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.scheduleType === 'CUSTOM' && !v.customCron)
      ctx.addIssue({ code: 'custom', path: ['customCron'], message: 'A CUSTOM schedule needs customCron.' });
  });
export type UpdateNotificationInput = z.input<typeof UpdateNotificationInputSchema>;

const item = '/v1/deployments/{deploymentId}/notifications/{id}';

export const NOTIFICATION_ITEM = table(NOTIFICATION_WORDS, {
  getNotification: {
    method: 'GET',
    path: item,
    answer: NotificationSchema,
  },
  updateNotification: {
    method: 'PUT',
    path: item,
    body: UpdateNotificationInputSchema,
    answer: NotificationSchema,
    refused: 'Notification not changed',
    action: 'Changing the notification',
    check: 'Refresh the notifications list to see whether the change was applied.',
  },
  deleteNotification: {
    method: 'DELETE',
    path: item,
    nothing: true,
    action: 'Deleting the notification',
  },
});
