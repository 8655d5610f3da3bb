// The embeddable-dashboard operations as the client contract suites run them (see
// clientOperations.ts): the admin's signed-embedding flag and session exchange on PlatformClient,
// the rest as an embed user (PlatformClient.asEmbedUser) with the exchanged token.
import * as assert from 'node:assert/strict';
import type { PlatformClient } from '../../../src/api';
import type { EmbedUserClient } from '../../../src/api/platform/embedDashboards';
import type { AdminCall } from './adminCalls';
import { arr, listOf, same, type Json } from './caseChecks';
import type { OperationCase } from './clientOperations';

/** Every served item read, none set aside, `pick` of each as sent. */
const list = (pick: (item: Json) => unknown) => listOf((b) => arr((b as Json).items), pick);

/** Runs `fn` as an embed user, closing that client after. */
async function asEmbed<T>(p: PlatformClient, fn: (e: EmbedUserClient) => Promise<T>): Promise<T> {
  const e = p.asEmbedUser('embed-contract-token');
  try {
    return await fn(e);
  } finally {
    await e.close();
  }
}

const dash = '/api/v1/embed/dashboard/{publicId}';
const P = 'pub1x0000001';

export const EMBED_DASHBOARD_OPERATIONS: OperationCase[] = [
  {
    name: 'setDashboardEmbedding',
    operation: `PATCH ${dash}`,
    run: (c) => c.platform.setDashboardEmbedding(P, { allowEmbed: true }),
    check: same('publicId', 'allowEmbed'),
  },
  {
    name: 'exchangeEmbedSession',
    operation: 'POST /api/v1/embed/session/token',
    run: (c) => c.platform.exchangeEmbedSession({ sessionId: '0123456789abcdef0123456789abcdef' }),
    check: same('token'),
  },
  {
    name: 'embed.getEmbedDashboard',
    operation: `GET ${dash}`,
    run: (c) => asEmbed(c.platform, (e) => e.getEmbedDashboard(P)),
    check: same('id', 'publicId', 'allowEmbed'),
  },
  {
    name: 'embed.listDashboardComments',
    operation: `GET ${dash}/comments`,
    run: (c) => asEmbed(c.platform, (e) => e.listDashboardComments(P, { includeResolved: true, first: 20 })),
    check: list((t) => [(t.root as Json).id, (t.root as Json).body, (t.replies as unknown[]).length]),
  },
  {
    name: 'embed.createDashboardComment',
    operation: `POST ${dash}/comments`,
    run: (c) => asEmbed(c.platform, (e) => e.createDashboardComment(P, { body: 'Looks right', parentId: 4 })),
    check: same('id', 'body', 'isOwn'),
  },
  {
    name: 'embed.listMentionableEmbedUsers',
    operation: `GET ${dash}/comments/mentionable-users`,
    run: (c) => asEmbed(c.platform, (e) => e.listMentionableEmbedUsers(P, { search: 'ann', first: 50 })),
    check: list((u) => [u.id, u.username]),
  },
  {
    name: 'embed.updateDashboardComment',
    operation: `PATCH ${dash}/comments/{commentId}`,
    run: (c) => asEmbed(c.platform, (e) => e.updateDashboardComment(P, 4, { body: 'Edited' })),
    check: same('id', 'body', 'editedAt'),
  },
  {
    name: 'embed.deleteDashboardComment',
    operation: `DELETE ${dash}/comments/{commentId}`,
    run: (c) => asEmbed(c.platform, (e) => e.deleteDashboardComment(P, 4)),
    check: (result) => assert.equal(result, undefined),
  },
  {
    name: 'embed.setDashboardCommentResolved',
    operation: `POST ${dash}/comments/{commentId}/resolve`,
    run: (c) => asEmbed(c.platform, (e) => e.setDashboardCommentResolved(P, 4, { resolved: true })),
    check: same('resolvedAt', 'resolvedBy'),
  },
  {
    name: 'embed.runDashboardPython',
    operation: `POST ${dash}/python-run`,
    run: (c) =>
      asEmbed(c.platform, (e) =>
        e.runDashboardPython(P, { reportId: 3, reportVersionId: 31, sqlQuery: 'SELECT 1' }),
      ),
    check: same('stdout', 'stderr', 'inputRowCount'),
  },
];

/**
 * The embeddable dashboard routes driven in order through the sandbox contract suite: the admin
 * allows signed embedding and generates a session, the session is exchanged once for an embed token
 * (`{sessionId}` and `{embedToken}` are captured from the answers), and the embed user holding it
 * reads the dashboard and writes a comment thread; an API key is refused on comments.
 */
export function embedDashboardCalls(): (Omit<AdminCall, 'auth'> & { auth?: string; readAs?: string })[] {
  const d = '/api/v1/embed/dashboard/pub1x0000001';
  const embed = 'Bearer {embedToken}';
  const session = {
    deploymentId: 1,
    externalId: 'acme-ext-1',
    embedTenantName: 'acme',
    publicDashboardId: 'pub1x0000001',
  };
  return [
    { method: 'POST', path: '/api/v1/embed/generate-session', body: session, status: 200 },
    {
      method: 'POST',
      path: '/api/v1/embed/session/token',
      body: { sessionId: '{sessionId}' },
      auth: 'none',
      status: 200,
    },
    // A session is redeemed once.
    {
      method: 'POST',
      path: '/api/v1/embed/session/token',
      body: { sessionId: '{sessionId}' },
      auth: 'none',
      status: 401,
    },
    // Read back as the embed user: the dashboard read is an embed user's.
    { method: 'PATCH', path: d, body: { allowEmbed: true }, status: 200, readAs: embed },
    { method: 'PATCH', path: d, body: { allowEmbed: 'yes' }, status: 400 },
    { method: 'GET', path: d, auth: embed, status: 200 },
    { method: 'GET', path: `${d}/comments`, auth: embed, status: 200 },
    { method: 'GET', path: `${d}/comments`, status: 403 },
    {
      method: 'POST',
      path: `${d}/comments`,
      auth: embed,
      body: { body: 'Contract comment' },
      status: 200,
      capture: 'comment',
    },
    { method: 'POST', path: `${d}/comments`, auth: embed, body: { body: '' }, status: 400 },
    { method: 'GET', path: `${d}/comments/mentionable-users`, auth: embed, status: 200 },
    {
      method: 'PATCH',
      path: `${d}/comments/{comment}`,
      auth: embed,
      body: { body: 'Contract comment, edited' },
      status: 200,
    },
    {
      method: 'POST',
      path: `${d}/comments/{comment}/resolve`,
      auth: embed,
      body: { resolved: true },
      status: 200,
    },
    { method: 'DELETE', path: `${d}/comments/{comment}`, auth: embed, status: 200 },
    // Not a python report of this dashboard's published version (the sandbox's 403, as for the other refusals).
    {
      method: 'POST',
      path: `${d}/python-run`,
      auth: embed,
      body: { reportId: 1, reportVersionId: 2, sqlQuery: 'SELECT 1' },
      status: 403,
    },
  ];
}
