// Embed tenant groups and users, as a user drives them: the commands (EmbedGroupCommands and
// EmbedUserProvisioning, in plain
// Node with a stand-in for `vscode`) with scripted answers, through a recording proxy in front of
// the sandbox, so each write's exact request, the sandbox's resulting state and what the user is
// told are checked; the proxy can also answer a write itself (a refusal, a 500) to check what the
// user is told when a write is refused or its outcome is unknown. Plus the file planning of bulk
// provisioning (CSV and JSON, bad entries named and left out, batches of 100).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiError, PlatformClient } from '../../../src/api';
import type * as CommandsModule from '../../../src/admin/embedGroupCommands';
import type * as ProvisioningModule from '../../../src/admin/embedUserProvisioning';
import type * as PrompterModule from '../../../src/ui/prompter';
import {
  addAnswer,
  batches,
  emptyReport,
  planProvisioning,
  reportSummary,
} from '../../../src/admin/embedProvisionFile';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { rejection, sendJson, startServer, type TestServer } from '../api/helpers';
import { forgetVscodeDependents } from '../vscodeStandIn';

const STUB_SOURCE = `
const cls = () => class { constructor(...a) { this.args = a; } };
const ns = (extra) => new Proxy(extra, { get: (t, k) => (k in t ? t[k] : cls()) });
const told = (kind) => (m) => { globalThis.__dpEmbedTold.push(kind + ': ' + m); };
module.exports = ns({
  window: ns({
    showInformationMessage: told('info'),
    showWarningMessage: told('warning'),
    withProgress: async (_o, fn) => fn({ report: () => undefined }, { isCancellationRequested: false }),
  }),
  commands: ns({ executeCommand: async () => undefined }),
  ProgressLocation: { Notification: 15 },
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
});`;

type Json = Record<string, unknown>;

describe('admin: embed tenant groups, members and provisioning', function () {
  this.timeout(60_000);
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;
  let dir: string;
  let EmbedGroupCommands: typeof CommandsModule.EmbedGroupCommands;
  let EmbedUserProvisioning: typeof ProvisioningModule.EmbedUserProvisioning;
  let ScriptedPrompter: typeof PrompterModule.ScriptedPrompter;
  const told: string[] = [];
  let sb: SandboxHandle;
  let proxy: TestServer;
  /** Answers a request instead of the sandbox (status and body), when it returns one. */
  let answer: ((method: string, url: string) => { status: number; body?: unknown } | undefined) | undefined;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-embed-groups-test-'));
    const file = path.join(dir, 'vscode.js');
    fs.writeFileSync(file, STUB_SOURCE);
    (globalThis as { __dpEmbedTold?: string[] }).__dpEmbedTold = told;
    mod._resolveFilename = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? file : resolve.call(this, request, ...rest);
    };
    forgetVscodeDependents();
    /* eslint-disable @typescript-eslint/no-require-imports */
    ({ EmbedGroupCommands } = require('../../../src/admin/embedGroupCommands') as typeof CommandsModule);
    ({ EmbedUserProvisioning } =
      require('../../../src/admin/embedUserProvisioning') as typeof ProvisioningModule);
    ({ ScriptedPrompter } = require('../../../src/ui/prompter') as typeof PrompterModule);
    /* eslint-enable @typescript-eslint/no-require-imports */
    sb = await startSandbox({ rows: 50 });
    const origin = new URL(sb.urls.platform).origin;
    proxy = await startServer(async (req: http.IncomingMessage, res, body) => {
      const own = answer?.(req.method ?? '', req.url ?? '');
      if (own) {
        if (own.status === 204) return void res.writeHead(204).end();
        return sendJson(res, own.status, own.body ?? {});
      }
      const r = await fetch(`${origin}${req.url}`, {
        method: req.method,
        headers: {
          authorization: String(req.headers.authorization),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body } : {}),
      });
      const text = await r.text();
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    });
  });

  after(async () => {
    mod._resolveFilename = resolve;
    await proxy?.close();
    await sb?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => {
    answer = undefined;
    told.length = 0;
    proxy.requests.length = 0;
  });

  /** The commands with scripted answers; `confirm` answers every modal. */
  function commands(answers: unknown[], confirm = true) {
    const prompter = new ScriptedPrompter(answers as never[], confirm);
    const shown: { key: string; value: unknown }[] = [];
    const client = new PlatformClient({
      baseUrl: `${proxy.url}${new URL(sb.urls.platform).pathname}`,
      token: async () => sb.tokens.admin,
      retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 2 },
    });
    const deps = {
      services: { profiles: { active: () => ({ profile: { name: 'Sandbox' } }) } },
      provider: { roots: { admin: { embedTenants: { id: 'admin/embed' } } }, refresh: () => undefined },
      json: { show: async (key: string, _t: string, value: unknown) => void shown.push({ key, value }) },
      targets: { client: async () => client, prompter: () => prompter, selection: () => undefined },
      confirmWrite: async () => undefined,
    };
    const ctx = deps as unknown as ConstructorParameters<typeof EmbedGroupCommands>[0];
    return {
      cmds: new EmbedGroupCommands(ctx),
      provisioning: new EmbedUserProvisioning(ctx),
      prompter,
      shown,
    };
  }
  const writes = () =>
    proxy.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.url} ${r.body}`.trim());
  const acme = () =>
    sb.state.admin!.embedTenants['acme'] as unknown as Json as {
      groups: { id: number; name: string; description: string | null; members: number[] }[];
      users: { id: number; externalId: string | null; email: string | null; firstName: string | null }[];
    };

  it('Create Embed Group: one form refuses a reserved or taken name, then sends exactly the name and description', async () => {
    const { cmds, prompter } = commands([
      'name',
      'system:all',
      'VIEWERS',
      'analysts',
      'description',
      'Explore only',
      'submit',
    ]);
    await cmds.createGroup({ tenant: 'acme' });
    assert.deepEqual(prompter.refusals, [
      'Names starting with "system:" are reserved.',
      'acme already has a group named "VIEWERS": pick another name.',
    ]);
    assert.deepEqual(writes(), [
      'POST /api/v1/embed-tenants/acme/groups {"name":"analysts","description":"Explore only"}',
    ]);
    const g = acme().groups.find((x) => x.name === 'analysts');
    assert.equal(g?.description, 'Explore only');
    assert.deepEqual(told, ['info: Embed group "analysts" created in acme.']);
  });

  it('Edit Embed Group Description: sends the description only and says it was saved', async () => {
    const { cmds, prompter } = commands(['Read-only dashboards']);
    await cmds.editGroup({ tenant: 'acme', group: 'viewers' });
    assert.match(prompter.asked[0] ?? '', /Edit Embed Group "viewers"/);
    assert.deepEqual(writes(), [
      'PATCH /api/v1/embed-tenants/acme/groups/11 {"description":"Read-only dashboards"}',
    ]);
    assert.equal(acme().groups.find((g) => g.id === 11)?.description, 'Read-only dashboards');
    assert.deepEqual(told, ['info: Description of "viewers" saved.']);
  });

  it('Add Members: offers only non-members by name, sends their embed user ids, says how many were added', async () => {
    const { cmds, prompter } = commands([['acme-ext-3']]);
    const r = await cmds.addMembers({ tenant: 'acme', group: 'viewers' });
    assert.deepEqual(prompter.offered.get('Add Members to "viewers"'), ['Acme user 3']);
    assert.deepEqual(writes(), [
      'POST /api/v1/embed-tenants/acme/groups/11/users {"members":[{"embedUserId":103}]}',
    ]);
    assert.deepEqual(r, { added: 1, unchanged: 0 });
    assert.ok(
      acme()
        .groups.find((g) => g.id === 11)
        ?.members.includes(103),
    );
    assert.deepEqual(told, ['info: Added 1 member to "viewers".']);
  });

  it('Remove from Embed Group: a modal names the member; declining sends nothing, confirming removes only the membership', async () => {
    const declined = commands([], false);
    await assert.rejects(
      declined.cmds.removeMembers({ tenant: 'acme', group: 'viewers', externalIds: ['acme-ext-3'] }),
      /cancel/i,
    );
    assert.match(
      declined.prompter.asked.at(-1) ?? '',
      /^Remove Acme user 3 from the embed group "viewers"\?$/,
    );
    assert.deepEqual(writes(), []);
    const { cmds } = commands([]);
    await cmds.removeMembers({ tenant: 'acme', group: 'viewers', externalIds: ['acme-ext-3'] });
    assert.deepEqual(writes(), [
      'DELETE /api/v1/embed-tenants/acme/groups/11/users {"members":[{"embedUserId":103}]}',
    ]);
    assert.ok(
      !acme()
        .groups.find((g) => g.id === 11)
        ?.members.includes(103),
    );
    assert.ok(
      acme().users.some((u) => u.id === 103),
      'the user stays in the tenant',
    );
    assert.deepEqual(told, ['info: Acme user 3 removed from "viewers".']);
  });

  it('Delete Embed Group: the modal names the group and its members, which are removed before the delete', async () => {
    const { cmds, prompter } = commands([]);
    const before = acme().groups.find((g) => g.name === 'creators')!;
    await cmds.deleteGroup({ tenant: 'acme', group: 'creators' });
    assert.equal(prompter.asked.at(-1), 'Delete the embed group "creators" of acme?');
    assert.deepEqual(writes(), [
      `DELETE /api/v1/embed-tenants/acme/groups/${before.id}/users {"members":[{"embedUserId":103}]}`,
      `DELETE /api/v1/embed-tenants/acme/groups/${before.id}`,
    ]);
    assert.ok(!acme().groups.some((g) => g.name === 'creators'));
    assert.deepEqual(told, ['info: Embed group "creators" deleted from acme.']);
  });

  it('Provision Embed User: one form refuses a bad e-mail in plain words, then sends the desired state', async () => {
    const { provisioning, prompter } = commands([
      'externalId',
      'CRM-9',
      'email',
      'dana@',
      'dana@acme.example',
      'displayName',
      'Dana Reyes',
      'tenantGroups',
      ['viewers'],
      'submit',
    ]);
    const u = await provisioning.provisionUser({ tenant: 'acme' });
    assert.deepEqual(prompter.refusals, ['Not an e-mail address.']);
    assert.deepEqual(writes(), [
      'POST /api/v1/embed-tenants/acme/user {"externalId":"CRM-9","email":"dana@acme.example","tenantGroups":["viewers"],"userProfile":{"displayName":"Dana Reyes"}}',
    ]);
    assert.equal(u.externalId, 'crm-9');
    const stored = acme().users.find((x) => x.externalId === 'crm-9');
    assert.equal(stored?.firstName, 'Dana Reyes');
    assert.ok(
      acme()
        .groups.find((g) => g.name === 'viewers')
        ?.members.includes(stored!.id),
    );
    assert.deepEqual(told, ['info: Embed user dana@acme.example provisioned in acme.']);
  });

  it('Provision Embed User: no submit until the required fields are filled; optional ones left empty are not sent', async () => {
    const early = commands(['submit']);
    await assert.rejects(early.provisioning.provisionUser({ tenant: 'acme' }), /No choice "submit"/);
    const { provisioning } = commands(['externalId', 'CRM-10', 'email', 'eve@acme.example', 'submit']);
    await provisioning.provisionUser({ tenant: 'acme' });
    assert.deepEqual(writes(), [
      'POST /api/v1/embed-tenants/acme/user {"externalId":"CRM-10","email":"eve@acme.example"}',
    ]);
  });

  it('Provision Embed User: an external id already in use asks before overwriting that user; declined sends nothing', async () => {
    const before = acme().users.find((x) => x.externalId === 'acme-ext-1');
    assert.ok(before, 'the seeded user');
    const declined = commands([], false);
    await rejection(() =>
      declined.provisioning.provisionUser({
        tenant: 'acme',
        externalId: 'ACME-ext-1',
        email: 'z@acme.example',
      }),
    );
    assert.match(
      declined.prompter.asked.at(-1) ?? '',
      /^Update the existing embed user "ACME-ext-1" in acme\?/,
    );
    assert.deepEqual(writes(), []);
    assert.equal(acme().users.find((x) => x.externalId === 'acme-ext-1')?.email, before.email);
    const { provisioning } = commands([]);
    await provisioning.provisionUser({ tenant: 'acme', externalId: 'acme-ext-1', email: 'z@acme.example' });
    assert.equal(acme().users.find((x) => x.externalId === 'acme-ext-1')?.email, 'z@acme.example');
    assert.deepEqual(told, ['info: Embed user z@acme.example updated in acme.']);
  });

  it('Provision Embed User: a 403 says the admin role is needed, and nothing is said to be done', async () => {
    answer = (m, url) =>
      m === 'POST' && url.endsWith('/user') ? { status: 403, body: { error: 'Forbidden' } } : undefined;
    const { provisioning } = commands([]);
    const e = await rejection(() => provisioning.provisionUser({ tenant: 'acme', externalId: 'x-1' }));
    assert.ok(e instanceof ApiError);
    assert.equal(e.kind, 'forbidden');
    assert.match(e.message, /admin role/);
    assert.deepEqual(told, []);
  });

  it('Create Embed Group: a 500 is an unknown outcome, sent once, with how to check, never "created"', async () => {
    answer = (m, url) =>
      m === 'POST' && url.endsWith('/groups') ? { status: 500, body: { error: 'boom' } } : undefined;
    const { cmds } = commands([]);
    const e = await rejection(() => cmds.createGroup({ tenant: 'acme', name: 'finance' }));
    assert.ok(e instanceof ApiError);
    assert.equal(e.kind, 'unknownOutcome');
    assert.match(e.message, /^Creating the embed group "finance": the outcome is unknown/);
    assert.equal(e.check?.hint, `Refresh the tenant's Groups to see whether "finance" was created.`);
    assert.equal(writes().length, 1, 'sent once');
    assert.deepEqual(told, []);
  });

  it('Provision Embed Users from File: bad lines are named and left out, failures per user are reported', async () => {
    const file = path.join(dir, 'users.csv');
    fs.writeFileSync(
      file,
      [
        'externalId,email,displayName,tenantGroups',
        'crm-100,ann@acme.example,"Ann, the analyst",viewers',
        'crm-101,not-an-email,Bob,',
        'crm-102,cy@acme.example,Cy,nope',
        '',
      ].join('\n'),
    );
    const { provisioning, prompter, shown } = commands([]);
    const report = await provisioning.provisionFromFile({ tenant: 'acme', file });
    assert.equal(prompter.asked[0], 'Provision 2 embed users from users.csv into acme?');
    assert.deepEqual(writes(), [
      'POST /api/v1/embed-tenants/acme/users {"users":[{"externalId":"crm-100","email":"ann@acme.example","tenantGroups":["viewers"],"userProfile":{"displayName":"Ann, the analyst"}},{"externalId":"crm-102","email":"cy@acme.example","tenantGroups":["nope"],"userProfile":{"displayName":"Cy"}}]}',
    ]);
    assert.deepEqual(
      report.succeeded.map((u) => u.externalId),
      ['crm-100'],
    );
    assert.deepEqual(
      report.failed.map((f) => [f.externalId, f.status]),
      [['crm-102', 400]],
    );
    assert.deepEqual(report.notSent, [
      { where: 'line 3', externalId: 'crm-101', reason: 'email: Not an e-mail address.' },
    ]);
    assert.equal(shown[0]?.key, 'embed-provisioning:acme');
    assert.match(
      told[0] ?? '',
      /^warning: Provisioned 1 of 2 embed users in acme\. 1 failed: crm-102 \(No group named "nope" in this tenant\.\)\. 1 not sent: line 3: email: Not an e-mail address\.$/,
    );
  });

  it('Provision Embed Users from File: 150 users go in two requests (100, then 50), a new tenant is created', async () => {
    const file = path.join(dir, 'many.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ users: Array.from({ length: 150 }, (_, i) => ({ externalId: `bulk-${i}` })) }),
    );
    const { provisioning } = commands([]);
    const report = await provisioning.provisionFromFile({ tenant: 'umbrella', file });
    const sent = proxy.requests.filter((r) => r.method === 'POST');
    assert.deepEqual(
      sent.map((r) => [r.url, (JSON.parse(r.body) as { users: unknown[] }).users.length]),
      [
        ['/api/v1/embed-tenants/umbrella/users', 100],
        ['/api/v1/embed-tenants/umbrella/users', 50],
      ],
    );
    assert.equal(report.succeeded.length, 150);
    assert.equal(sb.state.admin!.embedTenants['umbrella']?.users.length, 150);
    assert.deepEqual(told, ['info: Provisioned 150 of 150 embed users in umbrella.']);
  });

  it('Provision Embed Users from File: a failed batch stops the rest, which is said to be not sent', async () => {
    const file = path.join(dir, 'fail.json');
    fs.writeFileSync(file, JSON.stringify(Array.from({ length: 120 }, (_, i) => ({ externalId: `f-${i}` }))));
    answer = (m) => (m === 'POST' ? { status: 502, body: { error: 'bad gateway' } } : undefined);
    const { provisioning, shown } = commands([]);
    const e = (await rejection(() => provisioning.provisionFromFile({ tenant: 'acme', file }))) as Error;
    assert.equal(
      proxy.requests.filter((r) => r.method === 'POST').length,
      1,
      'the batch is sent once, the next not at all',
    );
    assert.match(
      e.message,
      /^Provisioned 0 of 120 embed users in acme\. 100 in a request that failed \(.*outcome is unknown.*\)\. 20 not sent \(an earlier request failed\)\.$/,
    );
    assert.equal((shown[0]?.value as { unknown: unknown[] }).unknown.length, 2);
  });
});

describe('admin: planning bulk embed-user provisioning from a file', () => {
  it('reads CSV with quotes, list columns split on ; or |, and names bad lines', () => {
    const plan = planProvisioning(
      'ExternalId,Email,DisplayName,TenantGroups,Groups\r\n' +
        'a-1,a@x.example,"Doe, ""Jo""",viewers;creators,Finance|Sales\r\n' +
        ',b@x.example,B,,\r\n' +
        'c-3,,,,\r\n',
      'u.csv',
    );
    assert.deepEqual(plan.users, [
      {
        externalId: 'a-1',
        email: 'a@x.example',
        userProfile: { displayName: 'Doe, "Jo"' },
        tenantGroups: ['viewers', 'creators'],
        groups: ['Finance', 'Sales'],
      },
      { externalId: 'c-3' },
    ]);
    assert.deepEqual(plan.where, ['line 2', 'line 4']);
    assert.deepEqual(plan.unsendable, [
      { where: 'line 3', reason: 'externalId: An external id is required.' },
    ]);
  });

  it('reads JSON as a list or {users}, and names entries with unknown fields', () => {
    assert.deepEqual(planProvisioning('[{"externalId":"x"}]').users, [{ externalId: 'x' }]);
    assert.deepEqual(planProvisioning('[{"externalId":"x","displayName":"X"}]').unsendable, [
      {
        where: 'entry 1',
        externalId: 'x',
        reason: 'unknown field "displayName" (in JSON: userProfile.displayName)',
      },
    ]);
    // A nested field is named by its path; a field of the wrong type says so.
    assert.deepEqual(
      planProvisioning(
        '[{"externalId":"p","userProfile":{"picture":"nope"}},{"externalId":"q","tenantGroups":"viewers"}]',
      ).unsendable.map((u) => u.reason),
      ['userProfile.picture: Not a URL.', 'tenantGroups has the wrong type'],
    );
    const plan = planProvisioning('{"users":[{"externalId":"y","role":"admin"},{"externalId":"z"}]}');
    assert.deepEqual(plan.users, [{ externalId: 'z' }]);
    assert.deepEqual(plan.unsendable, [
      { where: 'entry 1', externalId: 'y', reason: 'unknown field "role"' },
    ]);
  });

  it('refuses a whole file that cannot be read, saying what it needs', () => {
    assert.throws(() => planProvisioning('', 'e.csv'), /e\.csv is empty/);
    assert.throws(() => planProvisioning('email\nx@y.example', 'n.csv'), /no externalId column/);
    assert.throws(
      () => planProvisioning('externalId;email\nx;x@y.example', 's.csv'),
      /no externalId column: its first line must name the columns separated by commas/,
    );
    assert.throws(
      () => planProvisioning('externalId,role\nx,admin', 'r.csv'),
      /columns this command does not read \(role\)/,
    );
    assert.throws(() => planProvisioning('{"users": 3}', 'j.json'), /holds no list of users/);
    assert.throws(() => planProvisioning('[{', 'b.json'), /is not valid JSON/);
  });

  it('batches of at most 100, and a summary naming failures', () => {
    assert.deepEqual(
      batches(Array.from({ length: 201 }, (_, i) => i)).map((b) => b.length),
      [100, 100, 1],
    );
    assert.equal(
      reportSummary(
        {
          tenant: 't',
          succeeded: [{ externalId: 'a' }],
          failed: [{ externalId: 'b', status: 429, message: null }],
          notSent: [],
          unknown: [],
        },
        2,
      ),
      'Provisioned 1 of 2 embed users in t. 1 failed: b (status 429).',
    );
    // The published answer's failures may come without their error: reported all the same.
    const r = emptyReport('t', []);
    addAnswer(r, {
      succeeded: [{ externalId: 'a', email: null, id: 3 }],
      failed: [{ externalId: 'b' }, { externalId: 'c', error: { status: 409, message: 'taken' } }],
    });
    assert.deepEqual(r.succeeded, [{ externalId: 'a', email: null, id: 3 }]);
    assert.deepEqual(r.failed, [
      { externalId: 'b', status: undefined, message: undefined },
      { externalId: 'c', status: 409, message: 'taken' },
    ]);
    assert.equal(
      reportSummary(r, 3),
      'Provisioned 1 of 3 embed users in t. 2 failed: b (status ?), c (taken).',
    );
  });
});
