// Content negotiation against the published documents: every sandbox route declares the media
// types its operation's success answer has in the document (so the sandbox's 406 rule is the
// document's), and the sandbox answers 406 to an Accept none of them satisfy, on JSON routes and on
// the export download alike, while serving the type asked for otherwise.
import * as assert from 'node:assert/strict';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { negotiate } from '../../../src/sandbox/http';
import { servedTypes } from '../../contract/contractServers';
import { familyOf, requireReference, type Reference } from '../../contract/openapiDocs';

/** The URL path of a sandbox route pattern (its family's base added). */
function urlPath(family: string, pattern: string): string | undefined {
  if (family === 'platform') return pattern.startsWith('/build/api/') ? pattern : `/api${pattern}`;
  if (family === 'data') return `/cubejs-api${pattern}`;
  if (family === 'ai') return `/ai/api/v1/public/acme/agents/7${pattern}`;
  return undefined;
}

describe('contract: the sandbox serves what the documents list, and honours Accept', function () {
  this.timeout(60_000);
  let ref: Reference;
  let sb: SandboxHandle;

  before(async function () {
    ref = requireReference(this);
    sb = await startSandbox({ rows: 50, continueWaitMs: 20, aiEventDelayMs: 0, dbtStepMs: 1 });
  });
  after(async () => {
    await sb?.close();
  });

  it('declares, for every route, the success media types of its published operation', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const r of sb.routes()) {
      const path = urlPath(r.family, r.pattern);
      if (!path) continue;
      const family = familyOf(path);
      const m = family && ref.match(family, r.method, path);
      if (!m) continue; // the sandbox contract suite reports unpublished routes
      checked++;
      const served = servedTypes(m.op).sort();
      // An answer without a body (204) has nothing to negotiate: any declaration is harmless.
      if (served.length === 0) continue;
      const declared = [...r.produces].sort();
      if (JSON.stringify(served) !== JSON.stringify(declared))
        problems.push(
          `${r.method} ${r.pattern}: serves ${declared.join(', ')}, the document ${served.join(', ')}`,
        );
    }
    assert.ok(checked > 100, `${checked} routes checked`);
    assert.deepEqual(problems, []);
  });

  it('negotiates like RFC 9110: preferences, wildcards, q=0 and the most specific range', () => {
    const files = ['application/pdf', 'image/png'];
    assert.equal(negotiate(undefined, files), 'application/pdf');
    assert.equal(negotiate('application/json', files), null);
    assert.equal(negotiate('image/*', files), 'image/png');
    assert.equal(negotiate('application/pdf;q=0.4, image/png', files), 'image/png');
    assert.equal(negotiate('*/*', ['application/json']), 'application/json');
    assert.equal(negotiate('*/*, application/json;q=0', ['application/json']), null);
    assert.equal(negotiate('application/json; charset=utf-8', ['application/json']), 'application/json');
    assert.equal(negotiate('text/html', ['application/json']), null);
    // A type's own range outranks its type's wildcard, which outranks */*, whatever their order.
    assert.equal(negotiate('*/*;q=0, image/*', files), 'image/png');
    assert.equal(negotiate('image/*;q=0, */*', files), 'application/pdf');
    assert.equal(negotiate('image/*;q=0, image/png', files), 'image/png');
    assert.equal(negotiate('image/png;q=0, image/*', files), null);
  });

  it('answers 406 to an Accept a route cannot satisfy, and the asked type otherwise', async () => {
    const platform = (path: string, accept?: string) =>
      fetch(`${sb.urls.platform}${path}`, {
        headers: { authorization: `Bearer ${sb.tokens.admin}`, ...(accept ? { accept } : {}) },
      });
    // A JSON route.
    const refused = await platform('/v1/deployments', 'application/pdf');
    assert.equal(refused.status, 406);
    assert.match(((await refused.json()) as { error: string }).error, /serves application\/json/);
    assert.equal((await platform('/v1/deployments', 'application/json')).status, 200);
    assert.equal((await platform('/v1/deployments', '*/*')).status, 200);
    assert.equal((await platform('/v1/deployments')).status, 200);

    // The export download: PDF or PNG only, and the job's own type.
    const start = await fetch(`${sb.urls.platform}/v1/deployments/1/dashboard-exports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ dashboardId: 1001, format: 'pdf' }),
    });
    assert.equal(start.status, 200, await start.clone().text());
    const { jobId } = (await start.json()) as { jobId: string };
    const status = `/v1/deployments/1/dashboard-exports/${jobId}`;
    for (let i = 0; i < 200; i++) {
      const s = (await (await platform(status)).json()) as { status: string };
      if (s.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const download = `${status}/download`;
    assert.equal((await platform(download, 'application/json')).status, 406, 'JSON is never served there');
    assert.equal((await platform(download, 'image/png')).status, 406, 'a PDF job is not a PNG');
    const pdf = await platform(download, 'application/pdf, image/png');
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get('content-type'), 'application/pdf');
    assert.equal(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
      '%PDF-',
    );
  });
});
