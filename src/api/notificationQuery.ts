// The rules of spec 4.1 for listing notifications, checked before any request is sent (the
// listNotifications row's query schema applies them) and by the explorer's filter input flow,
// which refuses a conflict as it is typed. Zod-free: the explorer loads it at activation.

export interface NotificationListQuery {
  first?: number;
  after?: string;
  dashboardId?: number;
  dashboardPublicId?: string;
  recipientUserId?: number;
  recipientEmail?: string;
  recipientEmbedTenantName?: string;
  recipientExternalId?: string;
}

const given = (v: unknown) => v !== undefined && v !== null && v !== '';

/** One sentence per broken rule, naming the parameters; empty when the query is valid. */
export function notificationQueryProblems(q: NotificationListQuery): string[] {
  const problems: string[] = [];
  if (given(q.first) && !(Number.isInteger(q.first) && q.first! >= 1 && q.first! <= 200)) {
    problems.push(`first must be a whole number from 1 to 200 (got ${String(q.first)}).`);
  }
  if (given(q.dashboardId) && !(Number.isInteger(q.dashboardId) && q.dashboardId! >= 1)) {
    problems.push(`dashboardId must be a whole number of at least 1 (got ${String(q.dashboardId)}).`);
  }
  if (given(q.recipientUserId) && !(Number.isInteger(q.recipientUserId) && q.recipientUserId! >= 1)) {
    problems.push(`recipientUserId must be a whole number of at least 1 (got ${String(q.recipientUserId)}).`);
  }
  if (given(q.dashboardId) && given(q.dashboardPublicId)) {
    problems.push('Use either dashboardId or dashboardPublicId, not both.');
  }
  const embed = given(q.recipientEmbedTenantName) || given(q.recipientExternalId);
  if (given(q.recipientEmbedTenantName) !== given(q.recipientExternalId)) {
    problems.push('recipientEmbedTenantName and recipientExternalId go together: give both or neither.');
  }
  const recipients = [
    given(q.recipientUserId) ? 'recipientUserId' : undefined,
    given(q.recipientEmail) ? 'recipientEmail' : undefined,
    embed ? 'recipientEmbedTenantName + recipientExternalId' : undefined,
  ].filter((x): x is string => x !== undefined);
  if (recipients.length > 1) {
    problems.push(`Use one recipient filter only: ${recipients.join(' and ')} were given.`);
  }
  return problems;
}
