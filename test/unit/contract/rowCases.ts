// The contract cases of the operation rows, made from the rows alone (src/api/platform/**: every
// `declaredOperations()` row), so a row is covered the moment it is declared, with no case kept by
// hand: the published operation it names (its method and path template as the documents write
// them), the base URL the clients put before its path, its path arguments, and its inputs (body,
// then query) synthesized from its zod schemas (test/unit/faults/synthesize.ts); and, from what a
// server answered, what the row says the caller gets (an answer, a list page, nothing, a status).
// The stub suite (rows.contract.test.ts) and the sandbox suite (rows.sandbox.test.ts) run them.
import * as assert from 'node:assert/strict';
import type { z } from 'zod';
import type { Page } from '../../../src/api';
import { multipartBody } from '../../../src/api/platform/build/upload';
import { tenantUrlOf } from '../../../src/api/platform/build/common';
import {
  callOperation,
  declaredOperations,
  type FamilyDefaults,
  type Form,
  type Operation,
} from '../../../src/api/platform/operation';
import '../../../src/api/platform/rows';
import type { PlatformTransport } from '../../../src/api/platform/transport';
import type { Exchange } from '../../contract/contractServers';
import type { ApiFamily, Json, Operation as Published, Reference } from '../../contract/openapiDocs';
import { generateAt } from '../../contract/openapiGenerate';
import { synthesize, type SynthContext } from '../faults/synthesize';

export interface RowCase {
  name: string;
  op: Operation;
  defaults: FamilyDefaults;
  /** The published operation's key as the documents write it (`GET /api/v1/deployments`). */
  operation: string;
  family: ApiFamily;
  /** The row's base: the platform API's URL (`…/api`), or the tenant's root (build rows carry `/build/api`). */
  baseOf(platformUrl: string): string;
}

const PARAM = /\{([^}]+)\}/g;
export const paramsOf = (path: string): string[] => [...path.matchAll(PARAM)].map((m) => m[1]!);

/** Every declared row as a case (the rows of every table, loaded by rows.ts). */
export function rowCases(): RowCase[] {
  return declaredOperations().map(({ name, op, defaults }) => {
    const scim = op.path.startsWith('/scim/');
    const build = op.path.startsWith('/build/');
    // SCIM rows are relative to the SCIM document's base; build rows carry their published path whole.
    const path = scim || build ? op.path : `/api${op.path}`;
    return {
      name,
      op,
      defaults,
      operation: `${op.method} ${path}`,
      family: scim ? 'scim' : 'platform',
      // The clients' own rule: BuildClient is based at the tenant's root, the others at `…/api`.
      baseOf: (platformUrl) => (build ? tenantUrlOf(platformUrl) : platformUrl),
    };
  });
}

/** The published operation of a case (undefined when the documents have none of that method and path). */
export function publishedOf(ref: Reference, c: RowCase): Published | undefined {
  return ref.docs[c.family].operations.find((o) => o.key === c.operation && !o.alias);
}

/**
 * The inputs a row takes after its path (its body, then its query), synthesized from its schemas:
 * the fullest (every optional field a row can send) or the least (required fields only). A row
 * whose schema no synthesized value satisfies has none (the coverage test names it).
 */
export function inputsOf(op: Operation, ctx: SynthContext): unknown[] | undefined {
  const out: unknown[] = [];
  for (const schema of [op.body, op.query].filter((s): s is z.ZodType => s !== undefined)) {
    const made = synthesize(schema, ctx);
    if (!made) return undefined;
    out.push(made.value);
  }
  return out;
}

/**
 * The form of a row sent as multipart/form-data (a file upload: no JSON body, and the document
 * publishes a form): its fields generated from the published form schema, and a small file.
 */
export function formOf(published: Published): Form | undefined {
  const media = published.raw.requestBody?.content?.['multipart/form-data'] as Json;
  if (!media?.schema) return undefined;
  const pointer = `${published.pointer}/requestBody/content/multipart~1form-data/schema`;
  const generated = generateAt(published, pointer, 'requiredOnly').value as Record<string, unknown>;
  const fields = Object.fromEntries(
    Object.entries(generated ?? {})
      .filter(([k]) => k !== 'file')
      .map(([k, v]) => [k, String(v)]),
  );
  const name = fields.fileName ?? 'model/cubes/rows.yml';
  return { fields, ...multipartBody(fields, { name, content: Buffer.from('cubes: []\n') }) };
}

/** Calls a row through the one call path: a form where its operation takes one, else its inputs. */
export function send(
  t: PlatformTransport,
  c: RowCase,
  args: readonly unknown[],
  inputs: readonly unknown[],
  form: Form | undefined,
): Promise<unknown> {
  return callOperation(t, c.op, [...args, ...inputs], c.defaults, form);
}

type Item = Record<string, unknown>;
const isItem = (v: unknown): v is Item => !!v && typeof v === 'object' && !Array.isArray(v);

/** The items of a list page as served: `items`, or the deprecated `data`. */
function servedItems(body: unknown): unknown[] {
  const b = (isItem(body) ? body : {}) as Item;
  const list = b.items ?? b.data;
  return Array.isArray(list) ? list : [];
}

/**
 * What the caller got is what the row says: for a list row a page of every served item (none set
 * aside where the answer is valid under the document), for an array row the same as one page, for
 * an answer row the served answer as its schema reads it, for a row answering nothing nothing, and
 * for the others the 2xx status the server sent.
 */
export function checkResult(
  op: Operation,
  result: unknown,
  ex: Pick<Exchange, 'status' | 'responseText' | 'contentType'>,
  validUnderDocument: boolean,
): void {
  const text = ex.responseText ?? '';
  const json = /json/.test(ex.contentType ?? '') && text !== '';
  const body: unknown = json ? JSON.parse(text) : undefined;
  if (op.item || op.each) {
    const page = result as Page<unknown>;
    assert.ok(page && Array.isArray(page.items), 'the caller gets a page');
    const served = op.item ? servedItems(body) : Array.isArray(body) ? body : [];
    const invalid = page.invalid ?? [];
    if (validUnderDocument) assert.deepEqual(invalid, [], 'no served item set aside');
    assert.equal(page.items.length + invalid.length, served.length, 'every served item is read');
    if (op.each) assert.equal(page.pageInfo, null, 'an unpaged list is one page');
    return;
  }
  if (op.nothing) {
    assert.equal(result, undefined, 'the row answers nothing');
    return;
  }
  if (op.answer) {
    assert.deepEqual(result, op.answer.parse(body), 'the served answer as the row reads it');
    return;
  }
  assert.equal(result, ex.status, 'the caller gets the status sent');
  assert.ok((ex.status ?? 0) >= 200 && (ex.status ?? 0) < 300, 'a 2xx status');
}

/**
 * The request carries what the caller gave: the body as the row's schema makes it (JSON), and a
 * query parameter for every query field given a value, and no other.
 */
export function checkSent(
  op: Operation,
  ex: Pick<Exchange, 'url' | 'requestBody'>,
  inputs: readonly unknown[],
): void {
  if (op.body) {
    const made = op.body.parse(inputs[0]);
    assert.deepEqual(
      ex.requestBody,
      made === undefined ? undefined : JSON.parse(JSON.stringify(made)),
      'the body sent',
    );
  }
  const given = op.query ? (op.query.parse(inputs[op.body ? 1 : 0] ?? {}) as Record<string, unknown>) : {};
  const keys = Object.keys(given).filter((k) => given[k] !== undefined);
  const sent = [...new Set(new URL(ex.url, 'http://x').searchParams.keys())];
  assert.deepEqual(sent.sort(), keys.sort(), 'a query parameter for every query field given');
}

/** The content type a request's body was sent as is one the document publishes for it. */
export function checkContentType(published: Published, sentType: string | undefined, hasBody: boolean): void {
  const content = Object.keys((published.raw.requestBody?.content ?? {}) as Json);
  if (!hasBody) return;
  const media = (sentType ?? '').split(';')[0]!.trim().toLowerCase();
  assert.ok(
    content.some((k) => k.toLowerCase() === media),
    `sent as ${sentType ?? '(no content type)'}; the document publishes ${content.join(', ') || 'no body'}`,
  );
}
