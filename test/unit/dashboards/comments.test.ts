// A published dashboard's embedding and comments (comments/embedDashboardCommands.ts), loaded in
// plain Node with the dashboards' stand-in for `vscode` and a ScriptedPrompter: Toggle Signed
// Embedding (the modal before turning it off, the exact PATCH, the state the server answered said),
// the comments session (tenant and user pickers, the session generated for exactly that user and
// dashboard, its id and token kept out of logs, the token the comments are read with), and the
// comments themselves (the thread list, a new comment with mentions, a reply, resolve/re-open, edit
// and delete of one's own; a declined delete or an empty comment sends nothing). The client records
// every call, the embed user's client apart.
import assert from 'node:assert/strict';
import type * as CommandsModule from '../../../src/dashboards/comments/embedDashboardCommands';
import type * as RenderModule from '../../../src/explorer/nodes/render';
import type * as LogModule from '../../../src/log';
import type * as PrompterModule from '../../../src/ui/prompter';
import { useDashStandIn } from './dashStandIn';

type Call = [string, ...unknown[]];

const PUBLIC = 'pub-rev-1';
const REVENUE = {
  id: 1001,
  name: 'Revenue workbook',
  publishedDashboard: { publicId: PUBLIC, title: 'Revenue', allowEmbed: true },
};
const COSTS = {
  id: 1002,
  name: 'Costs workbook',
  publishedDashboard: { publicId: 'pub-costs', allowEmbed: false },
};
const DRAFT_ONLY = { id: 1003, name: 'Draft only' };

interface Comment {
  id: number;
  body: string;
  createdAt: string;
  isOwn: boolean;
  userId?: number | null;
  editedAt?: string | null;
  removedAt?: string | null;
}
const comment = (id: number, body: string, o: Partial<Comment> = {}): Comment => ({
  id,
  body,
  createdAt: '2026-11-20T09:00:00Z',
  isOwn: false,
  userId: 41,
  ...o,
});

interface World {
  workbooks?: unknown[];
  tenants?: { name: string; displayName?: string }[];
  users?: { id: number; externalId?: string; username?: string; email?: string }[];
  mentionable?: { id: number; username: string; email?: string; firstName?: string }[];
  /** The threads listed: open ones, and with resolved ones (includeResolved). */
  open?: unknown[];
  all?: unknown[];
  answers?: (string | string[] | undefined)[];
  confirm?: boolean;
  /** What the server answers to the embedding PATCH (default: as asked). */
  serverAllow?: boolean;
  /** A comment post fails with this. */
  postFails?: Error;
}

describe('dashboards: signed embedding and the comments of a published dashboard', () => {
  const { sink, reset } = useDashStandIn();
  let mod: typeof CommandsModule;
  let render: typeof RenderModule;
  let UserCancelled: typeof LogModule.UserCancelled;
  let ScriptedPrompter: typeof PrompterModule.ScriptedPrompter;

  before(() => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    mod = require('../../../src/dashboards/comments/embedDashboardCommands') as typeof CommandsModule;
    render = require('../../../src/explorer/nodes/render') as typeof RenderModule;
    ({ UserCancelled } = require('../../../src/log') as typeof LogModule);
    ({ ScriptedPrompter } = require('../../../src/ui/prompter') as typeof PrompterModule);
    /* eslint-enable @typescript-eslint/no-require-imports */
  });

  function world(w: World = {}) {
    reset();
    const calls: Call[] = [];
    const embedCalls: Call[] = [];
    const record =
      (into: Call[], name: string, answer: (...a: never[]) => unknown) =>
      async (...args: unknown[]) => {
        into.push([name, ...args]);
        return (answer as (...a: unknown[]) => unknown)(...args);
      };
    const embed = {
      listMentionableEmbedUsers: record(embedCalls, 'listMentionableEmbedUsers', () => ({
        items: w.mentionable ?? [],
      })),
      listDashboardComments: record(embedCalls, 'listDashboardComments', (_p: string, q: object) => ({
        items: 'includeResolved' in q ? (w.all ?? w.open ?? []) : (w.open ?? []),
      })),
      createDashboardComment: record(embedCalls, 'createDashboardComment', (_p: string, b: object) => {
        if (w.postFails) throw w.postFails;
        return { ...comment(900, ''), ...b, isOwn: true };
      }),
      updateDashboardComment: record(embedCalls, 'updateDashboardComment', () => comment(901, 'x')),
      deleteDashboardComment: record(embedCalls, 'deleteDashboardComment', () => undefined),
      setDashboardCommentResolved: record(
        embedCalls,
        'setDashboardCommentResolved',
        (_p: string, _id: number, b: { resolved: boolean }) => ({
          root: comment(1, 'r'),
          replies: [],
          resolvedAt: b.resolved ? '2026-11-21T09:00:00Z' : null,
        }),
      ),
      close: record(embedCalls, 'close', () => undefined),
    };
    const client = {
      listDeployments: record(calls, 'listDeployments', () => ({ items: [{ id: 7, name: 'Staging' }] })),
      listWorkbooks: record(calls, 'listWorkbooks', () => ({
        items: w.workbooks ?? [REVENUE, COSTS, DRAFT_ONLY],
      })),
      setDashboardEmbedding: record(
        calls,
        'setDashboardEmbedding',
        (publicId: string, b: { allowEmbed: boolean }) => ({
          publicId,
          allowEmbed: w.serverAllow ?? b.allowEmbed,
        }),
      ),
      exchangeEmbedSession: record(calls, 'exchangeEmbedSession', () => ({ token: 'embed-token-ABCDEFGH' })),
      asEmbedUser: (token: string) => (calls.push(['asEmbedUser', token]), embed),
      admin: {
        listEmbedTenants: record(calls, 'admin.listEmbedTenants', () => ({
          items: w.tenants ?? [{ name: 'acme', displayName: 'Acme Corp' }, { name: 'globex' }],
        })),
        listEmbedUsers: record(calls, 'admin.listEmbedUsers', () => ({
          items: w.users ?? [
            { id: 41, externalId: 'ann-1', username: 'Ann', email: 'ann@acme.test' },
            { id: 42, externalId: 'bob-2', username: 'Bob' },
            { id: 43 },
          ],
        })),
        generateEmbedSession: record(calls, 'admin.generateEmbedSession', () => ({
          sessionId: 'session-SECRET-1',
        })),
      },
    };
    const prompter = new ScriptedPrompter(w.answers ?? [], true);
    /** Every question as asked: `pick <title> | <placeholder>`, `input <title> | value=<value>`. */
    const questions: string[] = [];
    const confirmations: string[] = [];
    (prompter as { confirm: (m: string, d: string, a: string) => Promise<boolean> }).confirm = async (
      message: string,
      detail: string,
      action: string,
    ) => {
      confirmations.push(`${message} | ${detail} | ${action}`);
      return w.confirm !== false;
    };
    /** The rows of each pick by title (kept even when the pick is dismissed). */
    const rows = new Map<string, { label: string; description?: string; detail?: string }[]>();
    const pick = prompter.pick.bind(prompter);
    prompter.pick = async (title, choices, o) => {
      questions.push(`pick ${title} | ${typeof o === 'string' ? o : (o?.placeHolder ?? '')}`);
      rows.set(
        title,
        choices.map(({ label, description, detail }) => ({ label, description, detail })),
      );
      return pick(title, choices, o);
    };
    const pickMany = prompter.pickMany.bind(prompter);
    prompter.pickMany = async (title, choices, o) => {
      questions.push(`pickMany ${title} | ${o?.placeHolder ?? ''}`);
      return pickMany(title, choices, o);
    };
    const input = prompter.input.bind(prompter);
    prompter.input = async (q) => (
      questions.push(`input ${q.title} | ${q.prompt ?? ''} | value=${q.value ?? ''}`),
      input(q)
    );
    const secrets: string[] = [];
    const writes: string[] = [];
    const refreshed: unknown[] = [];
    const ctx = {
      targets: { client: async () => client, prompter: () => prompter, selection: () => undefined },
      confirmWrite: async (what: string) => void writes.push(what),
      provider: { refresh: (n?: unknown) => void refreshed.push(n ?? 'all') },
      services: { profiles: { rememberSecret: (s: string) => void secrets.push(s) } },
    };
    const commands = new mod.EmbedDashboardCommands(ctx as never);
    const sent = () => calls.filter((c) => c[0] === 'setDashboardEmbedding');
    const embedWrites = () => embedCalls.filter((c) => !/^(list|close)/.test(c[0]));
    return {
      commands,
      calls,
      embedCalls,
      prompter,
      rows,
      questions,
      confirmations,
      secrets,
      writes,
      refreshed,
      sent,
      embedWrites,
    };
  }

  describe('Toggle Signed Embedding', () => {
    const OFF_MODAL =
      'Turn signed embedding off for "Revenue"? | Applications embedding it with signed embed sessions get "not allowed" (403) until it is turned on again. Creator-mode sessions and dashboards shared with all embed users are not affected. | Turn Off';
    const cases: {
      name: string;
      arg: Record<string, unknown>;
      w?: World;
      modal: string[];
      sent: Call[];
      told: string[];
      result?: { publicId: string; allowEmbed: boolean };
      write?: string;
    }[] = [
      {
        name: 'on → off asks in a modal first, then sends allowEmbed false and says off',
        arg: { deploymentId: 7, workbookId: 1001 },
        modal: [OFF_MODAL],
        sent: [['setDashboardEmbedding', PUBLIC, { allowEmbed: false }]],
        told: ['Signed embedding is off for "Revenue".'],
        result: { publicId: PUBLIC, allowEmbed: false },
        write: 'Turn signed embedding off for "Revenue"',
      },
      {
        name: 'off → on sends allowEmbed true without a modal; the title falls back to the workbook name',
        arg: { deploymentId: 7, publicId: 'pub-costs' },
        modal: [],
        sent: [['setDashboardEmbedding', 'pub-costs', { allowEmbed: true }]],
        told: ['Signed embedding is on for "Costs workbook".'],
        result: { publicId: 'pub-costs', allowEmbed: true },
        write: 'Turn signed embedding on for "Costs workbook"',
      },
      {
        name: '{allowEmbed: true} on a dashboard already on sends true (no modal)',
        arg: { deploymentId: 7, workbookId: 1001, allowEmbed: true },
        modal: [],
        sent: [['setDashboardEmbedding', PUBLIC, { allowEmbed: true }]],
        told: ['Signed embedding is on for "Revenue".'],
        result: { publicId: PUBLIC, allowEmbed: true },
        write: 'Turn signed embedding on for "Revenue"',
      },
      {
        name: 'the message says the state the server answered, not the one asked',
        arg: { deploymentId: 7, workbookId: 1002 },
        w: { serverAllow: false },
        modal: [],
        sent: [['setDashboardEmbedding', 'pub-costs', { allowEmbed: true }]],
        told: ['Signed embedding is off for "Costs workbook".'],
        result: { publicId: 'pub-costs', allowEmbed: false },
        write: 'Turn signed embedding on for "Costs workbook"',
      },
    ];
    for (const c of cases)
      it(c.name, async () => {
        const s = world(c.w);
        const result = await s.commands.toggleSignedEmbedding(c.arg);
        assert.deepEqual(s.confirmations, c.modal);
        assert.deepEqual(s.sent(), c.sent);
        assert.deepEqual(result, c.result);
        assert.deepEqual(sink.info, c.told);
        assert.deepEqual(s.writes, [c.write]);
        assert.deepEqual(s.refreshed, ['all'], 'the tree shows the new state');
        assert.deepEqual(
          s.calls.filter((x) => x[0] === 'listWorkbooks'),
          [['listWorkbooks', 7, { first: 200 }]],
        );
      });

    it('declining the modal sends nothing and tells nothing', async () => {
      const s = world({ confirm: false });
      await assert.rejects(
        s.commands.toggleSignedEmbedding({ deploymentId: 7, workbookId: 1001 }),
        UserCancelled,
      );
      assert.deepEqual(s.confirmations, [OFF_MODAL]);
      assert.deepEqual(s.sent(), []);
      assert.deepEqual(s.writes, []);
      assert.deepEqual(sink.info, []);
    });

    it('without a workbook: a pick of the published dashboards only, with their embedding state', async () => {
      const s = world({ answers: ['Costs workbook'] });
      await s.commands.toggleSignedEmbedding({ deploymentId: 7 });
      assert.deepEqual(s.questions, ['pick Published dashboard | Pick a published dashboard']);
      assert.deepEqual(s.rows.get('Published dashboard'), [
        { label: 'Revenue', description: 'signed embedding on', detail: undefined },
        { label: 'Costs workbook', description: 'signed embedding off', detail: undefined },
      ]);
      assert.deepEqual(s.sent(), [['setDashboardEmbedding', 'pub-costs', { allowEmbed: true }]]);
    });

    const refusals: { name: string; arg: Record<string, unknown>; workbooks?: unknown[]; message: string }[] =
      [
        {
          name: 'a workbook without a published dashboard',
          arg: { deploymentId: 7, workbookId: 1003 },
          message: 'That workbook has no published dashboard: publish it first.',
        },
        {
          name: 'an unknown public id',
          arg: { deploymentId: 7, publicId: 'pub-none' },
          message: 'That workbook has no published dashboard: publish it first.',
        },
        {
          name: 'a deployment with no published dashboard (no pick offered)',
          arg: { deploymentId: 7 },
          workbooks: [DRAFT_ONLY, { id: 5, publishedDashboard: { title: 'no id' } }],
          message: 'This deployment has no published dashboard: publish one first.',
        },
      ];
    for (const r of refusals)
      it(`refused: ${r.name}; nothing sent`, async () => {
        const s = world({ workbooks: r.workbooks });
        await assert.rejects(s.commands.toggleSignedEmbedding(r.arg), { message: r.message });
        assert.deepEqual(s.questions, []);
        assert.deepEqual(s.sent(), []);
      });
  });

  describe('the comments session', () => {
    it('tenant and user picked: the session generated for that user and dashboard, its id and token kept secret', async () => {
      const s = world({ answers: ['acme', 'Ann'], mentionable: [{ id: 50, username: 'Cy' }] });
      const session = await s.commands.startSession({ deploymentId: 7, workbookId: 1001 });
      assert.deepEqual(s.questions, [
        'pick Comment as a user of embed tenant | Comments live inside one embed tenant',
        'pick Comment as embed user | Comments are posted as this user',
      ]);
      assert.deepEqual(s.rows.get('Comment as a user of embed tenant'), [
        { label: 'acme', description: 'Acme Corp', detail: undefined },
        { label: 'globex', description: undefined, detail: undefined },
      ]);
      assert.deepEqual(
        s.rows.get('Comment as embed user'),
        [
          { label: 'Ann', description: 'ann@acme.test', detail: undefined },
          { label: 'Bob', description: undefined, detail: undefined },
        ],
        'users without an external id cannot be acted as',
      );
      assert.deepEqual(s.calls, [
        ['listWorkbooks', 7, { first: 200 }],
        ['admin.listEmbedTenants', { first: 200 }],
        ['admin.listEmbedUsers', 'acme', { first: 200 }],
        [
          'admin.generateEmbedSession',
          { deploymentId: 7, externalId: 'ann-1', embedTenantName: 'acme', publicDashboardId: PUBLIC },
        ],
        ['exchangeEmbedSession', { sessionId: 'session-SECRET-1' }],
        ['asEmbedUser', 'embed-token-ABCDEFGH'],
      ]);
      assert.deepEqual(s.secrets, ['session-SECRET-1', 'embed-token-ABCDEFGH']);
      assert.deepEqual(s.embedCalls, [['listMentionableEmbedUsers', PUBLIC, { first: 200 }]]);
      assert.equal(session.tenant, 'acme');
      assert.equal(session.user, 'Ann');
      assert.equal(session.dashboard.publicId, PUBLIC);
      assert.deepEqual(
        [...session.names],
        [
          [41, 'Ann'],
          [42, 'Bob'],
          [43, '#43'],
          [50, 'Cy'],
        ],
      );
    });

    it('tenant and user given: no pickers; a user without a name is named by their external id', async () => {
      const s = world({ users: [{ id: 44, externalId: 'x-9', email: 'x@acme.test' }] });
      const session = await s.commands.startSession({
        deploymentId: 7,
        workbookId: 1001,
        tenant: 'globex',
        user: 'x-9',
      });
      assert.deepEqual(s.questions, []);
      assert.equal(session.user, 'x-9');
      assert.equal(session.names.get(44), 'x@acme.test');
      assert.deepEqual(
        s.calls.find((c) => c[0] === 'admin.generateEmbedSession'),
        [
          'admin.generateEmbedSession',
          { deploymentId: 7, externalId: 'x-9', embedTenantName: 'globex', publicDashboardId: PUBLIC },
        ],
      );
    });

    const refused: { name: string; w: World; message: string }[] = [
      {
        name: 'no embed tenants',
        w: { tenants: [] },
        message: 'There are no embed tenants: comments belong to an embed tenant’s users.',
      },
      {
        name: 'a tenant without users',
        w: { users: [], answers: ['globex'] },
        message: 'Embed tenant "globex" has no users to comment as.',
      },
    ];
    for (const r of refused)
      it(`refused: ${r.name}; no session generated`, async () => {
        const s = world(r.w);
        await assert.rejects(s.commands.startSession({ deploymentId: 7, workbookId: 1001 }), {
          message: r.message,
        });
        assert.equal(s.calls.filter((c) => /Session/.test(c[0])).length, 0);
        assert.deepEqual(s.secrets, []);
      });
  });

  describe('the comments', () => {
    const ARGS = { deploymentId: 7, workbookId: 1001, tenant: 'acme', user: 'ann-1' };
    const mine = (id: number, body: string, o: Partial<Comment> = {}) =>
      comment(id, body, { isOwn: true, ...o });
    const openThread = {
      root: comment(10, 'Why did revenue dip?\nSee March'),
      replies: [mine(11, 'Data was late')],
      resolvedAt: null,
    };
    const resolvedThread = {
      root: mine(20, 'Typo in the title'),
      replies: [comment(21, 'Fixed', { removedAt: '2026-11-21T10:00:00Z' })],
      resolvedAt: '2026-11-22T10:00:00Z',
    };

    it('the thread list: its title, rows and placeholder; Escape ends the session and returns what was shown', async () => {
      const s = world({ open: [openThread], answers: [undefined] });
      const shown = await s.commands.dashboardComments(ARGS);
      assert.deepEqual(shown, [openThread]);
      assert.deepEqual(s.questions, [
        'pick Comments on "Revenue" as Ann (acme) | Pick a thread to read or act on it',
      ]);
      const at = render.when('2026-11-20T09:00:00Z');
      assert.deepEqual(s.rows.get('Comments on "Revenue" as Ann (acme)'), [
        { label: '$(add) New comment…', description: undefined, detail: undefined },
        { label: '$(eye) Show resolved threads', description: undefined, detail: undefined },
        {
          label: '$(comment) Why did revenue dip? See March',
          description: `Ann · ${at} · 1 reply · open`,
          detail: 'Why did revenue dip? See March',
        },
      ]);
      assert.deepEqual(s.embedCalls.slice(1), [['listDashboardComments', PUBLIC, { first: 200 }], ['close']]);
      assert.deepEqual(s.embedWrites(), []);
    });

    it('Show resolved threads lists them (includeResolved), then offers Hide; no comments says start one', async () => {
      const s = world({ open: [], all: [resolvedThread], answers: ['resolved', 'resolved', undefined] });
      await s.commands.dashboardComments(ARGS);
      assert.deepEqual(
        s.embedCalls.filter((c) => c[0] === 'listDashboardComments').map((c) => c[2]),
        [{ first: 200 }, { first: 200, includeResolved: true }, { first: 200 }],
      );
      const title = 'pick Comments on "Revenue" as Ann (acme) | ';
      assert.deepEqual(s.questions, [
        `${title}No comments yet: start a thread`,
        `${title}Pick a thread to read or act on it`,
        `${title}No comments yet: start a thread`,
      ]);
      // The rows of the last pick are kept: ask again with the resolved ones shown.
      const t = world({ all: [resolvedThread], answers: ['resolved', undefined] });
      await t.commands.dashboardComments(ARGS);
      const rows = t.rows.get('Comments on "Revenue" as Ann (acme)')!;
      assert.equal(rows[1]!.label, '$(eye-closed) Hide resolved threads');
      assert.equal(rows[2]!.label, '$(pass) Typo in the title');
      assert.equal(
        rows[2]!.description,
        `you · ${render.when('2026-11-20T09:00:00Z')} · 0 replies · resolved ${render.when('2026-11-22T10:00:00Z')}`,
      );
    });

    it('New comment: mentions picked first, the text asked with them, exactly that body posted, "Comment posted."', async () => {
      const s = world({
        mentionable: [
          { id: 50, username: 'Cy', email: 'cy@acme.test', firstName: 'Cyril' },
          { id: 51, username: 'Di' },
        ],
        answers: ['new', ['Cy', 'Di'], '   ', '@Cy @Di please check  ', undefined],
      });
      await s.commands.dashboardComments(ARGS);
      assert.deepEqual(s.questions.slice(1, 3), [
        'pickMany New comment: mention (optional) | Pick the users to @mention, or none',
        'input New comment | The comment (up to 10000 characters). | value=@Cy @Di ',
      ]);
      assert.deepEqual(s.prompter.refusals, ['Write something: a comment cannot be empty.']);
      assert.deepEqual(s.embedWrites(), [
        ['createDashboardComment', PUBLIC, { body: '@Cy @Di please check' }],
      ]);
      assert.deepEqual(sink.info, ['Comment posted.']);
    });

    it('a comment over 10000 characters is refused with its length; no mention step without mentionable users', async () => {
      const long = 'x'.repeat(10_001);
      const s = world({ answers: ['new', long, 'x'.repeat(10_000), undefined] });
      await s.commands.dashboardComments(ARGS);
      assert.equal(s.questions.filter((q) => q.startsWith('pickMany')).length, 0);
      assert.deepEqual(s.prompter.refusals, ['A comment is at most 10000 characters (this one has 10001).']);
      assert.deepEqual(s.embedWrites(), [['createDashboardComment', PUBLIC, { body: 'x'.repeat(10_000) }]]);
    });

    it('a thread opened: its comments and the actions on it; Reply posts with the thread as parent', async () => {
      const s = world({ open: [openThread], answers: ['thread-10', 'reply', 'Thanks', undefined] });
      await s.commands.dashboardComments(ARGS);
      const at = render.when('2026-11-20T09:00:00Z');
      assert.deepEqual(
        s.rows.get('Thread: Why did revenue dip? See March'),
        [
          { label: `Ann · ${at}`, description: undefined, detail: 'Why did revenue dip? See March' },
          { label: `you · ${at}`, description: undefined, detail: 'Data was late' },
          { label: '$(reply) Reply…', description: undefined, detail: undefined },
          { label: '$(edit) Edit my comment…', description: undefined, detail: undefined },
          { label: '$(trash) Delete my comment…', description: undefined, detail: undefined },
          { label: '$(arrow-left) Back to the threads', description: undefined, detail: undefined },
        ],
        'no Resolve: the thread is not the user’s',
      );
      assert.deepEqual(s.embedWrites(), [
        ['createDashboardComment', PUBLIC, { body: 'Thanks', parentId: 10 }],
      ]);
      assert.deepEqual(sink.info, ['Reply posted.']);
    });

    const resolveCases = [
      {
        name: 'Resolve an open thread of mine',
        t: { ...openThread, root: mine(10, 'Mine') },
        label: '$(check) Resolve thread',
        resolved: true,
        told: 'Thread resolved.',
      },
      {
        name: 'Re-open a resolved thread of mine',
        t: resolvedThread,
        label: '$(issues) Re-open thread',
        resolved: false,
        told: 'Thread re-opened.',
      },
    ];
    for (const c of resolveCases)
      it(`${c.name}: the exact request and what is said`, async () => {
        const s = world({ open: [c.t], answers: [`thread-${c.t.root.id}`, 'resolve', undefined] });
        await s.commands.dashboardComments(ARGS);
        const rows = s.rows.get(`Thread: ${c.t.root.body}`)!;
        assert.ok(
          rows.some((r) => r.label === c.label),
          `offers ${c.label}`,
        );
        assert.deepEqual(s.embedWrites(), [
          ['setDashboardCommentResolved', PUBLIC, c.t.root.id, { resolved: c.resolved }],
        ]);
        assert.deepEqual(sink.info, [c.told]);
      });

    it('Edit my comment: the one own comment, asked with its text (no mention step), saved with the new body', async () => {
      const s = world({
        open: [openThread],
        mentionable: [{ id: 50, username: 'Cy' }],
        answers: ['thread-10', 'edit', ' Data was late (fixed) ', undefined],
      });
      await s.commands.dashboardComments(ARGS);
      assert.ok(
        s.questions.includes(
          'input Edit comment | The comment (up to 10000 characters). | value=Data was late',
        ),
      );
      assert.equal(s.questions.filter((q) => q.startsWith('pickMany')).length, 0);
      assert.deepEqual(s.embedWrites(), [
        ['updateDashboardComment', PUBLIC, 11, { body: 'Data was late (fixed)' }],
      ]);
      assert.deepEqual(sink.info, ['Comment saved.']);
    });

    it('Delete with two own comments: which one is asked; the root warns its replies go with it', async () => {
      const t = {
        root: mine(30, 'Root of mine'),
        replies: [mine(31, 'Reply of mine'), mine(32, 'gone', { removedAt: '2026-11-21T00:00:00Z' })],
        resolvedAt: null,
      };
      const s = world({ open: [t], answers: ['thread-30', 'delete', 'comment-30', undefined] });
      await s.commands.dashboardComments(ARGS);
      assert.ok(s.questions.includes('pick Delete which comment | '));
      assert.deepEqual(
        s.rows.get('Delete which comment')!.map((r) => r.label),
        ['Root of mine', 'Reply of mine'],
        'a deleted comment is not offered',
      );
      assert.deepEqual(s.confirmations, [
        'Delete your comment "Root of mine"? | It starts the thread: its replies are deleted with it. This cannot be undone. | Delete',
      ]);
      assert.deepEqual(s.embedWrites(), [['deleteDashboardComment', PUBLIC, 30]]);
      assert.deepEqual(sink.info, ['Comment deleted.']);
    });

    it('Delete a reply, declined: the modal says it cannot be undone, nothing is deleted', async () => {
      const s = world({ open: [openThread], confirm: false, answers: ['thread-10', 'delete', undefined] });
      await s.commands.dashboardComments(ARGS);
      assert.deepEqual(s.confirmations, [
        'Delete your comment "Data was late"? | This cannot be undone. | Delete',
      ]);
      assert.deepEqual(s.embedWrites(), []);
      assert.deepEqual(sink.info, []);
    });

    it('Back returns to the list; a failing post still ends the session', async () => {
      const s = world({ open: [openThread], answers: ['thread-10', 'back', undefined] });
      await s.commands.dashboardComments(ARGS);
      assert.equal(s.embedCalls.filter((c) => c[0] === 'listDashboardComments').length, 2);
      assert.deepEqual(s.embedWrites(), []);
      const boom = new Error('Posting a comment failed: the server said 500.');
      const f = world({ answers: ['new', 'Hello', undefined], postFails: boom });
      await assert.rejects(f.commands.dashboardComments(ARGS), boom);
      assert.deepEqual(f.embedCalls.at(-1), ['close'], 'the embed session is closed even when a post fails');
      assert.deepEqual(sink.info, []);
    });
  });

  describe('comment rows (commentLine, threadRow)', () => {
    const names = new Map([[41, 'Ann <b>']]);
    const cases: { name: string; c: Comment; who: string; edited: boolean; body: string }[] = [
      { name: 'own', c: comment(1, 'hi', { isOwn: true }), who: 'you', edited: false, body: 'hi' },
      { name: 'a known user', c: comment(1, 'hi'), who: 'Ann <b>', edited: false, body: 'hi' },
      {
        name: 'an unknown user id',
        c: comment(1, 'hi', { userId: 99 }),
        who: 'embed user #99',
        edited: false,
        body: 'hi',
      },
      {
        name: 'a user id 0 is still a user',
        c: comment(1, 'hi', { userId: 0 }),
        who: 'embed user #0',
        edited: false,
        body: 'hi',
      },
      {
        name: 'no user (removed)',
        c: comment(1, 'hi', { userId: null }),
        who: 'a former user',
        edited: false,
        body: 'hi',
      },
      {
        name: 'no user id at all',
        c: comment(1, 'hi', { userId: undefined }),
        who: 'a former user',
        edited: false,
        body: 'hi',
      },
      {
        name: 'edited',
        c: comment(1, 'hi', { editedAt: '2026-11-20T10:00:00Z' }),
        who: 'Ann <b>',
        edited: true,
        body: 'hi',
      },
      {
        name: 'deleted',
        c: comment(1, 'secret text', { removedAt: '2026-11-20T10:00:00Z' }),
        who: 'Ann <b>',
        edited: false,
        body: '(deleted)',
      },
      {
        name: 'control characters made plain',
        c: comment(1, 'a\u202Eb\tc'),
        who: 'Ann <b>',
        edited: false,
        body: 'ab c',
      },
      {
        name: 'a long body cut at 500',
        c: comment(1, 'y'.repeat(600)),
        who: 'Ann <b>',
        edited: false,
        body: `${'y'.repeat(499)}…`,
      },
    ];
    for (const c of cases)
      it(`commentLine: ${c.name}`, () => {
        const l = mod.commentLine(c.c as never, names);
        assert.deepEqual(l, {
          who: c.who,
          at: `${render.when(c.c.createdAt)}${c.edited ? ' (edited)' : ''}`,
          body: c.body,
        });
      });

    it('commentLine: a date the server sent unreadable is shown as text', () => {
      assert.equal(mod.commentLine(comment(1, 'x', { createdAt: 'soon' }) as never, names).at, 'soon');
    });

    it('threadRow: replies counted without deleted ones, singular and plural; label cut at 80 on the first line', () => {
      const two = {
        root: comment(1, `${'z'.repeat(90)}\nsecond line`),
        replies: [comment(2, 'a'), comment(3, 'b'), comment(4, 'c', { removedAt: 'x' })],
        resolvedAt: null,
      };
      const row = mod.threadRow(two as never, names);
      assert.equal(row.label, `$(comment) ${'z'.repeat(80)}`);
      assert.match(row.description, / · 2 replies · open$/);
      const one = { ...two, replies: [comment(2, 'a')] };
      assert.match(mod.threadRow(one as never, names).description, / · 1 reply · open$/);
      const resolvedUnreadable = { ...two, replies: [], resolvedAt: 'someday' };
      assert.match(
        mod.threadRow(resolvedUnreadable as never, names).description,
        / · 0 replies · resolved someday$/,
      );
    });
  });
});
