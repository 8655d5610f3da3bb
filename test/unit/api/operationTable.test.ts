// The operation tables (src/api/platform/*: one row per published operation) against the published
// documents in ../shared/reference: each row's method and path template must be published as such,
// its query parameters must be published ones (and carry every required one), and it sends a body
// exactly when the document describes one. A row that drifts from the documents fails here.
import * as assert from 'node:assert/strict';
import { z } from 'zod';
import '../../../src/api';
import { declaredOperations, type Operation } from '../../../src/api/platform/operation';
import { requireReference, type Operation as Published, type Reference } from '../../contract/openapiDocs';

/** The published operation a row declares, by its document's method and path template. */
function published(ref: Reference, op: Operation): Published | undefined {
  const scim = op.path.startsWith('/scim/');
  const family = scim ? 'scim' : 'platform';
  // SCIM rows are relative to the SCIM document's base; build rows carry their published path whole.
  const path = scim || op.path.startsWith('/build/') ? op.path : `/api${op.path}`;
  return ref.docs[family].operations.find((o) => o.method === op.method && o.path === path && !o.alias);
}

function queryKeys(op: Operation): string[] {
  const shape = (op.query as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

describe('operation tables agree with the published documents', function () {
  let ref: Reference;
  before(function () {
    ref = requireReference(this);
  });

  it('declares at least the operations the clients call in one call', () => {
    assert.ok(declaredOperations().length >= 40, `${declaredOperations().length} rows`);
  });

  it('each row is a published method and path template (parameter names included)', () => {
    const wrong = declaredOperations()
      .filter(({ op }) => !published(ref, op))
      .map(({ name, op }) => `${name}: ${op.method} ${op.path}`);
    assert.deepEqual(wrong, [], 'rows with no published operation of that method and path');
  });

  it('each row sends only published query parameters, and every required one', () => {
    const wrong: string[] = [];
    for (const { name, op } of declaredOperations()) {
      const doc = published(ref, op);
      if (!doc) continue;
      const params = doc.parameters.filter((p) => p.in === 'query');
      const declared = queryKeys(op);
      for (const k of declared)
        if (!params.some((p) => p.name === k)) wrong.push(`${name}: query ${k} is not published`);
      for (const p of params.filter((x) => x.required))
        if (!declared.includes(p.name)) wrong.push(`${name}: required query ${p.name} is not declared`);
    }
    assert.deepEqual(wrong, []);
  });

  it('each row sends a body exactly when the document describes one (required bodies are never left out)', () => {
    const wrong: string[] = [];
    for (const { name, op } of declaredOperations()) {
      const doc = published(ref, op);
      if (!doc) continue;
      const body = doc.raw.requestBody as { required?: boolean } | undefined;
      if (op.body && !body) wrong.push(`${name}: sends a body the document does not describe`);
      if (!op.body && body?.required) wrong.push(`${name}: leaves out a required body`);
    }
    assert.deepEqual(wrong, []);
  });

  it('reads and writes follow the method: GET rows read, the others write or destroy', () => {
    const wrong = declaredOperations()
      .filter(({ op }) => (op.method === 'GET') !== (op.kind === 'read'))
      .map(({ name }) => name);
    assert.deepEqual(wrong, []);
    // Sanity of the check itself: a schema's shape is what queryKeys reads.
    assert.deepEqual(
      queryKeys({ method: 'GET', path: '/v1/x', kind: 'read', query: z.object({ a: z.string() }) }),
      ['a'],
    );
  });
});
