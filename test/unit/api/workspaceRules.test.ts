// The workspace clients' own rules, one by one: a downloaded export is saved only when it is a
// whole file of the format asked for; an export that fails or never finishes says so; the rules of
// spec 4.1 for listing notifications; what a recipient removal needs; the inputs refused before
// sending (a CUSTOM schedule, workbook, embed access and report changes, an empty slug); and the
// readers the explorer and commands use (workbook shapes, sign-in URL, Data API URL, ids).
import assert from 'node:assert/strict';
import { PlatformClient } from '../../../src/api';
import { notificationQueryProblems } from '../../../src/api/notificationQuery';
import { exportFileProblem } from '../../../src/api/platform/dashboardExports';
import { dataApiUrlOfDeployment } from '../../../src/api/platform/deployments';
import { environmentPathId } from '../../../src/api/platform/environmentTokens';
import { installationNumber } from '../../../src/api/platform/github';
import { signInUrl } from '../../../src/api/platform/me';
import { recipientRemoval } from '../../../src/api/platform/notifications';
import { dashboardConfigOf, publishedDashboardOf } from '../../../src/api/platform/workbookShapes';
import { FAST_RETRY, apiFailure, sendJson, startServer, type Handler, type TestServer } from './helpers';

async function withClient(handler: Handler, fn: (c: PlatformClient, s: TestServer) => Promise<void>) {
  const s = await startServer(handler);
  const c = new PlatformClient({ baseUrl: `${s.url}/api`, token: async () => 'tok-ws', retry: FAST_RETRY });
  try {
    await fn(c, s);
  } finally {
    await c.close();
    await s.close();
  }
}
const nothingSent: Handler = () => assert.fail('nothing is sent');

const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n', 'latin1');
const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PNG_END = [0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];
const PNG = Buffer.from([...PNG_HEAD, 1, 2, 3, ...PNG_END]);

describe('workspace rules: exported files', () => {
  it('exportFileProblem: a whole PDF or PNG of the asked format passes', () => {
    assert.equal(exportFileProblem(PDF, 'application/pdf'), undefined);
    assert.equal(exportFileProblem(PDF, 'application/pdf; charset=binary', 'pdf'), undefined);
    assert.equal(exportFileProblem(Buffer.concat([Buffer.from('  \n'), PDF]), 'application/pdf'), undefined);
    assert.equal(exportFileProblem(PNG, 'image/png', 'png'), undefined);
    // The end marker is looked for in the last 1,024 bytes, wherever the file is longer.
    const long = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3000, 0x20), Buffer.from('%%EOF')]);
    assert.equal(exportFileProblem(long, 'application/pdf'), undefined);
  });

  it('exportFileProblem: names what is wrong', () => {
    assert.equal(exportFileProblem(PDF, 'text/html'), 'the service sent text/html, not a PDF or PNG');
    assert.equal(exportFileProblem(PDF, ''), 'the service sent a file of no declared type, not a PDF or PNG');
    assert.equal(
      exportFileProblem(PNG, 'image/png', 'pdf'),
      'the service sent a PNG file where a PDF was asked for',
    );
    assert.equal(exportFileProblem(new Uint8Array(), 'application/pdf'), 'the file is empty');
    assert.equal(
      exportFileProblem(Buffer.from('  <html>sign in</html>'), 'application/pdf'),
      'the service sent a web page (a sign-in page or an error) labelled as PDF',
    );
    assert.equal(
      exportFileProblem(Buffer.from('x <html>'), 'image/png'),
      'the content is not a PNG file (it does not start like one)',
    );
    const cut = Buffer.from('%PDF-1.7\n1 0 obj\n');
    assert.equal(
      exportFileProblem(cut, 'application/pdf'),
      `the PDF file is cut off (${cut.length} bytes, no end marker)`,
    );
    const early = Buffer.concat([Buffer.from('%PDF-1.7\n%%EOF'), Buffer.alloc(2000, 0x20)]);
    assert.match(exportFileProblem(early, 'application/pdf') ?? '', /^the PDF file is cut off/);
    assert.match(exportFileProblem(Buffer.from(PNG_HEAD), 'image/png') ?? '', /^the PNG file is cut off/);
  });

  it('a download that is no whole file is refused with what was wrong, nothing returned', async () => {
    await withClient(
      (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/pdf', 'x-request-id': 'req-7' });
        res.end('<html>sign in</html>');
      },
      async (c, s) => {
        const e = await apiFailure(c.ops.downloadDashboardExport(3, 'job-1', { format: 'pdf' }));
        assert.equal(e.kind, 'protocol');
        assert.equal(e.code, 'BAD_FILE');
        assert.equal(e.requestId, 'req-7');
        assert.equal(
          e.message,
          "Downloading the export: nothing was saved, the service sent a web page (a sign-in page or an error) labelled as PDF. Start the export again; if it keeps happening, check the profile's URL.",
        );
        assert.equal(s.requests.length, 1);
        assert.equal(s.requests[0]!.method, 'GET');
        assert.match(s.requests[0]!.url, /\/job-1\/download$/);
      },
    );
  });

  it('a download refused as still rendering (409) or not renderable (400) says so', async () => {
    let status = 409;
    await withClient(
      (_q, res) => sendJson(res, status, { message: 'x' }),
      async (c) => {
        const busy = await apiFailure(c.ops.downloadDashboardExport(3, 'job-1'));
        assert.match(busy.message, /The export is still rendering\./);
        status = 400;
        const bad = await apiFailure(c.ops.downloadDashboardExport(3, 'job-1'));
        assert.match(
          bad.message,
          /The export could not be rendered; check the dashboard, then start a new export\./,
        );
      },
    );
  });

  it('waiting for an export: a failed render says why (or that no reason was given); a deadline ends it', async () => {
    let answer: unknown = { status: 'failed', error: 'no data' };
    await withClient(
      (_q, res) => sendJson(res, 200, answer),
      async (c) => {
        const failed = await apiFailure(c.ops.waitForDashboardExport(3, 'job-1'));
        assert.equal(failed.kind, 'server');
        assert.equal(failed.message, 'The export failed: no data.');
        answer = { status: 'failed' };
        const bare = await apiFailure(c.ops.waitForDashboardExport(3, 'job-1'));
        assert.equal(bare.message, 'The export failed: the server gave no reason.');
        answer = { status: 'rendering' };
        const late = await apiFailure(
          c.ops.waitForDashboardExport(3, 'job-1', { timeoutMs: 0, intervalMs: 1 }),
        );
        assert.equal(late.kind, 'timeout');
        assert.equal(late.message, 'The export did not finish in time; it is still rendering.');
      },
    );
  });
});

describe('workspace rules: notifications', () => {
  it('the list query rules of spec 4.1, each broken rule named', () => {
    assert.deepEqual(
      notificationQueryProblems({ dashboardId: 1, recipientUserId: 1, dashboardPublicId: '' }),
      [],
    );
    assert.deepEqual(notificationQueryProblems({ dashboardPublicId: null as never, dashboardId: 2 }), []);
    assert.deepEqual(notificationQueryProblems({ dashboardId: 0, recipientUserId: 0 }), [
      'dashboardId must be a whole number of at least 1 (got 0).',
      'recipientUserId must be a whole number of at least 1 (got 0).',
    ]);
    assert.deepEqual(notificationQueryProblems({ recipientUserId: 3, recipientEmbedTenantName: 'acme' }), [
      'recipientEmbedTenantName and recipientExternalId go together: give both or neither.',
      'Use one recipient filter only: recipientUserId and recipientEmbedTenantName + recipientExternalId were given.',
    ]);
  });

  it('a recipient removal needs what names it, else says what the service left out', () => {
    assert.deepEqual(recipientRemoval({ type: 'EMBED_USER', embedUserId: 4, embedTenantName: 'acme' }), {
      type: 'EMBED_USER',
      id: 4,
      embedTenantName: 'acme',
    });
    assert.deepEqual(recipientRemoval({ type: 'SLACK', channelId: 'C1' }), { type: 'SLACK', id: 'C1' });
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'EMBED_USER', embedTenantName: 'acme' }, 'embedUserId'],
      [{ type: 'EMBED_USER', embedUserId: 4, embedTenantName: '' }, 'embedTenantName'],
      [{ type: 'EMBED_USER', embedUserId: 4 }, 'embedTenantName'],
      [{ type: 'SLACK', channelId: '' }, 'channelId'],
      [{ type: 'SLACK', channelId: 7 }, 'channelId'],
    ];
    for (const [r, field] of cases) {
      let thrown: unknown;
      try {
        recipientRemoval(r as never);
      } catch (e) {
        thrown = e;
      }
      assert.ok(thrown instanceof Error, JSON.stringify(r));
      assert.equal((thrown as { kind?: string }).kind, 'validation');
      assert.equal(
        thrown.message,
        `This ${String(r.type)} recipient cannot be removed: the service did not send its ${field}.`,
      );
    }
  });

  it('a CUSTOM schedule needs its cron, and one dashboard is named, before sending', async () => {
    await withClient(nothingSent, async (c, s) => {
      const cron = await apiFailure(
        c.createNotification(1, { dashboardId: 2, scheduleType: 'CUSTOM' } as never),
      );
      assert.equal(cron.kind, 'validation');
      assert.match(cron.message, /customCron: A CUSTOM schedule needs customCron\./);
      const both = await apiFailure(
        c.createNotification(1, { dashboardId: 2, dashboardPublicId: 'p', scheduleType: 'DAILY' } as never),
      );
      assert.match(both.message, /dashboardId: Give exactly one of dashboardId or dashboardPublicId\./);
      assert.equal(s.requests.length, 0);
    });
  });
});

describe('workspace rules: inputs refused before sending', () => {
  it('workbook, embed access and report changes that change nothing or contradict themselves', async () => {
    await withClient(nothingSent, async (c, s) => {
      const refused = async (p: Promise<unknown>, words: RegExp) => {
        const e = await apiFailure(p);
        assert.equal(e.kind, 'validation');
        assert.match(e.message, words);
      };
      await refused(c.updateWorkbook(1, 2, {}), /nothing to change/);
      await refused(
        c.updateEmbedAccess(1, 2, { embedTenantName: 'acme', allEmbedUsers: true, action: 'read' }),
        /one audience at a time/,
      );
      await refused(c.updateEmbedAccess(1, 2, { embedTenantName: 'acme' }), /an audience needs an action/);
      await refused(c.updateEmbedAccess(1, 2, { allEmbedUsers: true }), /an audience needs an action/);
      await refused(c.updateEmbedAccess(1, 2, { action: 'read' }), /an audience needs an action/);
      await refused(c.updateEmbedAccess(1, 2, {}), /nothing to change/);
      await refused(c.updateReport(1, 2, {}), /nothing to change/);
      await refused(c.disconnectReportFromWorkbook(1, 2, {}), /name the placement/);
      await refused(c.disconnectReportFromWorkbook(1, 2, { externalWorkbookId: 'w' }), /name the placement/);
      await refused(c.disconnectReportFromWorkbook(1, 2, { resultLocation: 'A1' }), /name the placement/);
      const slug = await apiFailure(() => c.upsertWorkbookBySlug(1, '   ', { name: 'W' }));
      assert.equal(slug.kind, 'validation');
      assert.equal(slug.message, 'Workbook not saved: the slug is empty.');
      assert.equal(s.requests.length, 0);
    });
  });

  it('the allowed changes are sent as given (one field, an audience with its action, a placement)', async () => {
    await withClient(
      (_q, res) => sendJson(res, 200, { id: 2, name: 'W', allowEmbed: true }),
      async (c, s) => {
        await c.updateWorkbook(1, 2, { slug: 'w-2' });
        await c.updateWorkbook(1, 2, { name: 'W2' });
        await c.updateEmbedAccess(1, 2, { allEmbedUsers: true, action: 'none' });
        await c.updateEmbedAccess(1, 2, { allowEmbed: false });
        await c.updateReport(1, 2, { title: 't' });
        await c.disconnectReportFromWorkbook(1, 2, { placementId: 'p-1' });
        await c.upsertWorkbookBySlug(1, ' w-2 ', { name: 'W' });
        assert.deepEqual(
          s.requests.map((q) => `${q.method} ${q.url} ${q.body}`),
          [
            'PUT /api/v1/deployments/1/workbooks/2 {"slug":"w-2"}',
            'PUT /api/v1/deployments/1/workbooks/2 {"name":"W2"}',
            'PUT /api/v1/deployments/1/workbooks/2/embed-access {"allEmbedUsers":true,"action":"none"}',
            'PUT /api/v1/deployments/1/workbooks/2/embed-access {"allowEmbed":false}',
            'PUT /api/v1/deployments/1/reports/2 {"title":"t"}',
            'DELETE /api/v1/deployments/1/reports/2/connect-workbook {"placementId":"p-1"}',
            'PUT /api/v1/deployments/1/workbooks/by-slug/w-2 {"name":"W"}',
          ],
        );
      },
    );
  });

  it('folder ancestors with an unreadable entry are refused, naming it', async () => {
    await withClient(
      (_q, res) => sendJson(res, 200, [{ id: 1, name: 'root' }, { name: 'no id' }]),
      async (c) => {
        const e = await apiFailure(c.getFolderAncestors(1, 5));
        assert.equal(e.kind, 'protocol');
        assert.equal(e.message, 'Folder ancestors: entry 1 has no readable id and name.');
      },
    );
    await withClient(
      (_q, res) => sendJson(res, 200, [{ name: 'no id' }, { id: 1, name: 'root' }]),
      async (c) => {
        const e = await apiFailure(c.getFolderAncestors(1, 5));
        assert.equal(e.message, 'Folder ancestors: entry 0 has no readable id and name.');
      },
    );
  });
});

describe('workspace rules: readers', () => {
  it('publishedDashboardOf and dashboardConfigOf read both server shapes', () => {
    const pub = { id: 1, publicId: 'p' };
    assert.deepEqual(publishedDashboardOf({ publishedDashboard: pub }), pub);
    assert.equal(publishedDashboardOf({ publishedDashboard: [pub] }), undefined);
    assert.equal(publishedDashboardOf({ publishedDashboard: null }), undefined);
    const old = { id: 2, config: { widgets: [] } };
    assert.deepEqual(publishedDashboardOf({ dashboardPublished: old }), old);
    assert.equal(publishedDashboardOf({ dashboardPublished: { widgets: [] } }), undefined);
    assert.equal(publishedDashboardOf({ dashboardPublished: { config: 'x' } }), undefined);
    assert.equal(publishedDashboardOf({}), undefined);

    const draft = { widgets: [1] };
    assert.deepEqual(
      dashboardConfigOf({ dashboardDraft: draft, dashboardPublished: { a: 1 } }, 'draft'),
      draft,
    );
    assert.deepEqual(dashboardConfigOf({ dashboardDraft: { config: draft } }, 'draft'), draft);
    assert.deepEqual(dashboardConfigOf({ dashboardPublished: { config: draft } }, 'published'), draft);
    assert.deepEqual(
      dashboardConfigOf({ dashboardPublished: draft, dashboardDraft: { b: 1 } }, 'published'),
      draft,
    );
    assert.deepEqual(dashboardConfigOf({ publishedDashboard: { config: draft } }, 'published'), draft);
    assert.equal(dashboardConfigOf({ publishedDashboard: { config: draft } }, 'draft'), undefined);
    assert.equal(dashboardConfigOf({ publishedDashboard: { id: 1 } }, 'published'), undefined);
    assert.equal(dashboardConfigOf({}, 'published'), undefined);
  });

  it('signInUrl: the first http(s) URL among the known fields', () => {
    for (const k of [
      'url',
      'authorizationUrl',
      'authUrl',
      'authorizeUrl',
      'redirectUrl',
      'redirectUri',
      'location',
    ])
      assert.equal(signInUrl({ [k]: 'https://id.example.com/a?b=1' }), 'https://id.example.com/a?b=1', k);
    assert.equal(signInUrl({ url: 'http://localhost:3000/x' }), 'http://localhost:3000/x');
    assert.equal(signInUrl({ url: 5, authUrl: 'javascript:alert(1)', location: 'not a url' }), undefined);
    assert.equal(
      signInUrl({ url: 'ftp://x.example.com/', redirectUri: 'https://ok.example.com/' }),
      'https://ok.example.com/',
    );
  });

  it('dataApiUrlOfDeployment: trimmed, https by default, the Data API path when there is none, no trailing slashes', () => {
    assert.equal(
      dataApiUrlOfDeployment({ deploymentUrl: ' acme.example.com ' }),
      'https://acme.example.com/cubejs-api',
    );
    assert.equal(
      dataApiUrlOfDeployment({ deploymentUrl: 'http://h.example.com/' }),
      'http://h.example.com/cubejs-api',
    );
    assert.equal(
      dataApiUrlOfDeployment({ deploymentUrl: 'https://h.example.com/x//?q=1#f' }),
      'https://h.example.com/x',
    );
    assert.equal(
      dataApiUrlOfDeployment({ deploymentUrl: 'h.example.com/https://y' }),
      'https://h.example.com/https://y',
    );
    assert.equal(dataApiUrlOfDeployment({ deploymentUrl: '   ' }), undefined);
    assert.equal(dataApiUrlOfDeployment({}), undefined);
  });

  it('environmentPathId and installationNumber: whole numbers of at least 1 only', () => {
    assert.equal(environmentPathId(1), 1);
    assert.equal(environmentPathId('12'), 12);
    for (const bad of [0, -1, 1.5, 'abc', '0']) {
      let thrown: unknown;
      try {
        environmentPathId(bad);
      } catch (e) {
        thrown = e;
      }
      assert.ok(thrown instanceof Error, String(bad));
      assert.equal(
        thrown.message,
        `Environment "${String(bad)}" has no numeric id, so its tokens cannot be reached.`,
      );
    }
    assert.equal(installationNumber({ installationId: '42' }), 42);
    for (const bad of ['0', '-3', '1.5', 'x'])
      assert.equal(installationNumber({ installationId: bad }), undefined);
  });
});
