// The clients against a mock of the live service generated from its published documents: every
// PlatformClient, DataClient and AiClient operation, for every response variant (all optional
// fields, required only, nulls wherever nullable, extra properties, unknown enum values, random
// seeds), must succeed with the data the extension needs, and every request it sends must
// validate against the published operation.
import * as assert from 'node:assert/strict';
import { AiClient, BuildClient, DataClient, PlatformClient } from '../../../src/api';
import { startMockServer, type Exchange, type MockServer } from '../../contract/contractServers';
import { requireReference } from '../../contract/openapiDocs';
import { RANDOM_SEEDS, VARIANTS, type Variant } from '../../contract/openapiGenerate';
import { BUILD_OPERATIONS } from './buildOperations';
import { CLIENT_OPERATIONS, type Clients, type OperationCase } from './clientOperations';

interface Case {
  name: string;
  variant: Variant;
  seed: number;
}

const CASES: Case[] = [
  ...VARIANTS.filter((v) => v !== 'random').map((variant) => ({ name: variant, variant, seed: 1 })),
  ...RANDOM_SEEDS.map((seed) => ({ name: `random#${seed}`, variant: 'random' as const, seed })),
];

describe('clients contract: every operation × every response variant (mock of the published documents)', function () {
  let mock: MockServer;
  let clients: Clients & { build: BuildClient };
  const ran = new Set<string>();
  let runs = 0;
  let failures = 0;

  before(async function () {
    const ref = requireReference(this);
    mock = await startMockServer(ref);
    const token = async () => 'contract-token';
    // Writes are never retried anyway; reads are not retried here so each case is one request.
    const retry = { retries: 0, baseDelayMs: 1, maxDelayMs: 1 };
    clients = {
      platform: new PlatformClient({ baseUrl: `${mock.url}/api`, token, retry }),
      build: new BuildClient({ platformUrl: `${mock.url}/api`, token, retry }),
      data: new DataClient({ baseUrl: `${mock.url}/cubejs-api`, token, retry }),
      ai: new AiClient({
        baseUrl: `${mock.url}/ai/api/v1/public/acme/agents/7`,
        apiKey: token,
        retry,
      }),
    };
  });

  after(async function () {
    if (!mock) return;
    await Promise.all([
      clients.platform.close(),
      clients.build.close(),
      clients.data.close(),
      clients.ai.close(),
    ]);
    await mock.close();
    console.log(
      `      clients contract: ${ran.size} operations × ${CASES.length} cases = ${runs} runs, ${failures} failures`,
    );
  });

  // The build API's operations run through the same cases (their client is the BuildClient).
  const operations: OperationCase[] = [
    ...CLIENT_OPERATIONS,
    ...BUILD_OPERATIONS.map((b) => ({ ...b, run: () => b.run(clients.build) })),
  ];

  for (const op of operations) {
    describe(`${op.name} (${op.operation})`, () => {
      for (const c of CASES) {
        it(c.name, async () => {
          runs++;
          ran.add(op.name);
          try {
            await runCase(op, c);
          } catch (e) {
            failures++;
            throw e;
          }
        });
      }
    });
  }

  // The published filter item is a oneOf of three all-optional objects, which no filter can
  // satisfy; the infrastructure reads it as anyOf (DOCUMENT_FIXES), so filters must validate.
  it('a load with plain and nested filters validates against the published request', async () => {
    mock.setVariant('allOptional', 1);
    const from = mock.exchanges.length;
    await clients.data.load({
      measures: ['orders.count'],
      filters: [
        { member: 'orders.status', operator: 'equals', values: ['shipped'] },
        { or: [{ member: 'orders.total', operator: 'gt', values: ['5'] }] },
      ],
    });
    const errors = mock.exchanges.slice(from).flatMap((ex) => ex.requestErrors);
    assert.ok(mock.exchanges.length > from, 'the load was sent');
    assert.deepEqual(errors, []);
  });

  async function runCase(op: OperationCase, c: Case): Promise<void> {
    mock.setVariant(c.variant, c.seed);
    const from = mock.exchanges.length;
    const violationsBefore = mock.violations.length;
    const result = await op.run(clients);
    const sent: Exchange[] = mock.exchanges.slice(from);
    assert.ok(sent.length >= 1, 'the operation sent a request');
    for (const ex of sent) {
      assert.equal(ex.operation, op.operation, `${ex.method} ${ex.url} is the published operation`);
      assert.deepEqual(ex.requestErrors, [], `request of ${ex.method} ${ex.url} validates`);
    }
    assert.deepEqual(mock.violations.slice(violationsBefore), [], 'no request violation, no unknown route');
    op.check(result, sent);
  }
});
