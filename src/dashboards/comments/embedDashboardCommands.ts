// What an admin does with a published dashboard's embedding: turn "Signed Embedding" on or off
// (PATCH /v1/embed/dashboard/{publicId}), and read and take part in its comment threads as one of an
// embed tenant's users. Comments live in an embed tenant's partition and answer only an embed token
// (an API key gets 403), so the comments flow generates an embed session for the chosen user,
// redeems it for a token (POST /v1/embed/session/token) and acts with that token until it ends.
import * as vscode from 'vscode';
import type { PlatformClient } from '../../api';
import type {
  EmbedComment,
  EmbedCommentThread,
  EmbedUserClient,
  MentionableUser,
} from '../../api/platform/embedDashboards';
import { publishedDashboardOf } from '../../api/platform/workbookShapes';
import type { ExplorerContext } from '../../explorer/context';
import { plainText } from '../../explorer/labels';
import type { Item } from '../../explorer/loaders';
import { when } from '../../explorer/nodes/render';
import { ancestor, asArgs, asNode, resolveDeploymentId } from '../../explorer/targets';
import { UserCancelled } from '../../log';

const PICK = 200;
const MAX_COMMENT = 10_000;

export interface PublishedDashboardRef {
  deploymentId: number;
  workbookId: number;
  publicId: string;
  title: string;
  allowEmbed: boolean;
}

/** Who acts in a comments session, and the client that carries their embed token. */
export interface CommentsSession {
  dashboard: PublishedDashboardRef;
  tenant: string;
  user: string;
  embed: EmbedUserClient & { close(): Promise<void> };
  /** Names by embed user id (the comments carry ids only). */
  names: Map<number, string>;
  mentionable: MentionableUser[];
}

/** The text of one comment as shown: its author, when, and its body (as plain text, never markup). */
export function commentLine(
  c: EmbedComment,
  names: ReadonlyMap<number, string>,
): {
  who: string;
  at: string;
  body: string;
} {
  const who = c.isOwn
    ? 'you'
    : c.userId !== null && c.userId !== undefined
      ? (names.get(c.userId) ?? `embed user #${c.userId}`)
      : 'a former user';
  const at = `${when(c.createdAt) ?? plainText(c.createdAt)}${c.editedAt ? ' (edited)' : ''}`;
  const body = c.removedAt ? '(deleted)' : plainText(c.body, 500);
  return { who: plainText(who), at, body };
}

/** One thread as a row: its first line, who started it and when, replies and resolved state. */
export function threadRow(t: EmbedCommentThread, names: ReadonlyMap<number, string>) {
  const root = commentLine(t.root, names);
  const replies = t.replies.filter((r) => !r.removedAt).length;
  const state = t.resolvedAt ? `resolved ${when(t.resolvedAt) ?? ''}`.trim() : 'open';
  return {
    label: `${t.resolvedAt ? '$(pass)' : '$(comment)'} ${root.body.split('\n')[0]!.slice(0, 80)}`,
    description: `${root.who} · ${root.at} · ${replies} repl${replies === 1 ? 'y' : 'ies'} · ${state}`,
    detail: root.body,
  };
}

export class EmbedDashboardCommands {
  constructor(private readonly ctx: ExplorerContext) {}

  private get prompter() {
    return this.ctx.targets.prompter();
  }

  /** The published dashboard a command acts on: the workbook row, the arguments, else a pick. */
  async dashboardOf(arg: unknown): Promise<PublishedDashboardRef> {
    const client = await this.ctx.targets.client();
    const node = asNode(arg);
    const row = node && ancestor(node, 'workbook');
    const a = asArgs<{ publicId: string; workbookId: number }>(arg);
    const deploymentId = row?.deploymentId ?? (await resolveDeploymentId(this.ctx.targets, arg));
    const workbooks = (await client.listWorkbooks(deploymentId, { first: PICK })).items as Item[];
    const published = workbooks.flatMap((w) => {
      const d = publishedDashboardOf(w);
      const publicId = typeof d?.['publicId'] === 'string' ? d['publicId'] : undefined;
      if (!publicId) return [];
      return [
        {
          deploymentId,
          workbookId: Number(w['id']),
          publicId,
          title: plainText(d?.['title'] ?? w['name']),
          allowEmbed: d?.['allowEmbed'] === true,
        },
      ];
    });
    const wanted = row?.data?.['id'] ?? a.workbookId;
    const found =
      published.find((p) => (a.publicId ? p.publicId === a.publicId : p.workbookId === Number(wanted))) ??
      (wanted !== undefined || a.publicId
        ? undefined
        : published.length === 0
          ? undefined
          : await this.prompter.pick(
              'Published dashboard',
              published.map((p) => ({
                label: p.title,
                description: `signed embedding ${p.allowEmbed ? 'on' : 'off'}`,
                value: p,
              })),
              'Pick a published dashboard',
            ));
    if (!found)
      throw new Error(
        published.length === 0
          ? 'This deployment has no published dashboard: publish one first.'
          : 'That workbook has no published dashboard: publish it first.',
      );
    return found;
  }

  /**
   * Turns "Allow signed embedding" on or off (the other way from now, or `{allowEmbed}`), after a
   * modal when turning it off (embedded views stop loading), and says the state the server answered.
   */
  async toggleSignedEmbedding(arg?: unknown): Promise<{ publicId: string; allowEmbed: boolean }> {
    const d = await this.dashboardOf(arg);
    const given = asArgs<{ allowEmbed: boolean }>(arg).allowEmbed;
    const allowEmbed = given ?? !d.allowEmbed;
    if (!allowEmbed) {
      const ok = await this.prompter.confirm(
        `Turn signed embedding off for "${d.title}"?`,
        'Applications embedding it with signed embed sessions get "not allowed" (403) until it is turned on again. Creator-mode sessions and dashboards shared with all embed users are not affected.',
        'Turn Off',
      );
      if (!ok) throw new UserCancelled();
    }
    await this.ctx.confirmWrite(`Turn signed embedding ${allowEmbed ? 'on' : 'off'} for "${d.title}"`);
    const client = await this.ctx.targets.client();
    const saved = await client.setDashboardEmbedding(d.publicId, { allowEmbed });
    this.ctx.provider.refresh();
    void vscode.window.showInformationMessage(
      `Signed embedding is ${saved.allowEmbed ? 'on' : 'off'} for "${d.title}".`,
    );
    return { publicId: saved.publicId, allowEmbed: saved.allowEmbed };
  }

  /** Starts acting as one embed user of a tenant: a session generated, redeemed for a token. */
  async startSession(arg: unknown): Promise<CommentsSession> {
    const a = asArgs<{ tenant: string; user: string }>(arg);
    const dashboard = await this.dashboardOf(arg);
    const client: PlatformClient = await this.ctx.targets.client();
    const tenants = (await client.admin.listEmbedTenants({ first: PICK })).items;
    if (tenants.length === 0)
      throw new Error('There are no embed tenants: comments belong to an embed tenant’s users.');
    const tenant =
      a.tenant ??
      (await this.prompter.pick(
        'Comment as a user of embed tenant',
        tenants.map((t) => ({
          label: plainText(t.name),
          ...(t.displayName ? { description: plainText(t.displayName) } : {}),
          value: t.name,
        })),
        'Comments live inside one embed tenant',
      ));
    const users = (await client.admin.listEmbedUsers(tenant, { first: PICK })).items;
    const externalId =
      a.user ??
      (users.length === 0
        ? undefined
        : await this.prompter.pick(
            'Comment as embed user',
            users.flatMap((u) =>
              u.externalId
                ? [
                    {
                      label: plainText(u.username ?? u.externalId),
                      ...(u.email ? { description: plainText(u.email) } : {}),
                      value: u.externalId,
                    },
                  ]
                : [],
            ),
            'Comments are posted as this user',
          ));
    if (!externalId) throw new Error(`Embed tenant "${plainText(tenant)}" has no users to comment as.`);
    const { sessionId } = await client.admin.generateEmbedSession({
      deploymentId: dashboard.deploymentId,
      externalId,
      embedTenantName: tenant,
      publicDashboardId: dashboard.publicId,
    });
    this.ctx.services.profiles.rememberSecret(sessionId);
    const { token } = await client.exchangeEmbedSession({ sessionId });
    // The token is a credential: redacted from every log line.
    this.ctx.services.profiles.rememberSecret(token);
    const embed = client.asEmbedUser(token);
    const mentionable = (await embed.listMentionableEmbedUsers(dashboard.publicId, { first: PICK })).items;
    const names = new Map<number, string>();
    for (const u of users) names.set(u.id, u.username ?? u.email ?? u.externalId ?? `#${u.id}`);
    for (const u of mentionable) names.set(u.id, u.username);
    const user = plainText(users.find((u) => u.externalId === externalId)?.username ?? externalId);
    return { dashboard, tenant, user, embed, names, mentionable };
  }

  /**
   * The comments of a published dashboard as one embed user: threads newest first (open ones, or
   * all), each opened to read its comments and reply, edit or delete one's own, resolve or re-open.
   * Returns the threads last shown when the user leaves (Escape).
   */
  async dashboardComments(arg?: unknown): Promise<EmbedCommentThread[]> {
    const s = await this.startSession(arg);
    let shown: EmbedCommentThread[];
    try {
      let resolved = false;
      type Row = { kind: 'new' } | { kind: 'resolved' } | { kind: 'thread'; t: EmbedCommentThread };
      for (;;) {
        shown = (
          await s.embed.listDashboardComments(s.dashboard.publicId, {
            first: PICK,
            ...(resolved ? { includeResolved: true } : {}),
          })
        ).items;
        let row: Row;
        try {
          row = await this.prompter.pick<Row>(
            `Comments on "${s.dashboard.title}" as ${s.user} (${plainText(s.tenant)})`,
            [
              { label: '$(add) New comment…', id: 'new', value: { kind: 'new' } },
              {
                label: resolved ? '$(eye-closed) Hide resolved threads' : '$(eye) Show resolved threads',
                id: 'resolved',
                value: { kind: 'resolved' },
              },
              ...shown.map((t) => ({
                ...threadRow(t, s.names),
                id: `thread-${t.root.id}`,
                value: { kind: 'thread' as const, t },
              })),
            ],
            shown.length === 0 ? 'No comments yet: start a thread' : 'Pick a thread to read or act on it',
          );
        } catch (e) {
          if (e instanceof UserCancelled) return shown;
          throw e;
        }
        if (row.kind === 'resolved') resolved = !resolved;
        else if (row.kind === 'new') await this.post(s);
        else await this.openThread(s, row.t);
      }
    } finally {
      await s.embed.close();
    }
  }

  /** A comment's text, with the users it mentions picked first (by name, optional). */
  private async compose(s: CommentsSession, title: string, value = ''): Promise<string> {
    let prefix = '';
    if (!value && s.mentionable.length > 0) {
      const picked = await this.prompter.pickMany(
        `${title}: mention (optional)`,
        s.mentionable.map((u) => ({
          label: plainText(u.username),
          ...(u.email ? { description: plainText(u.email) } : {}),
          ...(u.firstName ? { detail: plainText(u.firstName) } : {}),
          value: u.username,
        })),
        { placeHolder: 'Pick the users to @mention, or none' },
      );
      prefix = picked.map((n) => `@${n} `).join('');
    }
    const text = await this.prompter.input({
      title,
      prompt: 'The comment (up to 10000 characters).',
      value: value || prefix,
      validate: (v) =>
        v.trim() === ''
          ? 'Write something: a comment cannot be empty.'
          : v.length > MAX_COMMENT
            ? `A comment is at most ${MAX_COMMENT} characters (this one has ${v.length}).`
            : undefined,
    });
    return text.trim();
  }

  private async post(s: CommentsSession, parent?: EmbedCommentThread): Promise<EmbedComment> {
    const body = await this.compose(s, parent ? 'Reply' : 'New comment');
    const made = await s.embed.createDashboardComment(s.dashboard.publicId, {
      body,
      ...(parent ? { parentId: parent.root.id } : {}),
    });
    void vscode.window.showInformationMessage(parent ? 'Reply posted.' : 'Comment posted.');
    return made;
  }

  private async openThread(s: CommentsSession, t: EmbedCommentThread): Promise<void> {
    const all = [t.root, ...t.replies];
    const own = all.filter((c) => c.isOwn && !c.removedAt);
    type Act = 'reply' | 'resolve' | 'edit' | 'delete' | 'back';
    const act = await this.prompter.pick<Act>(
      `Thread: ${threadRow(t, s.names).label.replace(/^\$\([^)]*\) /, '')}`,
      [
        ...all.map((c) => {
          const l = commentLine(c, s.names);
          return { label: `${l.who} · ${l.at}`, detail: l.body, id: `comment-${c.id}`, value: 'back' as Act };
        }),
        { label: '$(reply) Reply…', id: 'reply', value: 'reply' },
        ...(t.root.isOwn
          ? [
              {
                label: t.resolvedAt ? '$(issues) Re-open thread' : '$(check) Resolve thread',
                id: 'resolve',
                value: 'resolve' as Act,
              },
            ]
          : []),
        ...(own.length > 0
          ? [
              { label: '$(edit) Edit my comment…', id: 'edit', value: 'edit' as Act },
              { label: '$(trash) Delete my comment…', id: 'delete', value: 'delete' as Act },
            ]
          : []),
        { label: '$(arrow-left) Back to the threads', id: 'back', value: 'back' },
      ],
      'Reply, or act on the thread',
    );
    if (act === 'back') return;
    if (act === 'reply') return void (await this.post(s, t));
    if (act === 'resolve') {
      const after = await s.embed.setDashboardCommentResolved(s.dashboard.publicId, t.root.id, {
        resolved: !t.resolvedAt,
      });
      void vscode.window.showInformationMessage(after.resolvedAt ? 'Thread resolved.' : 'Thread re-opened.');
      return;
    }
    const target =
      own.length === 1
        ? own[0]!
        : await this.prompter.pick(
            act === 'edit' ? 'Edit which comment' : 'Delete which comment',
            own.map((c) => {
              const l = commentLine(c, s.names);
              return { label: l.body.slice(0, 80), description: l.at, id: `comment-${c.id}`, value: c };
            }),
          );
    if (act === 'edit') {
      const body = await this.compose(s, 'Edit comment', target.body);
      await s.embed.updateDashboardComment(s.dashboard.publicId, target.id, { body });
      void vscode.window.showInformationMessage('Comment saved.');
      return;
    }
    const excerpt = commentLine(target, s.names).body.slice(0, 80);
    const ok = await this.prompter.confirm(
      `Delete your comment "${excerpt}"?`,
      target.id === t.root.id
        ? 'It starts the thread: its replies are deleted with it. This cannot be undone.'
        : 'This cannot be undone.',
      'Delete',
    );
    if (!ok) return;
    await s.embed.deleteDashboardComment(s.dashboard.publicId, target.id);
    void vscode.window.showInformationMessage('Comment deleted.');
  }
}
