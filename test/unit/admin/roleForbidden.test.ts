// Create Role… (and Edit, Delete) run by a member: the command lists the roles first (the form's
// taken names, the pick), and that list is what the service refuses. Before, the member read
// "Listing roles needs the admin role", which names a step they never asked for; the sentence now
// names what they tried. The real client talks to a server that refuses everything with 403, and
// RoleCommands runs in plain Node with a stand-in for `vscode`.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as RoleCommandsModule from '../../../src/admin/roleCommands';
import type * as ApiModule from '../../../src/api';
import { apiFailure, FAST_RETRY, startServer, type TestServer } from '../api/helpers';
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
    /* eslint-enable @typescript-eslint/no-require-imports */
    s = await startServer((_req, res) => res.writeHead(403).end());
    client = new PlatformClient({ baseUrl: `${s.url}/api`, token: async () => 't', retry: FAST_RETRY });
    const deps = {
      provider: { roots: { admin: { roles: {} } }, refresh: () => undefined },
      targets: { client: async () => client, prompter: () => undefined, selection: () => undefined },
    };
    cmds = new RoleCommands(deps as unknown as ConstructorParameters<typeof RoleCommands>[0]);
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
});
