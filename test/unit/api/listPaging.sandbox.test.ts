// Every list of the Platform and build APIs, paged over HTTP against the sandbox (issue 26: "for
// every list, paging to the last page and an empty page"): one item a page walks to the last page
// with exactly one request a page and the same items, in the same order, as one big page; the last
// page ends the walk; an empty page (with and without pageInfo, and the deprecated {data, count})
// is an empty list, never an error or an endless walk.
import * as assert from 'node:assert/strict';
import {
  BuildClient,
  nextCursor,
  paginate,
  PlatformClient,
  type Page,
  type PageParams,
} from '../../../src/api';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';

const fast = { retries: 3, baseDelayMs: 5, maxDelayMs: 20 };

interface ListCase {
  name: string;
  /** The GET path the sandbox counts (`platform GET <path>`), for counting requests a page. */
  route: string;
  list(c: { platform: PlatformClient; build: BuildClient }, p: PageParams): Promise<Page<unknown>>;
  /** Empty answers of this list's own shape, with what else the page must say (SCIM lists differ). */
  empties?: [string, (p: Page<unknown>) => void][];
}

const EMPTIES: [string, (p: Page<unknown>) => void][] = [
  [
    '{"items":[],"pageInfo":{"hasNextPage":false,"hasPreviousPage":false,"startCursor":null,"endCursor":null}}',
    (p) => assert.equal(p.pageInfo?.hasNextPage, false),
  ],
  ['{"items":[]}', (p) => assert.equal(p.pageInfo, null)],
  ['{"data":[],"count":0}', (p) => assert.equal(p.total, 0)],
];

const D = 1;
const CASES: ListCase[] = [
  { name: 'deployments', route: '/v1/deployments', list: (c, p) => c.platform.listDeployments(p) },
  {
    name: 'environments',
    route: `/v1/deployments/${D}/environments`,
    list: (c, p) => c.platform.listEnvironments(D, p),
  },
  { name: 'env vars', route: `/v1/deployments/${D}/env-vars`, list: (c, p) => c.platform.listEnvVars(D, p) },
  { name: 'folders', route: `/v1/deployments/${D}/folders`, list: (c, p) => c.platform.listFolders(D, p) },
  { name: 'reports', route: `/v1/deployments/${D}/reports`, list: (c, p) => c.platform.listReports(D, p) },
  {
    name: 'workbooks',
    route: `/v1/deployments/${D}/workbooks`,
    list: (c, p) => c.platform.listWorkbooks(D, p),
  },
  {
    name: 'workspace',
    route: `/v1/deployments/${D}/workspace`,
    list: (c, p) => c.platform.listWorkspace(D, p),
  },
  {
    name: 'notifications',
    route: `/v1/deployments/${D}/notifications`,
    list: (c, p) => c.platform.listNotifications(D, p),
  },
  {
    name: 'users (SCIM)',
    route: '/scim/v2/Users',
    list: (c, p) => c.platform.listUsers(p),
    empties: [
      ['{"Resources":[],"totalResults":0,"startIndex":1}', (p) => assert.equal(p.total, 0)],
      // RFC 7644 3.4.2: Resources may be left out when there are none.
      ['{"totalResults":0}', (p) => assert.equal(p.total, 0)],
      ['{"Resources":[],"totalResults":40,"startIndex":41}', (p) => assert.equal(p.pageInfo, null)],
    ],
  },
  { name: 'roles', route: '/v1/roles', list: (c, p) => c.platform.admin.listRoles(p) },
  { name: 'embed tenants', route: '/v1/embed-tenants', list: (c, p) => c.platform.admin.listEmbedTenants(p) },
  { name: 'regions', route: '/v1/regions', list: (c, p) => c.platform.admin.listRegions(p) },
  {
    name: 'deployment versions',
    route: `/v1/deployments/${D}/versions`,
    list: (c, p) => c.platform.ops.listVersions(D, p),
  },
  {
    name: 'branches',
    route: `/build/api/v1/deployments/${D}/branches`,
    list: (c, p) => c.build.listBranches(D, p),
  },
];

/** A stable identity of an item as the user sees it. */
function key(item: unknown): string {
  const o = item as Record<string, unknown>;
  return JSON.stringify(o.id ?? o.name ?? o.publicId ?? o.key ?? o);
}

describe('every list pages to its last page, and takes an empty page (sandbox over HTTP)', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let clients: { platform: PlatformClient; build: BuildClient };

  before(async () => {
    sb = await startSandbox({ rows: 50 });
    const token = async () => sb.tokens.admin;
    clients = {
      platform: new PlatformClient({ baseUrl: sb.urls.platform, token, retry: fast }),
      build: new BuildClient({ platformUrl: sb.urls.platform, token, retry: fast }),
    };
  });
  after(async () => {
    await Promise.all([clients.platform.close(), clients.build.close()]);
    await sb.close();
  });
  afterEach(() => sb.faults.clear());

  const count = (c: ListCase) => sb.state.requestCounts[`platform GET ${c.route}`] ?? 0;

  for (const c of CASES) {
    it(`${c.name}: small pages to the last page, the same items as big pages`, async () => {
      const whole: unknown[] = [];
      for await (const item of paginate((after) => c.list(clients, { first: 200, after }))) whole.push(item);
      assert.ok(whole.length >= 2, `the sandbox has at least two ${c.name} to page through`);
      // One item a page for short lists (the last page starts at the last item: an off-by-one in
      // a SCIM startIndex shows there); about four pages, the last one partial, for long ones.
      const first = whole.length <= 15 ? 1 : Math.ceil(whole.length / 4) + 1;
      const before = count(c);
      const afters: (string | undefined)[] = [];
      const paged: unknown[] = [];
      let last: Page<unknown> | undefined;
      for await (const item of paginate(async (after) => {
        afters.push(after);
        last = await c.list(clients, { first, ...(after !== undefined ? { after } : {}) });
        assert.ok(last.items.length <= first, 'a page holds at most `first` items');
        return last;
      }))
        paged.push(item);
      assert.deepEqual(paged.map(key), whole.map(key), 'the same items in the same order');
      const pages = Math.ceil(whole.length / first);
      assert.equal(afters.length, pages, 'one request a page, none after the last');
      assert.equal(count(c) - before, pages, 'the server saw one request a page');
      assert.equal(afters[0], undefined, 'the first page is asked without a cursor');
      assert.equal(new Set(afters).size, afters.length, 'each page asked with a new cursor');
      assert.equal(nextCursor(last!), undefined, 'the last page says there is no more');
      assert.ok(last!.items.length > 0, 'the last page holds the last items');
    });

    it(`${c.name}: an empty page is an empty list, in each shape the list may take`, async () => {
      const empties = c.empties ?? EMPTIES;
      assert.ok(empties.length >= 3, 'each empty shape is tried');
      for (const [body, check] of empties) {
        sb.faults.add({
          family: 'platform',
          method: 'GET',
          route: `/^${c.route.replace(/\//g, '\\/')}$/`,
          answer: { contentType: 'application/json', body },
          times: 1,
        });
        const before = count(c);
        const page = await c.list(clients, { first: 5 });
        assert.equal(count(c) - before, 1, `${body}: the fault answered this list`);
        assert.deepEqual(page.items, [], body);
        assert.deepEqual(page.invalid ?? [], [], body);
        assert.equal(nextCursor(page), undefined, `${body}: nothing further`);
        check(page);
      }
    });
  }

  it('a last page that still says hasNextPage but gives no cursor ends the walk', async () => {
    sb.faults.add({
      family: 'platform',
      method: 'GET',
      route: '/^\\/v1\\/deployments$/',
      answer: {
        contentType: 'application/json',
        body: '{"items":[{"id":1,"name":"A"}],"pageInfo":{"hasNextPage":true,"endCursor":null}}',
      },
      times: 1,
    });
    const seen: unknown[] = [];
    for await (const d of paginate((after) => clients.platform.listDeployments({ first: 1, after })))
      seen.push(d);
    assert.equal(seen.length, 1);
  });

  it('a page size outside 1..200 is refused before anything is sent', async () => {
    const c = CASES[0]!;
    const before = count(c);
    for (const first of [0, 201, 1.5])
      await assert.rejects(c.list(clients, { first }), /Page size must be a whole number from 1 to 200/);
    assert.equal(count(c), before);
    assert.equal((await c.list(clients, { first: 200 })).items.length > 0, true);
  });
});
