// The sandbox checks every request of an operation that has a table row against that row before
// its handler runs (src/sandbox/operationCheck.ts): path ids, query values, content type, body.
// Each kind of refusal is driven over every row it applies to, so a row added to a table is
// checked the moment it is declared, and each kind has one case whose handler would otherwise
// have acted (a folder created), so removing the check fails here by behaviour, not by wording.
import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { declaredOperations, type Operation } from '../../../src/api/platform/rows';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { checkRequest } from '../../../src/sandbox/operationCheck';

const PARAM = /\{([^}]+)\}/g;

/** The row's path with every id `1` and every text parameter `x`, except `bad` in place of `name`. */
function pathOf(op: Operation, bad?: { name: string; value: string }): string {
  return op.path.replace(PARAM, (_, name: string) =>
    bad?.name === name ? bad.value : op.text?.includes(name) ? 'x' : '1',
  );
}

const shapeOf = (op: Operation) =>
  (op.query as unknown as { shape?: Record<string, z.ZodType> } | undefined)?.shape ?? {};

describe('the sandbox checks each request against its operation row', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;

  before(async () => {
    sb = await startSandbox({ rows: 20 });
  });
  after(async () => {
    await sb.close();
  });

  async function send(
    method: string,
    path: string,
    init: { body?: string; type?: string } = {},
  ): Promise<{ status: number; error: string }> {
    const res = await fetch(`${sb.urls.platform}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${sb.tokens.admin}`,
        ...(init.type ? { 'content-type': init.type } : {}),
      },
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
    const text = await res.text();
    let error: string;
    try {
      // SCIM routes answer in SCIM's error shape (`detail`), the others with `error`.
      const body = JSON.parse(text) as { error?: unknown; detail?: unknown };
      error = String(body.error ?? body.detail ?? '');
    } catch {
      error = text;
    }
    return { status: res.status, error };
  }

  const auth = () => ({ authorization: `Bearer ${sb.tokens.admin}` });

  async function folderNames(): Promise<string[]> {
    const res = await fetch(`${sb.urls.platform}/v1/deployments/1/folders?first=200`, {
      headers: { authorization: `Bearer ${sb.tokens.admin}` },
    });
    const page = (await res.json()) as { items: { name: string }[] };
    return page.items.map((f) => f.name);
  }

  it('every table row is served by a route that checks it', () => {
    const checked = new Set(
      sb
        .routes()
        .filter((r) => r.operation)
        .map((r) => r.operation!.name),
    );
    const unchecked = declaredOperations()
      .map(({ name }) => name)
      .filter((n) => !checked.has(n));
    assert.deepEqual(unchecked, [], 'rows whose sandbox route does not check its input');
  });

  it('a path id that is not a whole number of at least 1 is a 404 naming it, on every row', async () => {
    const wrong: string[] = [];
    for (const { name, op } of declaredOperations()) {
      const id = [...op.path.matchAll(PARAM)].map((m) => m[1]!).find((p) => !op.text?.includes(p));
      if (!id) continue;
      // `1e0` is a number to Number(), so a handler alone would take it for the id 1.
      const r = await send(op.method, pathOf(op, { name: id, value: '1e0' }));
      if (r.status !== 404 || !r.error.includes(`${id} "1e0" is not an id`))
        wrong.push(`${name}: ${r.status} ${r.error}`);
    }
    assert.deepEqual(wrong, []);
    // The deployment id `1e0` would otherwise read deployment 1.
    assert.equal((await send('GET', '/v1/deployments/1')).status, 200);
  });

  it('a query value the row does not accept is a 400, on every row with a parameter of closed choices or numbers', async () => {
    const wrong: string[] = [];
    let probed = 0;
    for (const { name, op } of declaredOperations()) {
      for (const [key, field] of Object.entries(shapeOf(op))) {
        const accepts = (v: unknown) => field.safeParse(v).success;
        if (accepts('sideways') || accepts(['sideways']) || !accepts(undefined)) continue;
        probed++;
        const r = await send(op.method, `${pathOf(op)}?${key}=sideways`);
        if (r.status !== 400 || !r.error.includes(`query parameter ${key}`))
          wrong.push(`${name} ${key}: ${r.status} ${r.error}`);
      }
    }
    assert.ok(probed >= 3, `${probed} query parameters probed`);
    assert.deepEqual(wrong, []);
  });

  it('a body sent as another content type is a 400 on every row with a body, and nothing is written', async () => {
    const wrong: string[] = [];
    for (const { name, op } of declaredOperations()) {
      if (!op.body) continue;
      const r = await send(op.method, pathOf(op), { body: '{}', type: 'text/plain' });
      if (r.status !== 400 || !r.error.includes('takes a JSON body'))
        wrong.push(`${name}: ${r.status} ${r.error}`);
    }
    assert.deepEqual(wrong, []);
    const r = await send('POST', '/v1/deployments/1/folders', {
      body: JSON.stringify({ name: 'Sent as text' }),
      type: 'text/plain',
    });
    assert.equal(r.status, 400, r.error);
    assert.ok(!(await folderNames()).includes('Sent as text'), 'the folder was not created');
  });

  it('a body its row refuses is a 400 on every row with a body, and nothing is written', async () => {
    const wrong: string[] = [];
    for (const { name, op } of declaredOperations()) {
      if (!op.body || op.body.safeParse({ unpublishedProbe: 1 }).success) continue;
      const r = await send(op.method, pathOf(op), {
        body: JSON.stringify({ unpublishedProbe: 1 }),
        type: 'application/json',
      });
      if (r.status !== 400 || !r.error.startsWith('Invalid body'))
        wrong.push(`${name}: ${r.status} ${r.error}`);
    }
    assert.deepEqual(wrong, []);
    // CreateFolderInput is closed: a field it does not publish is refused rather than ignored.
    const r = await send('POST', '/v1/deployments/1/folders', {
      body: JSON.stringify({ name: 'Has a colour', colour: 'red' }),
      type: 'application/json',
    });
    assert.equal(r.status, 400, r.error);
    assert.match(r.error, /colour/);
    assert.ok(!(await folderNames()).includes('Has a colour'), 'the folder was not created');
  });

  it('a SCIM request its row refuses is answered in the SCIM error shape, and nothing is written', async () => {
    const groups = async () =>
      (
        (await (await fetch(`${sb.urls.platform}/scim/v2/Groups?count=200`, { headers: auth() })).json()) as {
          Resources: { displayName: string }[];
        }
      ).Resources.map((g) => g.displayName);
    const res = await fetch(`${sb.urls.platform}/scim/v2/Groups`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/scim+json' },
      body: JSON.stringify({ displayName: 'Refused crew', owner: 'nobody' }),
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as Record<string, unknown>;
    assert.deepEqual(body.schemas, ['urn:ietf:params:scim:api:messages:2.0:Error']);
    assert.equal(body.status, '400');
    assert.equal(body.scimType, 'invalidSyntax');
    assert.match(String(body.detail), /^Invalid body: .*owner/);
    assert.ok(!(await groups()).includes('Refused crew'), 'the group was not created');
    const paging = await fetch(`${sb.urls.platform}/scim/v2/Users?startIndex=0`, { headers: auth() });
    assert.equal(paging.status, 400);
    const paged = (await paging.json()) as Record<string, unknown>;
    assert.equal(paged.scimType, 'invalidValue');
    assert.match(String(paged.detail), /query parameter startIndex/);
  });

  it('a required query parameter left out is a 400 naming it', () => {
    // No published row requires a query parameter today; the rule is held on a row that would.
    const row = {
      name: 'probe',
      op: {
        method: 'GET',
        path: '/v1/deployments/{deploymentId}/probe',
        kind: 'read',
        query: z.object({ branchName: z.string(), first: z.number().optional() }),
      } satisfies Operation,
    };
    const req = (q: string) => ({
      path: '/v1/deployments/3/probe',
      query: new URLSearchParams(q),
      body: undefined,
      hasBody: false,
      contentType: undefined,
    });
    assert.deepEqual(checkRequest(row, req('first=2')), {
      status: 400,
      message: 'The query parameter branchName is required.',
    });
    assert.equal(checkRequest(row, req('branchName=main&first=2')), undefined);
    assert.equal(checkRequest(row, req('branchName=main&first=two'))?.status, 400);
  });
});
