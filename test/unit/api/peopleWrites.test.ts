// The people writes (custom roles, SCIM user and group writes, starting an OAuth sign-in, my
// settings) as they go on the wire and what the user is told: the exact request; a success; a
// refusal before sending, in plain words (never zod's own wording); a 400 the service explains
// (the profile's URL is not blamed); a taken name (pick another, not "refresh and try again"); an
// unknown outcome (said to be unknown, with the row's check, sent once).
import assert from 'node:assert/strict';
import { z } from 'zod';
import { PlatformClient } from '../../../src/api';
import { plainIssue } from '../../../src/api/errors';
import { groupNameProblem } from '../../../src/api/platform/admin/scim';
import { roleNameProblem } from '../../../src/api/platform/admin/roles';
import { signInUrl } from '../../../src/api/platform/me';
import { FAST_RETRY, apiFailure, sendJson, startServer, type Handler, type TestServer } from './helpers';

async function withClient(handler: Handler, fn: (c: PlatformClient, s: TestServer) => Promise<void>) {
  const s = await startServer(handler);
  const c = new PlatformClient({
    baseUrl: `${s.url}/api`,
    token: async () => 'tok-people',
    retry: FAST_RETRY,
  });
  try {
    await fn(c, s);
  } finally {
    await c.close();
    await s.close();
  }
}

const ROLE = { id: 9, name: 'team-a', description: null, policies: [] };
const policies = [
  { resourceType: 'Global' as const, actions: ['AIBIView' as const], resources: ['All'] },
  { resourceType: 'Deployment' as const, actions: ['DeploymentRead' as const], resources: ['1', '2'] },
];

describe('people writes: the request sent and what the user is told', () => {
  it('creates a role: POST /api/v1/roles with exactly the body built, the answer read', async () => {
    await withClient(
      (_q, res) => sendJson(res, 200, { ...ROLE, policies, extra: 'kept' }),
      async (c, s) => {
        const r = await c.admin.createRole({ name: 'team-a', description: 'Team A', policies });
        assert.equal(s.requests.length, 1);
        const q = s.requests[0]!;
        assert.equal(`${q.method} ${new URL(q.url, s.url).pathname}`, 'POST /api/v1/roles');
        assert.equal(q.headers['content-type'], 'application/json');
        assert.deepEqual(JSON.parse(q.body), { name: 'team-a', description: 'Team A', policies });
        assert.equal((r as Record<string, unknown>).extra, 'kept', 'unknown fields survive');
      },
    );
  });

  it('a taken role name (409) says to pick another name, never "refresh and try again"', async () => {
    await withClient(
      (_q, res) => sendJson(res, 409, { message: 'A role named "Team-A" already exists.' }),
      async (c) => {
        const e = await apiFailure(c.admin.createRole({ name: 'team-a', policies: [] }));
        assert.equal(e.kind, 'conflict');
        assert.match(e.message, /^A role with that name already exists: pick another name\./);
        assert.match(e.message, /The server said: A role named "Team-A" already exists\./);
        assert.doesNotMatch(e.message, /Refresh and try again/);
      },
    );
  });

  it('refuses a role the document refuses before sending anything, in plain words', async () => {
    await withClient(
      () => assert.fail('nothing is sent'),
      async (c, s) => {
        const long = await apiFailure(c.admin.createRole({ name: 'x'.repeat(256), policies: [] }));
        assert.equal(long.kind, 'validation');
        assert.equal(long.message, 'Role not created: name: use at most 255 characters');
        const builtIn = await apiFailure(c.admin.createRole({ name: 'Admin', policies: [] }));
        assert.match(builtIn.message, /name: that name is a built-in role/);
        const empty = await apiFailure(
          c.admin.createRole({
            name: 'r',
            policies: [{ resourceType: 'Deployment', actions: [], resources: ['1'] }],
          }),
        );
        assert.equal(
          empty.message,
          'Role not created: policies.0.actions: a policy grants at least one action',
        );
        const slug = await apiFailure(
          c.admin.createRole({
            name: 'r',
            policies: [{ resourceType: 'Deployment', actions: ['DeploymentRead'], resources: ['prod'] }],
          }),
        );
        assert.match(slug.message, /a deployment is named by its id/);
        assert.equal(s.requests.length, 0);
      },
    );
  });

  it('updates a role with only the fields given (PUT), and deletes one (DELETE, 204)', async () => {
    await withClient(
      (q, res) => (q.method === 'DELETE' ? (res.writeHead(204), res.end()) : sendJson(res, 200, ROLE)),
      async (c, s) => {
        await c.admin.updateRole(9, { description: null });
        await c.admin.deleteRole(9);
        assert.deepEqual(
          s.requests.map((q) => `${q.method} ${new URL(q.url, s.url).pathname} ${q.body}`),
          ['PUT /api/v1/roles/9 {"description":null}', 'DELETE /api/v1/roles/9 '],
        );
      },
    );
  });

  it('an unknown outcome of a role save is said to be unknown, with the row’s check, sent once', async () => {
    await withClient(
      (_q, res) => sendJson(res, 502, { error: 'bad gateway' }),
      async (c, s) => {
        const e = await apiFailure(c.admin.updateRole(9, { name: 'team-b' }));
        assert.equal(e.kind, 'unknownOutcome');
        assert.match(e.message, /^Saving a role: the outcome is unknown, it may have taken effect/);
        assert.match(e.message, /Refresh Roles to see whether the change was saved\./);
        assert.doesNotMatch(e.message, /try again/i);
        assert.equal(s.requests.length, 1, 'never retried');
      },
    );
  });

  it('SCIM: creates a user (POST), replaces one and a group (PUT) with the whole representation', async () => {
    await withClient(
      (q, res) =>
        sendJson(
          res,
          q.method === 'POST' ? 201 : 200,
          q.url?.includes('Groups')
            ? { id: 'g1', displayName: 'Ops' }
            : { id: 'u1', userName: 'jo@example.com' },
        ),
      async (c, s) => {
        const user = {
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'] as [
            'urn:ietf:params:scim:schemas:core:2.0:User',
          ],
          userName: 'jo@example.com',
          name: { givenName: 'Jo' },
          emails: [{ value: 'jo@example.com', primary: true }],
          active: true,
        };
        await c.admin.createScimUser(user);
        await c.admin.replaceScimUser('u 1', { ...user, active: false });
        await c.admin.replaceScimGroup('g1', { displayName: 'Ops', members: [{ value: 'u1' }] });
        assert.deepEqual(
          s.requests.map((q) => `${q.method} ${new URL(q.url, s.url).pathname}`),
          ['POST /api/scim/v2/Users', 'PUT /api/scim/v2/Users/u%201', 'PUT /api/scim/v2/Groups/g1'],
        );
        assert.deepEqual(JSON.parse(s.requests[1]!.body), { ...user, active: false });
        assert.deepEqual(JSON.parse(s.requests[2]!.body), { displayName: 'Ops', members: [{ value: 'u1' }] });
      },
    );
  });

  it('(a) a group name over 255 characters is refused before sending, in plain words, and the box refuses it too', async () => {
    await withClient(
      () => assert.fail('nothing is sent'),
      async (c, s) => {
        const e = await apiFailure(c.admin.createScimGroup('G'.repeat(256)));
        assert.equal(e.message, 'Creating a group: displayName: use at most 255 characters');
        assert.doesNotMatch(e.message, /Too big|expected string|<=/);
        assert.equal(s.requests.length, 0);
      },
    );
    assert.equal(
      groupNameProblem('G'.repeat(256)),
      'A group name has at most 255 characters (this one has 256).',
    );
    assert.equal(groupNameProblem('G'.repeat(255)), undefined);
    assert.equal(groupNameProblem('   '), 'Enter a name.');
  });

  it('(a) zod’s own wording never reaches a person: each kind of refusal in plain words', () => {
    const s = z.strictObject({
      displayName: z.string().max(255),
      name: z.string().min(1),
      email: z.email(),
      count: z.number().int(),
      kind: z.enum(['A', 'B']),
      url: z.url(),
      tags: z.array(z.string()).max(1),
      own: z.string().max(1, 'use one letter'),
    });
    const bad = s.safeParse({
      displayName: 'x'.repeat(300),
      name: '',
      email: 'x',
      count: 1.5,
      kind: 'C',
      url: 'nope',
      tags: ['a', 'b'],
      own: 'ab',
      extra: 1,
    });
    assert.ok(!bad.success);
    assert.deepEqual(bad.error.issues.map(plainIssue), [
      'displayName: use at most 255 characters',
      'name: must not be empty',
      'email: not an e-mail address',
      'count: must be a whole number',
      'kind: must be one of A, B',
      'url: not a URL',
      'tags: use at most 1 items',
      'own: use one letter',
      'extra is not an accepted field',
    ]);

    const missing = s.safeParse({});
    assert.ok(!missing.success);
    assert.equal(plainIssue(missing.error.issues[0]!), 'displayName: is required');
  });

  it('(b) a 400 the service explains (a duplicate e-mail) does not blame the profile’s URL; an unexplained one may', async () => {
    await withClient(
      (q, res) =>
        q.url?.endsWith('/users')
          ? sendJson(res, 400, { message: 'A user with e-mail jo@example.com already exists.' })
          : (res.writeHead(400), res.end()),
      async (c) => {
        const dup = await apiFailure(c.admin.createUser({ email: 'jo@example.com', username: 'jo' }));
        assert.match(
          dup.message,
          /^Creating a user failed: The server rejected the request \(400\)\. The server said: A user with e-mail jo@example\.com already exists\. Check the input\. \(request id [^)]+\)$/,
        );
        assert.doesNotMatch(dup.message, /URL/);
        const bare = await apiFailure(c.admin.updateUser(3, { firstName: 'Jo' }));
        assert.match(bare.message, /Check the input and the profile's URL\. \(request id/);
      },
    );
  });

  it('(c) a taken group name (409, on create, rename and replace) says to pick another name', async () => {
    await withClient(
      (_q, res) =>
        sendJson(res, 409, {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
          status: '409',
          detail: 'A group named "Finance" already exists.',
          scimType: 'uniqueness',
        }),
      async (c) => {
        for (const p of [
          c.admin.createScimGroup('finance'),
          c.admin.renameScimGroup('g1', 'FINANCE'),
          c.admin.replaceScimGroup('g1', { displayName: 'Finance' }),
        ]) {
          const e = await apiFailure(p);
          assert.equal(e.kind, 'conflict');
          assert.match(
            e.message,
            /^A group with that name already exists \(names are compared without regard to case\): pick another name\./,
          );
          assert.doesNotMatch(e.message, /Refresh and try again/);
        }
      },
    );
  });

  it('starts an OAuth sign-in (POST …/initiate, no body) and finds the address to open, only http(s)', async () => {
    await withClient(
      (_q, res) => sendJson(res, 200, { url: 'https://idp.example/authorize?state=abc' }),
      async (c, s) => {
        const a = await c.me.initiateUserOAuth(601);
        assert.equal(
          `${s.requests[0]!.method} ${new URL(s.requests[0]!.url, s.url).pathname}`,
          'POST /api/v1/user-oauth-tokens/601/initiate',
        );
        assert.equal(s.requests[0]!.body, '');
        assert.equal(signInUrl(a), 'https://idp.example/authorize?state=abc');
      },
    );
    assert.equal(
      signInUrl({ url: 'javascript:alert(1)', authorizationUrl: 'https://ok.example/a' }),
      'https://ok.example/a',
    );
    assert.equal(signInUrl({ url: 'file:///etc/passwd' }), undefined);
    assert.equal(signInUrl({}), undefined);
  });

  it('saves my settings with PATCH and only the fields given; a refused value is said plainly', async () => {
    await withClient(
      (_q, res) =>
        sendJson(res, 200, { id: 1, email: 'me@example.com', settings: { timezone: 'Europe/Berlin' } }),
      async (c, s) => {
        const me = await c.me.updateMySettings({
          timezone: 'Europe/Berlin',
          sheets: { showAppliedFilters: null },
        });
        assert.equal(
          `${s.requests[0]!.method} ${new URL(s.requests[0]!.url, s.url).pathname}`,
          'PATCH /api/v1/users/me/settings',
        );
        assert.deepEqual(JSON.parse(s.requests[0]!.body), {
          timezone: 'Europe/Berlin',
          sheets: { showAppliedFilters: null },
        });
        assert.deepEqual(me.settings, { timezone: 'Europe/Berlin' });
        const e = await apiFailure(c.me.updateMySettings({ defaultDeploymentId: 1.5 }));
        assert.equal(e.message, 'Settings not saved: defaultDeploymentId: must be a whole number');
        assert.equal(s.requests.length, 1);
      },
    );
  });

  it('role names: the box refuses what the row refuses, and a taken name without regard to case', () => {
    assert.equal(roleNameProblem(''), 'Enter a name.');
    assert.equal(
      roleNameProblem('x'.repeat(256)),
      'A role name has at most 255 characters (this one has 256).',
    );
    assert.equal(roleNameProblem('Guest'), 'Guest is the name of a built-in role: pick another name.');
    assert.equal(
      roleNameProblem('ANALYST', ['analyst']),
      'A role named ANALYST already exists: pick another name.',
    );
    assert.equal(roleNameProblem('analyst-2', ['analyst']), undefined);
  });
});
