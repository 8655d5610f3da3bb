// The dashboard draft save and the report upsert by public id (reports as code), through
// PlatformClient against a loopback server that records what arrives: the exact request; the
// answer on success; a refusal that names the server's reason; a 500 that is an unknown outcome
// saying how to check, sent once; the upsert's three 409s told apart as the document does; and
// bodies the document does not allow refused before anything is sent.
import * as assert from 'node:assert/strict';
import { ApiError, PlatformClient } from '../../../src/api';
import { draftOf } from '../../../src/dashboards/dashboardFile';
import { conflictError } from '../../../src/dashboards/reportFile';
import { rejection, sendJson, startServer, type TestServer } from './helpers';

const D = 4;
const P = `/api/v1/deployments/${D}`;

const REPORT = {
  id: 77,
  publicId: 'RevByMonth01',
  name: 'Revenue by month',
  sqlQuery: 'SELECT 1',
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-02T00:00:00Z',
  future: { kept: true },
};

interface Case {
  name: string;
  run(c: PlatformClient): Promise<unknown>;
  method: string;
  url: string;
  body: unknown;
  answer: unknown;
  action: string;
  hint: RegExp;
}

const CASES: Case[] = [
  {
    name: 'save the dashboard draft',
    run: (c) =>
      c.saveDashboardDraft(D, 11, {
        dashboardDraft: draftOf({
          workbookId: 11,
          title: 'Sales',
          config: {
            widgets: [
              { id: 'w1', type: 'CHART', position: { x: 0, y: 0, w: 6, h: 4 }, config: { reportId: 1 } },
            ],
          },
        }) as never,
      }),
    method: 'PUT',
    url: `${P}/workbooks/11/dashboard`,
    body: {
      dashboardDraft: {
        title: 'Sales',
        widgets: [{ id: 'w1', type: 'CHART', position: { x: 0, y: 0, w: 6, h: 4 }, config: { reportId: 1 } }],
      },
    },
    answer: { dashboardDraft: { title: 'Sales', widgets: [] }, dashboardPublished: null, extra: 1 },
    action: 'Saving the dashboard draft',
    hint: /Pull the dashboard’s draft again \(Edit Dashboard\) to see whether it was saved\.$/,
  },
  {
    name: 'push a report by its public id',
    run: (c) =>
      c.upsertReportByPublicId(D, 'RevByMonth01', {
        publicId: 'RevByMonth01',
        name: 'Revenue by month',
        sqlQuery: 'SELECT 1',
        source: 'PLAYGROUND',
      }),
    method: 'PUT',
    url: `${P}/reports/by-public-id/RevByMonth01`,
    body: { publicId: 'RevByMonth01', name: 'Revenue by month', sqlQuery: 'SELECT 1', source: 'PLAYGROUND' },
    answer: REPORT,
    action: 'Pushing the report',
    hint: /to see whether it changed\.$/,
  },
];

describe('dashboard draft and report upsert: the exact request, and what the user is told', () => {
  let s: TestServer;
  let client: PlatformClient;
  let reply: (status: number, body: unknown) => void;

  before(async () => {
    let answer: [number, unknown] = [200, {}];
    reply = (status, body) => (answer = [status, body]);
    s = await startServer((_req, res) => sendJson(res, answer[0], answer[1]));
    client = new PlatformClient({
      baseUrl: `${s.url}/api`,
      token: () => Promise.resolve('tok-p'),
      retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 2 },
    });
  });
  after(async () => {
    await client.close();
    await s.close();
  });

  for (const c of CASES) {
    it(`${c.name}: sends exactly this request and returns the answer, unknown fields kept`, async () => {
      reply(200, c.answer);
      const from = s.requests.length;
      const result = await c.run(client);
      assert.deepEqual(result, c.answer);
      const sent = s.requests.slice(from);
      assert.equal(sent.length, 1, 'one request');
      const r = sent[0]!;
      assert.equal(r.method, c.method);
      assert.equal(r.url, c.url);
      assert.deepEqual(JSON.parse(r.body), c.body);
      assert.equal(r.headers['content-type'], 'application/json');
      assert.equal(r.headers.authorization, 'Bearer tok-p');
    });

    it(`${c.name}: a refusal says why and is not an unknown outcome`, async () => {
      reply(400, { error: 'Widget type is not supported' });
      const from = s.requests.length;
      const e = await rejection(() => c.run(client));
      assert.ok(e instanceof ApiError);
      assert.equal(e.kind, 'validation');
      assert.match(e.message, /The server said: Widget type is not supported\./);
      assert.equal(s.requests.length - from, 1);
    });

    it(`${c.name}: a 500 is an unknown outcome that says how to check, sent once`, async () => {
      reply(500, { error: 'internal' });
      const from = s.requests.length;
      const e = await rejection(() => c.run(client));
      assert.ok(e instanceof ApiError);
      assert.equal(e.kind, 'unknownOutcome');
      assert.ok(e.message.startsWith(`${c.action}: the outcome is unknown`), e.message);
      assert.match(e.message, c.hint);
      assert.equal(s.requests.length - from, 1, 'never re-sent');
    });
  }

  it('the upsert’s 409s: each says whether pushing again can help', async () => {
    const said = async (body: unknown) => {
      reply(409, body);
      const e = await rejection(() => client.upsertReportByPublicId(D, 'RevByMonth01', { name: 'x' }));
      return conflictError(e, 'RevByMonth01')?.message ?? '';
    };
    assert.match(
      await said({ message: 'taken' }),
      /belongs to a report in another deployment.*will not help/,
    );
    assert.match(
      await said({ message: 'raced', code: 'upsert_branch_changed' }),
      /applied nothing\. Push Report again\./,
    );
    assert.match(
      await said({ message: 'ambiguous', code: 'ambiguous_legacy_id' }),
      /several reports share it, so nothing was changed\. Give the report you mean a publicId of your own/,
    );
    // Other statuses keep the transport's own message.
    reply(403, { message: 'no' });
    const e = await rejection(() => client.upsertReportByPublicId(D, 'RevByMonth01', { name: 'x' }));
    assert.equal(conflictError(e, 'RevByMonth01'), undefined);
  });

  it('refuses what the documents do not allow before sending anything, naming the field', async () => {
    const from = s.requests.length;
    const refused: [() => Promise<unknown>, RegExp][] = [
      [
        () => client.upsertReportByPublicId(D, 'RevByMonth01', { publicId: 'short', name: 'x' }),
        /Report not pushed: publicId: must be 12 letters or digits/,
      ],
      [
        () => client.upsertReportByPublicId(D, 'RevByMonth01', { name: 'x', owner: 'me' } as never),
        /Report not pushed: .*owner/,
      ],
      [
        () => client.upsertReportByPublicId(D, 'RevByMonth01', { name: 'x', source: 'NOTEBOOK' } as never),
        /Report not pushed: source/,
      ],
      [() => client.upsertReportByPublicId(D, '', { name: 'x' }), /publicId is required/],
      [
        () =>
          client.saveDashboardDraft(D, 11, {
            dashboardDraft: { widgets: [{ type: 'CHART', position: { x: 0, y: 0, w: 1 } }] } as never,
          }),
        /Draft not saved: dashboardDraft\.widgets\.0\.position\.h/,
      ],
      [
        () => client.saveDashboardDraft(D, 11, { dashboardDraft: { title: 'x', owner: 'me' } as never }),
        /Draft not saved: .*owner/,
      ],
    ];
    for (const [run, message] of refused) {
      const e = await rejection(run);
      assert.ok(e instanceof ApiError, String(e));
      assert.equal(e.kind, 'validation');
      assert.match(e.message, message);
    }
    assert.equal(s.requests.length, from, 'nothing was sent');
  });

  it('a draft widget may be sent without an id (the published draft input allows it)', async () => {
    reply(200, { dashboardDraft: null, dashboardPublished: null });
    const from = s.requests.length;
    await client.saveDashboardDraft(D, 11, {
      dashboardDraft: { widgets: [{ type: 'TEXT', position: { x: 0, y: 0, w: 2, h: 2 } }] },
    });
    assert.deepEqual(JSON.parse(s.requests[from]!.body), {
      dashboardDraft: { widgets: [{ type: 'TEXT', position: { x: 0, y: 0, w: 2, h: 2 } }] },
    });
  });
});
