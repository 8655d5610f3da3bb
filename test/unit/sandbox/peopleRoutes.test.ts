// The sandbox's people routes, through the client: custom roles (names unique without regard to
// case, built-in names refused with 400, a delete takes every assignment with it), SCIM users
// created and replaced and a group replaced whole, an OAuth sign-in finished by opening the
// address the service answered, my settings merged; and what they changed survives a restart.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiError, PlatformClient } from '../../../src/api';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { scimUserId } from '../../../src/sandbox/platform/admin/scimRoutes';

const fast = { retries: 0, baseDelayMs: 1, maxDelayMs: 1 };

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e;
  }
  assert.fail('refused');
}

describe('sandbox: the people routes', function () {
  this.timeout(30_000);
  let dir: string;
  let sb: SandboxHandle;
  let admin: PlatformClient;
  let member: PlatformClient;
  const client = (token: string) =>
    new PlatformClient({ baseUrl: sb.urls.platform, token: async () => token, retry: fast });

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-people-'));
    sb = await startSandbox({ rows: 50, aiEventDelayMs: 0, stateFile: path.join(dir, 'state.json') });
    admin = client(sb.tokens.admin);
    member = client(sb.tokens.member);
  });
  after(async () => {
    await admin.close();
    await member.close();
    await sb.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('roles: create, read, rename, refuse a taken or built-in name, delete with its assignments', async () => {
    const made = await admin.admin.createRole({
      name: 'team-a',
      policies: [{ resourceType: 'Deployment', actions: ['DeploymentRead'], resources: ['1'] }],
    });
    assert.deepEqual((await admin.admin.getRole(made.id)).policies, made.policies);
    const taken = await refusal(admin.admin.createRole({ name: 'TEAM-A', policies: [] }));
    assert.equal(taken.status, 409);
    const builtIn = await refusal(admin.admin.updateRole(made.id, { name: 'Admin' }));
    // The client refuses a built-in name before sending; the sandbox refuses it too (raw request).
    assert.equal(builtIn.kind, 'validation');
    const raw = await fetch(`${sb.urls.platform}/v1/roles`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Guest', policies: [] }),
    });
    assert.equal(raw.status, 400);
    assert.match(((await raw.json()) as { error: string }).error, /built-in role/);
    const rawRename = await fetch(`${sb.urls.platform}/v1/roles/${made.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${sb.tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Admin' }),
    });
    assert.equal(rawRename.status, 400);
    assert.match(((await rawRename.json()) as { error: string }).error, /built-in role/);
    const renamed = await admin.admin.updateRole(made.id, { name: 'team-b', description: 'B' });
    assert.deepEqual([renamed.name, renamed.description, renamed.policies?.length], ['team-b', 'B', 1]);
    await admin.admin.assignRole(made.id, 4);
    assert.ok(sb.state.admin!.roleAssignments['4']!.includes(made.id));
    await admin.admin.deleteRole(made.id);
    assert.ok(!sb.state.admin!.roleAssignments['4']!.includes(made.id), 'assignments go with the role');
    assert.equal((await refusal(admin.admin.getRole(made.id))).kind, 'notFound');
    assert.equal((await refusal(member.admin.createRole({ name: 'x', policies: [] }))).kind, 'forbidden');
  });

  it('SCIM: a user created, found by name, replaced; a group replaced whole; a taken name is 409', async () => {
    const u = await admin.admin.createScimUser({
      userName: 'new.person@example.com',
      name: { givenName: 'New', familyName: 'Person' },
      emails: [{ value: 'new.person@example.com', primary: true }],
      active: true,
    });
    assert.ok(u.id);
    const again = await refusal(admin.admin.createScimUser({ userName: 'NEW.PERSON@example.com' }));
    assert.equal(again.status, 409);
    const replaced = await admin.admin.replaceScimUser(u.id!, {
      userName: 'new.person@example.com',
      name: { givenName: 'Renamed' },
      emails: [{ value: 'new.person@example.com', primary: true }],
      active: false,
      externalId: 'okta-1',
    });
    assert.deepEqual(
      [replaced.name?.givenName, replaced.name?.familyName, replaced.active, replaced.externalId],
      ['Renamed', '', false, 'okta-1'],
    );
    const g = await admin.admin.replaceScimGroup('g-finance', {
      displayName: 'Finance team',
      members: [{ value: u.id! }, { value: scimUserId(2) }],
    });
    assert.equal(g.displayName, 'Finance team');
    assert.deepEqual(
      (await admin.admin.getScimGroup('g-finance')).members?.map((m) => m.value),
      [u.id, scimUserId(2)],
      'the membership replaced whole: the old members left',
    );
    const clash = await refusal(admin.admin.replaceScimGroup('g-finance', { displayName: 'analysts' }));
    assert.equal(clash.status, 409);
    assert.match(clash.message, /pick another name/);
  });

  it('SCIM: a user created without an e-mail has none, and is found by its user name', async () => {
    const u = await admin.admin.createScimUser({
      userName: 'jdoe',
      name: { givenName: 'Jo', familyName: 'Doe' },
    });
    assert.equal(u.userName, 'jdoe');
    assert.equal(u.emails, undefined, 'the user name is not made its e-mail');
    assert.equal((await admin.admin.getScimUser(u.id!)).emails, undefined);
    const found = await admin.admin.listScimUsers({ filter: 'userName eq "JDOE"' });
    assert.deepEqual(
      found.items.map((x) => x.id),
      [u.id],
    );
    const id = Array.from({ length: 500 }, (_, i) => i + 1).find((n) => scimUserId(n) === u.id)!;
    const platform = await admin.admin.updateUser(id, { title: 'Analyst' });
    assert.deepEqual(
      [platform.email, platform.username],
      ['', 'jdoe'],
      'the platform user has no e-mail either',
    );
  });

  it('OAuth: a sign-in started is finished by opening its address; the token is then read', async () => {
    await admin.admin.revokeUserOAuthToken(601);
    assert.equal((await refusal(admin.me.getUserOAuthToken(601))).kind, 'notFound');
    const started = await admin.me.initiateUserOAuth(601);
    const url = String(started.url);
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Connected to Snowflake OAuth/);
    assert.equal((await fetch(url)).status, 400, 'a sign-in is used once');
    const t = await admin.me.getUserOAuthToken(601);
    assert.equal(t.status, 'active');
    assert.deepEqual(
      (await member.me.listUserOAuthTokens()).items,
      [],
      'the member token’s user holds none of the admin’s tokens',
    );
    assert.equal((await refusal(admin.me.initiateUserOAuth(999))).kind, 'notFound');
  });

  it('my settings: merged (sheets field by field, null clears), read back by an empty change', async () => {
    await admin.me.updateMySettings({ timezone: 'Europe/Berlin', sheets: { showAppliedFilters: true } });
    await admin.me.updateMySettings({ sheets: { revealSheetOnOpen: false }, locale: null });
    const me = await admin.me.readMySettings();
    assert.deepEqual(me.settings, {
      alternatingRowColors: true,
      defaultDeploymentId: 1,
      locale: null,
      theme: 'system',
      timezone: 'Europe/Berlin',
      sheets: { showAppliedFilters: true, revealSheetOnOpen: false },
    });
    assert.deepEqual((await member.me.readMySettings()).settings, {}, 'each user has their own');
  });

  it('what was changed survives a restart', async () => {
    await admin.admin.createRole({ name: 'kept-over-restart', policies: [] });
    sb.saveState();
    const again = await startSandbox({
      rows: 50,
      aiEventDelayMs: 0,
      stateFile: path.join(dir, 'state.json'),
    });
    try {
      const c = new PlatformClient({
        baseUrl: again.urls.platform,
        token: async () => again.tokens.admin,
        retry: fast,
      });
      assert.ok((await c.admin.listRoles({ first: 50 })).items.some((r) => r.name === 'kept-over-restart'));
      assert.equal((await c.me.readMySettings()).settings?.timezone, 'Europe/Berlin');
      assert.equal((await c.me.getUserOAuthToken(601)).status, 'active');
      await c.close();
    } finally {
      await again.close();
    }
  });
});
