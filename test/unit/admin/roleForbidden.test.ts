// Create Role… (and Edit, Delete) run by a member: the command lists the roles first (the form's
// taken names, the pick), and that list is what the service refuses. Before, the member read
// "Listing roles needs the admin role", which names a step they never asked for; the sentence now
// names what they tried. The real client talks to a server that refuses everything with 403, and
// RoleCommands runs in plain Node with a stand-in for `vscode`. The user and group commands
// (Assign/Remove Role, Deactivate User, Delete Group, Add Group Member) look up users or groups
// first in the same way, and are told the same way.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as RoleCommandsModule from '../../../src/admin/roleCommands';
import type * as UserCommandsModule from '../../../src/admin/userCommands';
import type * as UsersCommandsModule from '../../../src/admin/usersCommands';
import type * as ApiModule from '../../../src/api';
import { apiFailure, FAST_RETRY, sendJson, startServer, type TestServer } from '../api/helpers';
import { forgetVscodeDependents } from '../vscodeStandIn';

const STUB_SOURCE = `
const cls = () => class { constructor(...a) { this.args = a; } };
const ns = (extra) => new Proxy(extra, { get: (t, k) => (k in t ? t[k] : cls()) });
module.exports = ns({
  window: ns({ showInformationMessage: () => undefined }),
  commands: ns({ executeCommand: async () => undefined }),
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
});`;

const ADMIN = 'needs the admin role. Use a token of an admin user.';

describe('admin: a member refused a role command is told what they tried', () => {
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;
  let dir: string;
  let s: TestServer;
  let client: ApiModule.PlatformClient;
  let cmds: RoleCommandsModule.RoleCommands;
  let usersReadable = false;
  let userCmds: UserCommandsModule.UserCommands;
  let usersCmds: UsersCommandsModule.UsersCommands;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-role-forbidden-'));
    const file = path.join(dir, 'vscode.js');
    fs.writeFileSync(file, STUB_SOURCE);
    mod._resolveFilename = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? file : resolve.call(this, request, ...rest);
    };
    forgetVscodeDependents();
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { RoleCommands } = require('../../../src/admin/roleCommands') as typeof RoleCommandsModule;
    const { PlatformClient } = require('../../../src/api') as typeof ApiModule;
    const { UserCommands } = require('../../../src/admin/userCommands') as typeof UserCommandsModule;
    const { UsersCommands } = require('../../../src/admin/usersCommands') as typeof UsersCommandsModule;
    /* eslint-enable @typescript-eslint/no-require-imports */
    // Everything is refused, but the users list when a test lets the member read it.
    s = await startServer((req, res) =>
      usersReadable && req.url?.startsWith('/api/scim/v2/Users')
        ? sendJson(res, 200, { totalResults: 1, Resources: [{ id: 'u1', userName: 'ada@example.com' }] })
        : res.writeHead(403).end(),
    );
    client = new PlatformClient({ baseUrl: `${s.url}/api`, token: async () => 't', retry: FAST_RETRY });
    const deps = {
      provider: { roots: { admin: { roles: {} } }, refresh: () => undefined },
      targets: { client: async () => client, prompter: () => undefined, selection: () => undefined },
    };
    cmds = new RoleCommands(deps as unknown as ConstructorParameters<typeof RoleCommands>[0]);
    userCmds = new UserCommands(deps as unknown as ConstructorParameters<typeof UserCommands>[0]);
    usersCmds = new UsersCommands(deps as unknown as ConstructorParameters<typeof UsersCommands>[0]);
  });

  after(async () => {
    mod._resolveFilename = resolve;
    await client.close();
    await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('Create Role says creating roles needs the admin role, and sends no create', async () => {
    const e = await apiFailure(() => cmds.createRole({ name: 'Analysts' }));
    assert.equal(e.message, `Creating roles ${ADMIN}`);
    assert.equal(e.kind, 'forbidden');
    assert.equal(e.status, 403);
    assert.deepEqual(
      s.requests.map((r) => `${r.method} ${r.url}`),
      ['GET /api/v1/roles?first=200'],
    );
  });

  it('Edit Role and Delete Role name editing and deleting', async () => {
    assert.equal(
      (await apiFailure(() => cmds.editRole({ role: 'Analysts' }))).message,
      `Changing roles ${ADMIN}`,
    );
    assert.equal(
      (await apiFailure(() => cmds.deleteRole({ role: 'Analysts' }))).message,
      `Deleting roles ${ADMIN}`,
    );
  });

  it('the user and group commands name what the member tried, not the list they start from', async () => {
    const cases: [string, () => Promise<unknown>, string, string][] = [
      [
        'Remove Role',
        () => userCmds.role({}, 'remove'),
        'Removing roles from a user',
        'Users?startIndex=1&count=200',
      ],
      ['Assign Role', () => userCmds.role({}, 'assign'), 'Assigning roles', 'Users?startIndex=1&count=200'],
      [
        'Deactivate User',
        () => userCmds.setActive({}, false),
        'Deactivating users',
        'Users?startIndex=1&count=200',
      ],
      [
        'Delete Group',
        () => usersCmds.many.deleteGroup({}),
        'Deleting groups',
        'Groups?startIndex=1&count=200',
      ],
      [
        'Add Group Member',
        () => userCmds.groupMember({}, 'add'),
        'Adding group members',
        'Groups?startIndex=1&count=200',
      ],
      [
        'Set User Attribute Value',
        () => usersCmds.setValue({}, false),
        'Setting user attribute values',
        'Users?startIndex=1&count=200',
      ],
      [
        'Edit User Attribute',
        () => usersCmds.editAttribute({}),
        'Changing user attributes',
        'user-attributes?first=200',
      ],
    ];
    for (const [what, call, doing, listed] of cases) {
      const from = s.requests.length;
      const e = await apiFailure(call);
      assert.equal(e.message, `${doing} ${ADMIN}`, what);
      assert.equal(e.kind, 'forbidden', what);
      assert.equal(e.status, 403, what);
      // One refused look-up, and nothing written after it.
      assert.deepEqual(
        s.requests.slice(from).map((r) => r.method),
        ['GET'],
        what,
      );
      assert.ok(s.requests[from]!.url.endsWith(listed), `${what}: ${s.requests[from]!.url}`);
    }
  });

  it('a role command refused at the roles list (the user was found) names what was tried', async () => {
    usersReadable = true;
    try {
      for (const [op, doing] of [
        ['assign', 'Assigning roles'],
        ['remove', 'Removing roles from a user'],
      ] as const) {
        const from = s.requests.length;
        const e = await apiFailure(() =>
          userCmds.role({ userName: 'ada@example.com', role: 'Analysts' }, op),
        );
        assert.equal(e.message, `${doing} ${ADMIN}`, op);
        assert.deepEqual(
          s.requests.slice(from).map((r) => r.url.replace(/\?.*/, '')),
          ['/api/scim/v2/Users', '/api/v1/roles'],
        );
      }
    } finally {
      usersReadable = false;
    }
  });
});
