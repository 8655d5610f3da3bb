// Assign Role / Remove Role: the user's row lists the roles the user holds (SCIM `roles`, in its
// tooltip), so a role change fetches Users again; before, the row kept the roles of the last fetch
// until the user refreshed the view by hand. Where the record lists roles, Remove offers the held
// ones and Assign the others; the platform id is asked before the removal's confirmation. UserCommands runs in plain Node with a stand-in for
// `vscode` (only what loading the module and the command touch).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as UserCommandsModule from '../../../src/admin/userCommands';
import type * as PrompterModule from '../../../src/ui/prompter';
import { forgetVscodeDependents } from '../vscodeStandIn';

// Any name the loaded modules read from `vscode` is a class (they build icons, items, emitters).
const STUB_SOURCE = `
const cls = () => class { constructor(...a) { this.args = a; } };
const ns = (extra) => new Proxy(extra, { get: (t, k) => (k in t ? t[k] : cls()) });
module.exports = ns({
  window: ns({ showInformationMessage: (m) => { globalThis.__dpRoleInfo.push(m); } }),
  commands: ns({ executeCommand: async () => undefined }),
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
});`;

describe('admin: a role change shows on the user’s row', () => {
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;
  let dir: string;
  let UserCommands: typeof UserCommandsModule.UserCommands;
  let ScriptedPrompter: typeof PrompterModule.ScriptedPrompter;
  const info: string[] = [];

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-roles-test-'));
    const file = path.join(dir, 'vscode.js');
    fs.writeFileSync(file, STUB_SOURCE);
    (globalThis as { __dpRoleInfo?: string[] }).__dpRoleInfo = info;
    mod._resolveFilename = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? file : resolve.call(this, request, ...rest);
    };
    forgetVscodeDependents();
    /* eslint-disable @typescript-eslint/no-require-imports */
    ({ UserCommands } = require('../../../src/admin/userCommands') as typeof UserCommandsModule);
    ({ ScriptedPrompter } = require('../../../src/ui/prompter') as typeof PrompterModule);
    /* eslint-enable @typescript-eslint/no-require-imports */
  });

  after(() => {
    mod._resolveFilename = resolve;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  interface Run {
    op: 'assign' | 'remove';
    /** The command's argument (the tree's user row or a palette argument). */
    arg?: Record<string, unknown>;
    /** The SCIM user as listed; `roles` only where given. */
    user?: Record<string, unknown>;
    answers?: string[];
    confirm?: boolean;
  }

  /** The command against a recording server and tree; answers what it sent, asked and refreshed. */
  async function run({ op, arg, user, answers = [], confirm = true }: Run) {
    const sent: string[] = [];
    const refreshed: unknown[] = [];
    const usersList = { id: 'admin/users' };
    const events: string[] = [];
    const admin = {
      // SCIM ids that are numbers are platform ids: nobody is asked for one.
      listScimUsers: async () => ({
        items: [user ?? { id: '7', userName: 'user7@sandbox.example', active: true }],
        hasMore: false,
      }),
      listRoles: async () => ({
        items: [
          { id: 501, name: 'analyst' },
          { id: 502, name: 'secrets-manager' },
        ],
        hasMore: false,
      }),
      assignRole: async (role: number, u: number) => void sent.push(`assign ${role} ${u}`),
      removeRole: async (role: number, u: number) => void sent.push(`remove ${role} ${u}`),
    };
    const prompter = new ScriptedPrompter(answers, confirm);
    const input = prompter.input.bind(prompter);
    prompter.input = async (q) => (events.push(`input ${q.title}`), input(q));
    const confirmIt = prompter.confirm.bind(prompter);
    prompter.confirm = async (...a) => (events.push('confirm'), confirmIt(...a));
    const deps = {
      services: { profiles: { active: () => ({ profile: { name: 'Sandbox' } }) } },
      provider: { roots: { admin: { users: usersList } }, refresh: (n: unknown) => refreshed.push(n) },
      json: {},
      targets: { client: async () => ({ admin }), prompter: () => prompter, selection: () => undefined },
    };
    const cmds = new UserCommands(deps as unknown as ConstructorParameters<typeof UserCommands>[0]);
    const before = info.length;
    const error = await cmds
      .role(arg ?? { userName: 'user7@sandbox.example', role: 'secrets-manager' }, op)
      .then(
        () => undefined,
        (e: Error) => e,
      );
    return { sent, refreshed, usersList, prompter, events, error, said: info.slice(before) };
  }

  it('Assign Role fetches Users again after the server took the role', async () => {
    const { sent, refreshed, usersList, said } = await run({ op: 'assign' });
    assert.deepEqual(sent, ['assign 502 7']);
    assert.deepEqual(refreshed, [usersList]);
    assert.deepEqual(said, ['user7@sandbox.example now holds the role "secrets-manager".']);
  });

  it('Remove Role fetches Users again after the server took the role back', async () => {
    const { sent, refreshed, usersList, said } = await run({ op: 'remove' });
    assert.deepEqual(sent, ['remove 502 7']);
    assert.deepEqual(refreshed, [usersList]);
    // The call succeeds whether or not the role was held: the sentence says what is true after it.
    assert.deepEqual(said, ['user7@sandbox.example no longer holds the role "secrets-manager".']);
  });

  const holding = {
    id: '7',
    userName: 'user7@sandbox.example',
    active: true,
    roles: [{ value: 'secrets-manager', display: 'secrets-manager' }],
  };

  it('where the user lists its roles, Remove offers those held and Assign the others', async () => {
    const remove = await run({
      op: 'remove',
      arg: { userName: holding.userName },
      user: holding,
      answers: ['secrets-manager'],
    });
    assert.deepEqual(remove.prompter.offered.get('Role'), ['secrets-manager']);
    assert.deepEqual(remove.sent, ['remove 502 7']);
    const assign = await run({
      op: 'assign',
      arg: { userName: holding.userName },
      user: holding,
      answers: ['analyst'],
    });
    assert.deepEqual(assign.prompter.offered.get('Role'), ['analyst']);
    assert.deepEqual(assign.sent, ['assign 501 7']);
  });

  it('where the user does not list roles, every role is offered', async () => {
    const r = await run({ op: 'remove', arg: { userName: 'user7@sandbox.example' }, answers: ['analyst'] });
    assert.deepEqual(r.prompter.offered.get('Role'), ['analyst', 'secrets-manager']);
    assert.deepEqual(r.sent, ['remove 501 7']);
  });

  it('a role named that the user does not hold (or holds already) sends nothing and says so', async () => {
    const remove = await run({
      op: 'remove',
      arg: { userName: holding.userName, role: 'analyst' },
      user: holding,
    });
    assert.deepEqual(remove.sent, []);
    assert.equal(remove.error, undefined);
    assert.deepEqual(remove.said, [
      'user7@sandbox.example does not hold the role "analyst": nothing to remove.',
    ]);
    const assign = await run({
      op: 'assign',
      arg: { userName: holding.userName, role: 'secrets-manager' },
      user: holding,
    });
    assert.deepEqual(assign.sent, []);
    assert.deepEqual(assign.said, ['user7@sandbox.example already holds the role "secrets-manager".']);
  });

  it('with no role to offer, says why instead of an empty pick', async () => {
    const none = { ...holding, roles: [] };
    const remove = await run({ op: 'remove', arg: { userName: holding.userName }, user: none });
    assert.equal(remove.error?.message, 'user7@sandbox.example holds no custom role.');
    const all = { ...holding, roles: ['analyst', { value: 'secrets-manager' }] };
    const assign = await run({ op: 'assign', arg: { userName: holding.userName }, user: all });
    assert.equal(assign.error?.message, 'user7@sandbox.example already holds every custom role.');
    assert.deepEqual([...remove.sent, ...assign.sent], []);
  });

  it('asks for a platform id before the removal is confirmed, so confirming acts at once', async () => {
    const uuid = { ...holding, id: '2b1f0c1e-0000-4000-8000-000000000007' };
    const r = await run({
      op: 'remove',
      arg: { userName: holding.userName },
      user: uuid,
      answers: ['secrets-manager', '7'],
    });
    assert.deepEqual(r.events, ['input Platform user id of user7@sandbox.example', 'confirm']);
    assert.deepEqual(r.sent, ['remove 502 7']);
    const declined = await run({
      op: 'remove',
      arg: { userName: holding.userName },
      user: uuid,
      answers: ['secrets-manager', '7'],
      confirm: false,
    });
    assert.deepEqual(declined.sent, [], 'declined: nothing sent');
  });
});
