// The sentences a refusal reaches the user with, made from each family's words: a 403 names what
// the row does (its verb, from its method unless it names its own) and the family's noun; a 404 of
// a row that names one item by its path says that item is gone and what to refresh; a row's own
// sentence wins over both. Bare-array lists come back as one page read item by item, and the client
// methods bound from family functions reach the same rows.
import * as assert from 'node:assert/strict';
import { PlatformClient } from '../../../src/api';
import { apiFailure, FAST_RETRY, sendJson, startServer, type TestServer } from './helpers';

const ADMIN = 'needs the admin role. Use a token of an admin user.';

describe('operation families: refusals are told in the family words', () => {
  let s: TestServer;
  let client: PlatformClient;
  let status = 403;
  let answer: unknown = undefined;
  before(async () => {
    s = await startServer((_req, res) => {
      if (answer !== undefined) sendJson(res, 200, answer);
      else res.writeHead(status).end();
    });
    client = new PlatformClient({ baseUrl: `${s.url}/api`, token: async () => 't', retry: FAST_RETRY });
  });
  after(async () => {
    await client.close();
    await s.close();
  });
  beforeEach(() => {
    answer = undefined;
  });

  it('a 403 names the row verb and the family noun (its own verb where the method does not say it)', async () => {
    status = 403;
    const a = client.admin;
    const cases: [string, () => Promise<unknown>, string][] = [
      ['list', () => a.listRoles(), `Listing roles ${ADMIN}`],
      ['read one', () => a.getRole(3), `Reading roles ${ADMIN}`],
      ['create', () => a.createRole({ name: 'Analysts', policies: [] }), `Creating roles ${ADMIN}`],
      ['change', () => a.updateRole(3, { description: 'x' }), `Changing roles ${ADMIN}`],
      ['delete', () => a.deleteRole(3), `Deleting roles ${ADMIN}`],
      ['own verb', () => a.assignRole(3, 4), `Assigning roles ${ADMIN}`],
      [
        'a role taken from a user, not deleted',
        () => a.removeRole(3, 4),
        `Removing roles from a user ${ADMIN}`,
      ],
      // SCIM users and groups are named as the tree names them (Users, Groups).
      ['SCIM users', () => a.getScimUser('u1'), `Reading users ${ADMIN}`],
      ['SCIM groups', () => a.deleteScimGroup('g1'), `Deleting groups ${ADMIN}`],
      ['SCIM list through its function', () => a.listScimGroups(), `Listing groups ${ADMIN}`],
      ['a variant keeps its family', () => a.setScimUserActive('u1', false), `Changing users ${ADMIN}`],
      ['a rename keeps its family', () => a.renameScimGroup('g1', 'Ops'), `Changing groups ${ADMIN}`],
      ['users', () => a.updateUser(5, { firstName: 'Ada' }), `Changing users ${ADMIN}`],
      ['bulk', () => a.bulkUserAction('DELETE', [5]), `Changing users ${ADMIN}`],
      [
        'attributes',
        () => a.updateUserAttribute(2, { description: 'region' }),
        `Changing user attributes ${ADMIN}`,
      ],
      [
        'attribute values',
        () => a.setUserAttributeValue(5, 2, 'eu'),
        `Setting user attribute values ${ADMIN}`,
      ],
      ['OAuth list', () => a.listOAuthIntegrations(), `Listing OAuth integrations ${ADMIN}`],
      ['OIDC delete', () => a.deleteOidcTokenConfig(7), `Deleting OIDC token configs ${ADMIN}`],
      ['notification', () => client.getNotification(1, 2), `Reading notifications ${ADMIN}`],
      ['notification list', () => client.listNotifications(1), `Listing notifications ${ADMIN}`],
      ['recipients list', () => client.listRecipients(1, 2), `Listing recipients ${ADMIN}`],
      [
        'recipients added',
        () => client.addRecipients(1, 2, [{ type: 'USER', userId: 4 }]),
        `Adding recipients ${ADMIN}`,
      ],
      [
        'recipients removed',
        () => client.removeRecipients(1, 2, [{ type: 'USER', id: 4 }]),
        `Removing recipients ${ADMIN}`,
      ],
      // Each embed row says what it does: a list is listed, one group is read.
      ['embed group', () => a.getEmbedGroup('acme', 5), `Reading an embed group ${ADMIN}`],
      ['embed groups', () => a.listEmbedGroups('acme'), `Listing embed groups ${ADMIN}`],
      [
        'embed group members',
        () => a.listEmbedGroupMembers('acme', 5),
        `Listing embed group members ${ADMIN}`,
      ],
    ];
    for (const [what, call, sentence] of cases)
      assert.equal((await apiFailure(call)).message, sentence, what);
  });

  it("a row's own 403 sentence wins (it says what else to ask for)", async () => {
    status = 403;
    const e = await apiFailure(() =>
      client.admin.generateEmbedSession({ deploymentId: 1, externalId: 'x', publicDashboardId: 'p1' }),
    );
    assert.equal(
      e.message,
      `Generating embed sessions ${ADMIN} Embedding must also be enabled for the account.`,
    );
    assert.match(
      (await apiFailure(() => client.me.initiateUserOAuth(3))).message,
      /permission to be issued tokens/,
    );
  });

  it('a 404 of a row naming one item says it is gone and what to refresh; rows naming none keep the generic one', async () => {
    status = 404;
    const a = client.admin;
    const cases: [string, () => Promise<unknown>, string][] = [
      ['read', () => a.getRole(3), 'The role no longer exists: refresh Roles.'],
      ['change', () => a.updateRole(3, { description: 'x' }), 'The role no longer exists: refresh Roles.'],
      [
        'delete',
        () => a.deleteOAuthIntegration(601),
        'The OAuth integration no longer exists: refresh OAuth integrations.',
      ],
      ['users', () => a.deleteUser(5), 'The user no longer exists: refresh Users.'],
      ['SCIM variant', () => a.setScimUserActive('u1', true), 'The user no longer exists: refresh Users.'],
      ['SCIM group', () => a.getScimGroup('g1'), 'The group no longer exists: refresh Groups.'],
      [
        'embed group',
        () => a.listEmbedGroupMembers('acme', 5),
        'The embed group no longer exists in the tenant "acme": refresh its Groups and pick it again.',
      ],
      [
        'attribute',
        () => a.updateUserAttribute(2, { description: 'r' }),
        'The user attribute no longer exists: refresh User attributes.',
      ],
      ['own sentence wins', () => a.removeRole(3, 4), 'The user no longer exists: refresh Users.'],
    ];
    // A 404 also carries the request's id, for a support ticket.
    for (const [what, call, sentence] of cases)
      assert.equal((await apiFailure(call)).message.replace(/ \(request id [^)]+\)$/, ''), sentence, what);
    for (const call of [() => a.listRoles(), () => a.createRole({ name: 'Analysts', policies: [] })])
      assert.match((await apiFailure(call)).message, /Not found \(404\)/);
  });

  it('a bare-array list comes back as one page, a bad item set aside', async () => {
    answer = [{ id: 1, name: 'GitHub' }, { name: 'no id' }];
    const page = await client.admin.listOAuthIntegrations();
    assert.deepEqual(
      page.items.map((i) => i.name),
      ['GitHub'],
    );
    assert.equal(page.pageInfo, null);
    assert.equal(page.invalid?.length, 1);
    assert.equal(page.invalid?.[0]?.index, 1);
    answer = [{ id: 4, integrationId: 9 }];
    const mine = await client.me.listUserOAuthTokens();
    assert.deepEqual(mine, { items: [{ id: 4, integrationId: 9 }], pageInfo: null });
    assert.equal(s.requests.at(-1)?.url, '/api/v1/user-oauth-tokens');
  });
});
