// Assign Role / Remove Role: the user's row lists the roles the user holds (SCIM `roles`, in its
// tooltip), so a role change fetches Users again; before, the row kept the roles of the last fetch
// until the user refreshed the view by hand. UserCommands runs in plain Node with a stand-in for
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

  /** The command against a recording server and tree; answers what it sent and what it refreshed. */
  async function run(op: 'assign' | 'remove') {
    const sent: string[] = [];
    const refreshed: unknown[] = [];
    const usersList = { id: 'admin/users' };
    const admin = {
      // SCIM ids that are numbers are platform ids: nobody is asked for one.
      listScimUsers: async () => ({
        items: [{ id: '7', userName: 'user7@sandbox.example', active: true }],
        hasMore: false,
      }),
      listRoles: async () => ({ items: [{ id: 502, name: 'secrets-manager' }], hasMore: false }),
      assignRole: async (role: number, user: number) => void sent.push(`assign ${role} ${user}`),
      removeRole: async (role: number, user: number) => void sent.push(`remove ${role} ${user}`),
    };
    const prompter = new ScriptedPrompter([]);
    const deps = {
      services: { profiles: { active: () => ({ profile: { name: 'Sandbox' } }) } },
      provider: { roots: { admin: { users: usersList } }, refresh: (n: unknown) => refreshed.push(n) },
      json: {},
      targets: { client: async () => ({ admin }), prompter: () => prompter, selection: () => undefined },
    };
    const cmds = new UserCommands(deps as unknown as ConstructorParameters<typeof UserCommands>[0]);
    await cmds.role({ userName: 'user7@sandbox.example', role: 'secrets-manager' }, op);
    return { sent, refreshed, usersList };
  }

  it('Assign Role fetches Users again after the server took the role', async () => {
    const { sent, refreshed, usersList } = await run('assign');
    assert.deepEqual(sent, ['assign 502 7']);
    assert.deepEqual(refreshed, [usersList]);
    assert.match(info.at(-1) ?? '', /Role "secrets-manager" assigned to/);
  });

  it('Remove Role fetches Users again after the server took the role back', async () => {
    const { sent, refreshed, usersList } = await run('remove');
    assert.deepEqual(sent, ['remove 502 7']);
    assert.deepEqual(refreshed, [usersList]);
  });
});
