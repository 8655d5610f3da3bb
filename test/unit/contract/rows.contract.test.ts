// The contract suite generated from the operation tables: every declared row is called through the
// one call path (callOperation over real HTTP, at the base its client uses) with inputs synthesized
// from its schemas, against a stub that judges the request by the published document (the method
// and path template of the row's own operation, path and query parameters, the body strictly, its
// content type, Accept) and answers with a response generated from the document's schema of that
// operation in every variant; the caller must get what the row says. Nothing here names a row: a
// row declared in a table is a case here with no other edit.
import * as assert from 'node:assert/strict';
import { HttpClient } from '../../../src/api';
import { PlatformTransport } from '../../../src/api/platform/transport';
import { startMockServer, type MockServer } from '../../contract/contractServers';
import { requireReference, type Reference } from '../../contract/openapiDocs';
import { generateAt, RANDOM_SEEDS, VARIANTS, type Variant } from '../../contract/openapiGenerate';
import { validateResponse } from '../../contract/openapiValidate';
import type { SynthContext } from '../faults/synthesize';
import {
  checkContentType,
  checkResult,
  checkSent,
  formOf,
  inputsOf,
  paramsOf,
  publishedOf,
  rowCases,
  send,
  type RowCase,
} from './rowCases';

interface Run {
  name: string;
  variant: Variant;
  seed: number;
  /** The fullest input (every optional field) or the least (required fields only). */
  fullest: boolean;
}

// Each response variant with the fullest input, and the least input once.
const RUNS: Run[] = [
  ...VARIANTS.filter((v) => v !== 'random').map((variant) => ({
    name: `${variant}, fullest input`,
    variant,
    seed: 1,
    fullest: true,
  })),
  {
    name: `random#${RANDOM_SEEDS[0]}, fullest input`,
    variant: 'random',
    seed: RANDOM_SEEDS[0]!,
    fullest: true,
  },
  { name: 'allOptional, least input', variant: 'allOptional', seed: 1, fullest: false },
];

describe('rows contract: every operation row, called through its client path, against a stub of its published operation', function () {
  let ref: Reference;
  let mock: MockServer;
  const transports = new Map<string, PlatformTransport>();
  let n = 0;
  const cases = rowCases();
  let runs = 0;

  before(async function () {
    ref = requireReference(this);
    mock = await startMockServer(ref);
  });
  after(async () => {
    await Promise.all([...transports.values()].map((t) => t.http.close()));
    await mock?.close();
    console.log(`      rows contract: ${cases.length} rows × ${RUNS.length} runs = ${runs} calls`);
  });

  const transportOf = (c: RowCase): PlatformTransport => {
    const base = c.baseOf(`${mock.url}/api`);
    let t = transports.get(base);
    if (!t) {
      const http = new HttpClient({
        baseUrl: base,
        family: 'platform',
        auth: async () => 'contract-token',
        // One request per call: what is judged is the request the row makes.
        retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 },
      });
      transports.set(base, (t = new PlatformTransport(http)));
    }
    return t;
  };

  it('has a case for every declared row', () => {
    assert.ok(cases.length >= 100, `${cases.length} rows`);
  });

  for (const c of cases) {
    describe(`${c.name} (${c.operation})`, () => {
      for (const run of RUNS) {
        it(run.name, async () => {
          runs++;
          const published = publishedOf(ref, c);
          assert.ok(published, `the documents publish ${c.operation}`);
          // Ids are 1; a text parameter is a value of its published schema.
          const args = paramsOf(c.op.path).map((name) => {
            if (!c.op.text?.includes(name)) return 1;
            const p = published.parameters.find((x) => x.in === 'path' && x.name === name);
            const value = p?.schemaPointer
              ? generateAt(published, p.schemaPointer, 'requiredOnly').value
              : 'x';
            return String(value ?? 'x');
          });
          const ctx: SynthContext = { live: {}, fresh: () => ++n, fullest: run.fullest };
          const inputs = inputsOf(c.op, ctx);
          assert.ok(inputs, 'an input the row accepts is synthesized from its schemas');
          const form = c.op.body ? undefined : formOf(published);
          mock.setVariant(run.variant, run.seed);
          const from = mock.exchanges.length;
          const violations = mock.violations.length;
          const result = await send(transportOf(c), c, args, inputs, form);
          const sent = mock.exchanges.slice(from);
          assert.equal(sent.length, 1, 'one request');
          const ex = sent[0]!;
          assert.equal(ex.operation, c.operation, `${ex.method} ${ex.url} is the row's published operation`);
          assert.deepEqual(ex.requestErrors, [], 'the request validates against the published operation');
          assert.deepEqual(mock.violations.slice(violations), [], 'no violation, no unknown route');
          checkContentType(published, ex.requestContentType, ex.requestBody !== undefined);
          if (!form) checkSent(c.op, ex, inputs);
          const valid = validateResponse(published, ex.status ?? 0, ex.contentType, ex.responseText ?? '');
          checkResult(c.op, result, ex, valid.ok);
        });
      }
    });
  }
});
