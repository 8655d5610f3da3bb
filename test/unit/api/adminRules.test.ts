// The administration clients' own rules, one by one: what each refuses before sending and what it
// lets through (role policies, role and group names, embed sessions), the exact bodies of the SCIM
// membership patches, the SCIM list pages (cursor, previous page, total, set-aside items, an answer
// without "Resources"), the words of a write whose outcome is unknown, and the pure helpers the
// admin commands show (user labels, the user-name filter, attribute values, the embed preview URL).
import assert from 'node:assert/strict';
import { type PlatformClient } from '../../../src/api';
import { embedPreviewUrl } from '../../../src/api/platform/admin/embed';
import { roleNameProblem } from '../../../src/api/platform/admin/roles';
import { attributeValueText, parseAttributeValue } from '../../../src/api/platform/admin/attributes';
import { groupNameProblem, scimUserLabel, userNameFilter } from '../../../src/api/platform/admin/scim';
import { apiFailure, sendJson, type Handler, type TestServer, withPlatformClient } from './helpers';

const withClient = (
  handler: Handler,
  fn: (c: PlatformClient, s: TestServer, warnings: string[]) => Promise<void>,
) => withPlatformClient(handler, fn, 'tok-admin');

const sent = (s: TestServer) => s.requests.map((q) => `${q.method} ${q.url}`);
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

describe('admin rules: role policies and names', () => {
  const ROLE = { id: 9, name: 'r', policies: [] };
  const role = (resourceType: 'Deployment' | 'Global', resources: string[]) => ({
    name: 'r',
    policies: [{ resourceType, actions: ['DeploymentRead' as const], resources }],
  });

  it('a Deployment policy names deployments by id or All; other resource types name anything', async () => {
    await withClient(
      (_q, res) => sendJson(res, 200, ROLE),
      async (c, s) => {
        await c.admin.createRole(role('Deployment', ['All']));
        await c.admin.createRole(role('Deployment', ['12', '7']));
        await c.admin.createRole(role('Global', ['prod']));
        assert.deepEqual(
          s.requests.map(
            (q) => (JSON.parse(q.body) as { policies: { resources: string[] }[] }).policies[0]!.resources,
          ),
          [['All'], ['12', '7'], ['prod']],
        );
        for (const bad of [['1', 'prod'], ['x1'], ['1x'], ['01'], ['']]) {
          const e = await apiFailure(c.admin.createRole(role('Deployment', bad)));
          assert.equal(e.kind, 'validation', bad.join());
          assert.match(e.message, /^Role not created: policies\.0\.resources/, bad.join());
        }
        assert.equal(s.requests.length, 3, 'no refused role was sent');
      },
    );
  });

  it('roleNameProblem: trimmed, at most 255 characters, no built-in name, none taken (any case)', () => {
    assert.equal(roleNameProblem('   '), 'Enter a name.');
    assert.equal(roleNameProblem('Stryker was here'), undefined, 'nothing is taken by default');
    assert.equal(roleNameProblem('x'.repeat(255)), undefined);
    assert.equal(
      roleNameProblem('x'.repeat(256)),
      'A role name has at most 255 characters (this one has 256).',
    );
    assert.equal(roleNameProblem(' Admin '), 'Admin is the name of a built-in role: pick another name.');
    assert.equal(
      roleNameProblem(' Team-A ', ['other', 'team-a']),
      'A role named Team-A already exists: pick another name.',
    );
    assert.equal(roleNameProblem('new', ['a', 'b']), undefined);
  });
});

describe('admin rules: SCIM', () => {
  it('userNameFilter escapes backslashes and quotes', () => {
    assert.equal(userNameFilter('jo@x.dev'), 'userName eq "jo@x.dev"');
    assert.equal(userNameFilter('a"b\\c'), 'userName eq "a\\"b\\\\c"');
  });

  it('groupNameProblem: blank is "Enter a name", too long says its length', () => {
    assert.equal(groupNameProblem('   '), 'Enter a name.');
    assert.equal(groupNameProblem(' Analysts '), undefined);
    assert.equal(
      groupNameProblem(` ${'g'.repeat(256)} `),
      'A group name has at most 255 characters (this one has 256).',
    );
  });

  it('scimUserLabel: the person’s name, else the user name, else the first e-mail', () => {
    assert.equal(scimUserLabel({ name: { givenName: 'Jo', familyName: 'Li' }, userName: 'jo' }), 'Jo Li');
    assert.equal(scimUserLabel({ name: { givenName: 'Jo' }, userName: 'jo' }), 'Jo');
    assert.equal(scimUserLabel({ name: { familyName: 'Li', givenName: null } }), 'Li');
    assert.equal(scimUserLabel({ userName: 'jo@x.dev', emails: [{ value: 'e@x.dev' }] }), 'jo@x.dev');
    assert.equal(scimUserLabel({ emails: [{ value: 'e@x.dev' }] }), 'e@x.dev');
    assert.equal(scimUserLabel({ emails: [] }), '(unnamed user)');
    assert.equal(scimUserLabel({}), '(unnamed user)');
  });

  it('changeGroupMembers sends one PatchOp: adds as one operation, each removal its own', async () => {
    await withClient(
      (_q, res) => sendJson(res, 200, { id: 'g-1', displayName: 'G' }),
      async (c, s) => {
        await c.admin.changeGroupMembers('g-1', { remove: ['u-2', 'u-3'] });
        await c.admin.changeGroupMembers('g-1', { add: ['u-1'] });
        await c.admin.changeGroupMembers('g-1', { add: [], remove: ['u-4'] });
        assert.deepEqual(sent(s), Array(3).fill('PATCH /api/scim/v2/Groups/g-1'));
        assert.deepEqual(
          s.requests.map((q) => JSON.parse(q.body) as unknown),
          [
            {
              schemas: [PATCH_OP],
              Operations: [
                { op: 'remove', path: 'members[value eq "u-2"]' },
                { op: 'remove', path: 'members[value eq "u-3"]' },
              ],
            },
            { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: 'u-1' }] }] },
            { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: 'members[value eq "u-4"]' }] },
          ],
        );
      },
    );
  });

  it('a SCIM save or creation whose outcome is unknown names the group or user', async () => {
    await withClient(
      (_q, res) => sendJson(res, 502, { detail: 'bad gateway' }),
      async (c, s) => {
        const group = await apiFailure(c.admin.replaceScimGroup('g-1', { displayName: 'Analysts' }));
        assert.equal(group.kind, 'unknownOutcome');
        assert.match(group.message, /^Saving the group Analysts: the outcome is unknown/);
        const made = await apiFailure(c.admin.createScimUser({ userName: 'jo@x.dev' }));
        assert.match(made.message, /^Creating the user jo@x\.dev: the outcome is unknown/);
        const saved = await apiFailure(c.admin.replaceScimUser('u-1', { userName: 'jo@x.dev' }));
        assert.match(saved.message, /^Saving the user jo@x\.dev: the outcome is unknown/);
        assert.deepEqual(sent(s), [
          'PUT /api/scim/v2/Groups/g-1',
          'POST /api/scim/v2/Users',
          'PUT /api/scim/v2/Users/u-1',
        ]);
      },
    );
  });
});

describe('admin rules: SCIM list pages', () => {
  /** Answers each list request with `answer(startIndex, count)`. */
  const lists =
    (answer: (start: number, count: number) => unknown): Handler =>
    (req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      sendJson(
        res,
        200,
        answer(Number(u.searchParams.get('startIndex')), Number(u.searchParams.get('count'))),
      );
    };

  it('refuses a page size or cursor out of range before sending', async () => {
    await withClient(
      () => assert.fail('nothing is sent'),
      async (c, s) => {
        const size = await apiFailure(c.admin.listScimUsers({ first: 0 }));
        assert.equal(size.kind, 'validation');
        assert.equal(size.message, 'Page size must be a whole number from 1 to 200 (got 0).');
        const zero = await apiFailure(c.admin.listScimUsers({ after: '0' }));
        assert.equal(zero.kind, 'validation');
        assert.equal(zero.message, 'Not a users page cursor: "0".');
        const groups = await apiFailure(c.admin.listScimGroups({ after: 'x' }));
        assert.equal(groups.message, 'Not a groups page cursor: "x".');
        assert.equal(s.requests.length, 0);
      },
    );
  });

  it('pages: previous page from the second one, the next cursor from the request when the answer has no startIndex', async () => {
    await withClient(
      lists((start, count) => ({
        totalResults: 10,
        Resources: [{ id: `u${start}` }, { id: `u${start + 1}` }].slice(0, count),
      })),
      async (c, s) => {
        const first = await c.admin.listScimUsers({ first: 2 });
        assert.deepEqual(first.pageInfo, { hasNextPage: true, hasPreviousPage: false, endCursor: '3' });
        assert.equal(first.total, 10);
        assert.equal('invalid' in first, false, 'no item set aside, no invalid list');
        const second = await c.admin.listScimUsers({ first: 2, after: '3' });
        assert.deepEqual(second.pageInfo, { hasNextPage: true, hasPreviousPage: true, endCursor: '5' });
        assert.deepEqual(
          second.items.map((u) => u.id),
          ['u3', 'u4'],
        );
        assert.deepEqual(
          sent(s),
          ['/api/scim/v2/Users?startIndex=1&count=2', '/api/scim/v2/Users?startIndex=3&count=2'].map(
            (u) => `GET ${u}`,
          ),
        );
      },
    );
  });

  it('the last page: at the total, an empty page, or (no total) a short page', async () => {
    await withClient(
      lists((start) =>
        start === 9
          ? { totalResults: 10, startIndex: 9, Resources: [{ id: 'u9' }, { id: 'u10' }] }
          : start === 11
            ? { totalResults: 12, startIndex: 11, Resources: [] }
            : start === 21
              ? { Resources: [{ id: 'u21' }, { id: 'u22' }] }
              : { Resources: [{ id: 'u23' }] },
      ),
      async (c) => {
        assert.equal((await c.admin.listScimUsers({ first: 2, after: '9' })).pageInfo, null);
        const empty = await c.admin.listScimUsers({ first: 2, after: '11' });
        assert.deepEqual([empty.items, empty.pageInfo], [[], null]);
        const full = await c.admin.listScimUsers({ first: 2, after: '21' });
        assert.deepEqual(full.pageInfo, { hasNextPage: true, hasPreviousPage: true, endCursor: '23' });
        assert.equal('total' in full, false, 'no total when the answer counts none');
        const short = await c.admin.listScimUsers({ first: 2, after: '23' });
        assert.deepEqual([short.items.map((u) => u.id), short.pageInfo], [['u23'], null]);
      },
    );
  });

  it('an item that is not a user is set aside and logged, the others shown', async () => {
    await withClient(
      lists(() => ({
        totalResults: 2,
        Resources: [
          { id: 'u1', userName: 5 },
          { id: 'u2', userName: 'b' },
        ],
      })),
      async (c, _s, warnings) => {
        const page = await c.admin.listScimUsers();
        assert.deepEqual(
          page.items.map((u) => u.id),
          ['u2'],
        );
        assert.deepEqual(
          page.invalid?.map((i) => i.index),
          [0],
        );
        assert.equal(warnings.length, 1);
        assert.match(warnings[0]!, /^Listing users: item 0 skipped/);
      },
    );
  });

  it('an answer without "Resources" is no empty list unless it counts 0', async () => {
    await withClient(
      lists((start) => (start === 1 ? { totalResults: 3 } : start === 2 ? {} : { totalResults: 0 })),
      async (c) => {
        const counted = await apiFailure(c.admin.listScimUsers());
        assert.equal(counted.kind, 'protocol');
        assert.equal(counted.code, 'SCHEMA');
        assert.equal(
          counted.message,
          `Listing users: the service's answer has no "Resources" list (it counts 3), so the users cannot be shown. Refresh; if it keeps happening, check the profile's URL.`,
        );
        const bare = await apiFailure(c.admin.listScimGroups({ after: '2' }));
        assert.equal(
          bare.message,
          `Listing groups: the service's answer has no "Resources" list, so the groups cannot be shown. Refresh; if it keeps happening, check the profile's URL.`,
        );
        const none = await c.admin.listScimUsers({ after: '3' });
        assert.deepEqual([none.items, none.pageInfo, none.total], [[], null, 0]);
      },
    );
  });
});

describe('admin rules: embedding', () => {
  it('tenant groups in a session need creator mode and the tenant, refused before sending', async () => {
    await withClient(
      (_q, res) => sendJson(res, 200, { sessionId: 's-1' }),
      async (c, s) => {
        const e = await apiFailure(
          c.admin.generateEmbedSession({
            deploymentId: 1,
            externalId: 'ext-1',
            tenantGroups: ['g'],
            creatorMode: true,
          }),
        );
        assert.equal(e.kind, 'validation');
        assert.match(e.message, /tenantGroups: needs creatorMode: true and embedTenantName/);
        assert.equal(s.requests.length, 0);
        const body = {
          deploymentId: 1,
          externalId: 'ext-1',
          tenantGroups: ['g'],
          creatorMode: true,
          embedTenantName: 'acme',
        };
        assert.deepEqual(await c.admin.generateEmbedSession(body), { sessionId: 's-1' });
        assert.deepEqual(JSON.parse(s.requests[0]!.body), body);
      },
    );
  });

  it('a tenant or user search is sent when given, left out when empty', async () => {
    await withClient(
      (_q, res) => sendJson(res, 200, { items: [] }),
      async (c, s) => {
        await c.admin.listEmbedTenants({ search: 'acme' });
        await c.admin.listEmbedTenants({ search: '' });
        await c.admin.listEmbedUsers('acme', { search: 'jo' });
        assert.deepEqual(sent(s), [
          'GET /api/v1/embed-tenants?search=acme',
          'GET /api/v1/embed-tenants',
          'GET /api/v1/embed-tenants/acme/users?search=jo',
        ]);
      },
    );
  });

  it('a batch provisioning whose outcome is unknown says how many users it carried', async () => {
    await withClient(
      (_q, res) => sendJson(res, 502, { message: 'bad gateway' }),
      async (c, s) => {
        const e = await apiFailure(
          c.admin.provisionEmbedUsers('acme', { users: [{ externalId: 'a' }, { externalId: 'b' }] }),
        );
        assert.equal(e.kind, 'unknownOutcome');
        assert.match(e.message, /^Provisioning 2 embed users: the outcome is unknown/);
        assert.deepEqual(sent(s), ['POST /api/v1/embed-tenants/acme/users']);
      },
    );
  });

  it('embedPreviewUrl: the dashboard id encoded under the app base, with or without its slash', () => {
    const want = 'https://app.example.com/t1/embed/dashboard/pub%201%2F2?session=abc';
    assert.equal(embedPreviewUrl('https://app.example.com/t1', 'pub 1/2', 'abc'), want);
    assert.equal(embedPreviewUrl('https://app.example.com/t1/', 'pub 1/2', 'abc'), want);
  });
});

describe('admin rules: user attributes', () => {
  it('setUserAttributeValue names the id it refuses, before sending', async () => {
    await withClient(
      () => assert.fail('nothing is sent'),
      async (c, s) => {
        const user = await apiFailure(() => c.admin.setUserAttributeValue(0, 1, 'x'));
        assert.equal(user.message, 'User id must be a whole number of at least 1 (got 0).');
        const attr = await apiFailure(() => c.admin.setUserAttributeValue(1, 1.5, 'x'));
        assert.equal(attr.message, 'User attribute id must be a whole number of at least 1 (got 1.5).');
        assert.equal(s.requests.length, 0);
      },
    );
  });

  it('parseAttributeValue: blank is no number, only true/false is a boolean, in plain words', () => {
    assert.deepEqual(parseAttributeValue('number', '   '), { error: 'Enter a number, e.g. 42 or 3.5.' });
    assert.deepEqual(parseAttributeValue('number', ' 42 '), { value: 42 });
    assert.deepEqual(parseAttributeValue('boolean', 'yes'), { error: 'Pick true or false.' });
    assert.deepEqual(parseAttributeValue('boolean', 'false'), { value: false });
  });

  it('attributeValueText: unset is undefined, objects as JSON, the rest as text', () => {
    assert.equal(attributeValueText(undefined), undefined);
    assert.equal(attributeValueText(null), undefined);
    assert.equal(attributeValueText({ a: 1 }), '{"a":1}');
    assert.equal(attributeValueText('x'), 'x');
    assert.equal(attributeValueText(5), '5');
    assert.equal(attributeValueText([1, 'a']), '1, a');
  });
});
