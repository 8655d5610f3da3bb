// The contract suite generated from the operation tables, against the sandbox: every declared row
// is called once through the one call path, through a validating proxy that judges the request
// (and the answer) by the published document, with the row's cell of the fault matrix (live path
// ids, the least input synthesized from the row's schemas with live ids in it, a fresh target for
// what a destroy consumes: test/unit/faults/rowCells.ts; the fullest inputs are judged by the stub
// suite, rows.contract.test.ts, since the sandbox refuses the made-up items they name). The caller
// gets what the row says, and a write whose row has a matching read (the same path, or the created
// item under its collection) reads back the fields it sent.
// Nothing here names a row: a row declared in a table is a case here with no other edit.
import * as assert from 'node:assert/strict';
import { DispatcherRegistry, HttpClient, PlatformClient } from '../../../src/api';
import { declaredOperations } from '../../../src/api/platform/operation';
import { PlatformTransport } from '../../../src/api/platform/transport';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { startValidatingProxy, type Exchange, type RecordingServer } from '../../contract/contractServers';
import {
  requireReference,
  resolvePointer,
  type Json,
  type Operation as Published,
  type Reference,
} from '../../contract/openapiDocs';
import { MATRIX_EMBED_TENANTS, rowCells, type RowCell, type RowCells } from '../faults/rowCells';
import { checkResult, paramsOf, publishedOf, rowCases, type RowCase } from './rowCases';

type Item = Record<string, unknown>;
const isItem = (v: unknown): v is Item => !!v && typeof v === 'object' && !Array.isArray(v);
const isScalar = (v: unknown) => ['string', 'number', 'boolean'].includes(typeof v);

/** Whether a row answers one object (an item a write's fields can be read back from). */
const answersObject = (r: RowCase) =>
  (r.op.answer as unknown as { _zod?: { def?: { type?: string } } } | undefined)?._zod?.def?.type ===
  'object';

/** The read of what a write wrote: the GET row of its path, or of its created item under its collection. */
function readOf(c: RowCase, cases: readonly RowCase[]): { read: RowCase; created: boolean } | undefined {
  if (c.op.kind !== 'write') return undefined;
  const same = cases.find((r) => r.op.method === 'GET' && r.op.path === c.op.path && answersObject(r));
  if (same && c.op.method !== 'POST') return { read: same, created: false };
  if (c.op.method !== 'POST') return undefined;
  const item = cases.find(
    (r) =>
      r.op.method === 'GET' &&
      answersObject(r) &&
      r.op.path.startsWith(`${c.op.path}/{`) &&
      paramsOf(r.op.path).length === paramsOf(c.op.path).length + 1 &&
      r.op.path.endsWith('}'),
  );
  return item ? { read: item, created: true } : undefined;
}

/** The body fields the document publishes as free text: a string (or null) with no enum, pattern or format. */
function freeText(published: Published): string[] {
  const root = published.doc.root;
  const deref = (n: Json): Json =>
    typeof n?.$ref === 'string' ? deref(resolvePointer(root, n.$ref.slice(1))) : n;
  const plain = (raw: Json): boolean => {
    const n = deref(raw);
    const union = (n?.oneOf ?? n?.anyOf) as Json[] | undefined;
    if (union) return union.every((b) => deref(b)?.type === 'null' || plain(b));
    return n?.type === 'string' && !n.enum && !n.pattern && !n.format;
  };
  const schema = deref(published.raw.requestBody?.content?.['application/json']?.schema);
  const props = (schema?.properties ?? {}) as Record<string, Json>;
  return Object.keys(props).filter((k) => plain(props[k]));
}

/** The id a create answered for the created item's path parameter (`id`, or the parameter's name). */
function createdId(answer: unknown, param: string): unknown {
  if (!isItem(answer)) return undefined;
  return answer[param] ?? answer.id;
}

describe('rows contract: every operation row, called through its client path, against the sandbox through the validating proxy', function () {
  this.timeout(300_000);
  let sb: SandboxHandle;
  let proxy: RecordingServer;
  let platform: PlatformClient;
  let built: RowCells;
  const dispatchers = new DispatcherRegistry({});
  const transports = new Map<string, PlatformTransport>();
  const cases = rowCases();
  const readBacks: string[] = [];
  let lastStatus: number | undefined;
  let ref: Reference;
  let n = 0;

  const transport = (baseUrl: string, token?: string) => {
    const key = `${baseUrl} ${token ?? 'admin'}`;
    let t = transports.get(key);
    if (!t) {
      const http = new HttpClient({
        baseUrl,
        family: 'platform',
        auth: async () => token ?? sb.tokens.admin,
        dispatchers,
        // One request per call: what is judged is the request the row makes.
        retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 },
        logger: {
          debug: (m: string) => {
            const s = /^<- (\d{3}) /.exec(m);
            if (s) lastStatus = Number(s[1]);
          },
          info: () => undefined,
          warn: () => undefined,
          error: () => undefined,
        },
      });
      transports.set(key, (t = new PlatformTransport(http)));
    }
    return t;
  };

  before(async function () {
    ref = requireReference(this);
    sb = await startSandbox({
      rows: 200,
      continueWaitMs: 50,
      aiEventDelayMs: 0,
      dbtStepMs: 5,
      embedTenants: MATRIX_EMBED_TENANTS,
    });
    proxy = await startValidatingProxy(ref, new URL(sb.urls.platform).origin);
    const platformUrl = `${proxy.url}${new URL(sb.urls.platform).pathname}`;
    platform = new PlatformClient({
      baseUrl: platformUrl,
      token: async () => sb.tokens.admin,
      retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 },
      dispatchers,
    });
    built = await rowCells({
      routes: sb.routes(),
      platformUrl,
      cellTransport: (base, token) => transport(base, token),
      setupTransport: (base, token) => transport(base, token),
      lastStatus: () => lastStatus,
      resetStatus: () => void (lastStatus = undefined),
      platform,
    });
  });

  after(async () => {
    await Promise.all([platform?.close(), ...[...transports.values()].map((t) => t.http.close())]);
    await proxy?.close();
    await sb?.close();
    if (proxy)
      console.log(
        `      rows via proxy: ${proxy.exchanges.length} exchanges, ${proxy.violations.length} violations; ${readBacks.length} writes read back`,
      );
    if (process.env.ROWS_READ_BACKS) console.log(readBacks.join('\n'));
  });

  it('builds a call for every declared row', () => {
    assert.deepEqual(built.missing, [], 'rows no call could be built for');
    assert.equal(built.cells.length, declaredOperations().length);
  });

  // Reads first, then writes, then destroys: a write may change what a read answers, and a destroy
  // removes a fresh target of its own.
  const order = { read: 0, write: 1, destroy: 2 } as const;
  for (const c of [...cases].sort((a, b) => order[a.op.kind] - order[b.op.kind])) {
    it(`${c.name} (${c.operation})`, async () => {
      const cell: RowCell | undefined = built.cells.find((x) => x.row === c.name);
      assert.ok(cell, 'the row has a call');
      await cell.prepare?.();
      const from = proxy.exchanges.length;
      await cell.run();
      const result = cell.last?.value;
      const sent: Exchange[] = proxy.exchanges.slice(from);
      assert.equal(sent.length, 1, 'one request');
      const ex = sent[0]!;
      assert.equal(ex.operation, c.operation, `${ex.method} ${ex.url} is the row's published operation`);
      assert.deepEqual(ex.requestErrors, [], 'the request validates against the published operation');
      assert.deepEqual(ex.responseErrors, [], 'the answer validates against the published operation');
      assert.ok((ex.status ?? 0) >= 200 && (ex.status ?? 0) < 300, `a 2xx status (${ex.status})`);
      checkResult(c.op, result, ex, true);

      const back = readOf(c, cases);
      const body = cell.last?.inputs[0];
      if (!back || !c.op.body || !isItem(body)) return;
      const args = [...(cell.last?.args ?? [])];
      if (back.created) {
        const params = paramsOf(back.read.op.path);
        const id = createdId(result, params[params.length - 1]!);
        if (id === undefined) return;
        args.push(id);
      }
      const read = await built.call(back.read.op, args, back.read.op.query ? [{}] : []);
      assert.ok(isItem(read), `${back.read.name} answers the item`);
      // Each scalar field sent that the read names is what was sent.
      const fields = Object.keys(body).filter((k) => isScalar(body[k]) && k in read);
      const of = (o: Item) => Object.fromEntries(fields.map((k) => [k, o[k]]));
      assert.deepEqual(of(read), of(body), `${back.read.name} reads back the fields sent`);
      if (fields.length > 0) readBacks.push(`${c.name} -> ${back.read.name} (${fields.join(', ')})`);
      if (back.created) return;
      // An update sends the least input, often no field at all: it is sent again with each field
      // the document publishes as free text, and the read names, given a new text (lower case with
      // dashes, which a slug keeps as sent too).
      const published = publishedOf(ref, c);
      assert.ok(published, `the documents publish ${c.operation}`);
      const text = freeText(published).filter((k) => typeof read[k] === 'string');
      const again = {
        ...body,
        ...Object.fromEntries(text.map((k) => [k, `read-back-${k.toLowerCase()}-${++n}`])),
      };
      if (text.length === 0 || !c.op.body.safeParse(again).success) return;
      await built.call(c.op, args, [again, ...(cell.last?.inputs.slice(1) ?? [])]);
      const reread = await built.call(back.read.op, args, back.read.op.query ? [{}] : []);
      assert.ok(isItem(reread), `${back.read.name} answers the item`);
      const ofText = (o: Item) => Object.fromEntries(text.map((k) => [k, o[k]]));
      assert.deepEqual(ofText(reread), ofText(again), `${back.read.name} reads back the text sent`);
      readBacks.push(`${c.name} -> ${back.read.name} (${text.join(', ')}: text)`);
    });
  }
});
