// Embeddable dashboards (`/v1/embed/dashboard/{publicId}`): the "Allow signed embedding" flag of a
// published dashboard (admin), the exchange of an embed session for an embed token, and what an
// embed user does with that token: read the dashboard, its comment threads (post, reply, edit,
// delete, resolve), the users a comment can mention, and a python report re-run over filtered SQL.
// Every comment operation needs a signed embed session scoped to a tenant (an API key gets 403), so
// those rows are reached through `EmbedUserClient`, which sends the exchanged embed token.
import { z } from 'zod';
import { OperationsClient, table } from './operation';
import { id, maybe, PageQuery } from './transport';

const when = z.string();

export const EmbedCommentSchema = z.looseObject({
  id,
  body: z.string(),
  createdAt: when,
  isOwn: z.boolean(),
  dashboardId: z.string().optional(),
  editedAt: maybe(when),
  removedAt: maybe(when),
  userId: maybe(z.number()),
});
export type EmbedComment = z.infer<typeof EmbedCommentSchema>;

export const EmbedCommentThreadSchema = z.looseObject({
  root: EmbedCommentSchema,
  replies: z.array(EmbedCommentSchema),
  resolvedAt: maybe(when),
  resolvedBy: maybe(z.number()),
});
export type EmbedCommentThread = z.infer<typeof EmbedCommentThreadSchema>;

export const MentionableUserSchema = z.looseObject({
  id,
  username: z.string(),
  email: maybe(z.string()),
  firstName: maybe(z.string()),
});
export type MentionableUser = z.infer<typeof MentionableUserSchema>;

const ReportSnapshotSchema = z.looseObject({
  id,
  reportId: z.number(),
  name: maybe(z.string()),
  title: maybe(z.string()),
  pythonCode: maybe(z.string()),
  sqlQuery: maybe(z.string()),
});

export const EmbedDashboardSchema = z.looseObject({
  id,
  publicId: z.string(),
  allowEmbed: z.boolean().optional(),
  title: maybe(z.string()),
  status: z.string().optional(),
  // One bad snapshot must not hide the dashboard: unreadable ones are dropped.
  reportSnapshots: z
    .array(z.unknown())
    .optional()
    .transform((xs) =>
      (xs ?? []).flatMap((x) => {
        const p = ReportSnapshotSchema.safeParse(x);
        return p.success ? [p.data] : [];
      }),
    ),
});

/** A comment's text as published: 1 to 10000 characters. */
export const CommentBody = z
  .string()
  .min(1, 'a comment needs some text')
  .max(10_000, 'a comment is at most 10000 characters');

const dashboard = '/v1/embed/dashboard/{publicId}';
const comment = `${dashboard}/comments/{commentId}`;
const EMBED_USER_ONLY =
  'needs a signed embed session scoped to an embed tenant: use the Dashboard Comments command again to start a new one.';
const noDashboard = 'There is no embeddable dashboard "{publicId}" visible to this embed user.';
const noComment = 'That comment is no longer on this dashboard (it was deleted): refresh the comments.';

/** What an admin does: the signed-embedding flag, and redeeming an embed session. */
export const EMBED_DASHBOARD_ADMIN = table(
  { names: { publicId: 'The dashboard’s public id' } },
  {
    setDashboardEmbedding: {
      method: 'PATCH',
      path: dashboard,
      body: z.strictObject({ allowEmbed: z.boolean() }),
      answer: z.looseObject({ publicId: z.string(), allowEmbed: z.boolean() }),
      action: (b: { allowEmbed: boolean }) => `Turning signed embedding ${b.allowEmbed ? 'on' : 'off'}`,
      forbidden:
        'Changing signed embedding needs the admin role: use a profile whose token belongs to an admin.',
      notFound: 'There is no published dashboard "{publicId}": it may have been unpublished or deleted.',
      check: 'Refresh the dashboard in the explorer to see whether signed embedding is on or off.',
    },
    exchangeEmbedSession: {
      method: 'POST',
      path: '/v1/embed/session/token',
      body: z.strictObject({ sessionId: z.string().min(1) }),
      answer: z.looseObject({ token: z.string().min(1) }),
      action: 'Exchanging the embed session for a token',
      // Its 401 is about the session, never the profile's token (the exchange needs none).
      extra: {
        messages: {
          auth: 'The embed session is unknown, revoked or already used (a session is redeemed once): use the command again to generate a new one.',
        },
      },
      check: 'The session may be used up: start again (a new session is generated).',
    },
  },
);

/** What an embed user does with the exchanged token (`EmbedUserClient`). */
export const EMBED_DASHBOARD_USER = table(
  {
    names: { publicId: 'The dashboard’s public id', commentId: 'Comment id' },
    forbidden: (action) => `${action} ${EMBED_USER_ONLY}`,
  },
  {
    getEmbedDashboard: {
      method: 'GET',
      path: dashboard,
      answer: EmbedDashboardSchema,
      action: 'Opening the embedded dashboard',
      forbidden:
        'The dashboard is not open to signed embedding: turn Signed Embedding on for it, and check that it is shared with the embed tenant.',
      notFound: noDashboard,
    },
    listDashboardComments: {
      method: 'GET',
      path: `${dashboard}/comments`,
      query: PageQuery.extend({
        includeResolved: z.boolean().optional(),
        resolvedOnly: z.boolean().optional(),
      }),
      item: EmbedCommentThreadSchema,
      action: 'Listing comments',
      notFound: noDashboard,
    },
    createDashboardComment: {
      method: 'POST',
      path: `${dashboard}/comments`,
      body: z.strictObject({ body: CommentBody, parentId: z.number().int().nullable().optional() }),
      answer: EmbedCommentSchema,
      action: (b: { parentId?: number | null }) => (b.parentId ? 'Replying' : 'Posting a comment'),
      refused: 'Comment not posted',
      notFound: 'The thread is gone (deleted) or the dashboard is not visible: refresh the comments.',
      check: 'Refresh the comments to see whether it was posted before posting it again.',
    },
    listMentionableEmbedUsers: {
      method: 'GET',
      path: `${dashboard}/comments/mentionable-users`,
      query: PageQuery.extend({ search: z.string().max(255).optional() }),
      item: MentionableUserSchema,
      action: 'Listing the users a comment can mention',
      notFound: noDashboard,
    },
    updateDashboardComment: {
      method: 'PATCH',
      path: comment,
      body: z.strictObject({ body: CommentBody }),
      answer: EmbedCommentSchema,
      action: 'Editing a comment',
      refused: 'Comment not saved',
      forbidden: 'Only the author can edit a comment: check that it is yours (marked “you”).',
      notFound: noComment,
      check: 'Refresh the comments to see which text was saved.',
    },
    deleteDashboardComment: {
      method: 'DELETE',
      path: comment,
      nothing: true,
      action: 'Deleting a comment',
      forbidden: 'Only the author can delete a comment: check that it is yours (marked “you”).',
      notFound: noComment,
      check: 'Refresh the comments to see whether it was deleted.',
    },
    setDashboardCommentResolved: {
      method: 'POST',
      path: `${comment}/resolve`,
      body: z.strictObject({ resolved: z.boolean() }),
      answer: EmbedCommentThreadSchema,
      action: (b: { resolved: boolean }) => (b.resolved ? 'Resolving a thread' : 'Re-opening a thread'),
      forbidden:
        'Only the embed user who started the thread can resolve or re-open it: check who started it.',
      notFound: noComment,
      check: 'Refresh the comments to see whether the thread is resolved.',
    },
    runDashboardPython: {
      method: 'POST',
      path: `${dashboard}/python-run`,
      body: z.strictObject({
        reportId: z.number().int(),
        reportVersionId: z.number().int(),
        sqlQuery: z.string(),
      }),
      answer: z.looseObject({
        at: z.string(),
        stdout: z.string(),
        stderr: z.string(),
        inputRowCount: z.number(),
        executionError: maybe(z.string()),
        outputData: z.unknown().optional(),
      }),
      action: 'Running the python report',
      forbidden:
        'The python report cannot run here: check that Python analysis is on for the account and that the report is one of this dashboard’s published reports.',
      notFound: noDashboard,
      check: 'Run it again: a python run changes nothing on the server.',
    },
  },
);

/** The client of one embed user: every row of EMBED_DASHBOARD_USER, sent with that user's embed token. */
export class EmbedUserClient extends OperationsClient(EMBED_DASHBOARD_USER) {}
