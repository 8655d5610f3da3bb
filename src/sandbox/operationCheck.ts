// The one input check of the sandbox's routes that have a row in an operation table
// (src/api/platform/*): before the handler runs, the request must fit the row (path ids, query,
// content type, body), so handlers hold behaviour only and a row added to a table is enforced by
// the sandbox the moment it is declared. The statuses are the published documents': they list no
// 415 or 422 for these operations and describe a refused input as `400` and an unknown resource
// as `404`, so a path id that no resource can have is a 404 and any other refused input a 400.
import type { z } from 'zod';
import { declaredOperations, type Operation } from '../api/platform/rows';

export interface Refusal {
  status: 400 | 404;
  message: string;
  /** On a SCIM route: the RFC 7644 3.12 error type its answer carries. */
  scimType?: 'invalidSyntax' | 'invalidValue';
}

export interface OperationRow {
  name: string;
  op: Operation;
}

const PARAM = /^\{(.+)\}$/;
const segmentsOf = (path: string) => path.split('/').filter((s) => s.length > 0);

/** A route's shape (`POST /v1/deployments/*`), the same for `{id}` and `:id` parameter spellings. */
export function shapeKey(method: string, segments: readonly string[]): string {
  return `${method} /${segments.map((s) => (s.startsWith(':') || PARAM.test(s) ? '*' : s)).join('/')}`;
}

let index: Map<string, OperationRow> | undefined;

/** The row of a platform route (method and `:name` pattern segments), if its operation has one. */
export function operationOf(method: string, segments: readonly string[]): OperationRow | undefined {
  if (!index) {
    index = new Map();
    for (const { name, op } of declaredOperations())
      index.set(shapeKey(op.method, segmentsOf(op.path)), { name, op });
  }
  return index.get(shapeKey(method, segments));
}

export interface CheckedRequest {
  /** The family-relative path as requested (`/v1/deployments/1/folders`). */
  path: string;
  query: URLSearchParams;
  /** The parsed JSON body; `undefined` when none was sent. */
  body: unknown;
  /** Whether the request carried a body at all. */
  hasBody: boolean;
  contentType: string | undefined;
}

/** Media types a JSON body may be sent as (SCIM also accepts its own, as its document says). */
function jsonType(path: string, contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || (path.startsWith('/scim/') && type === 'application/scim+json');
}

/** A SCIM error body (RFC 7644 3.12: `detail`, `status` as text), the shape the SCIM document gives. */
export function scimErrorBody(status: number, detail: string, scimType?: string): Record<string, unknown> {
  return {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
    status: String(status),
    detail,
    ...(scimType ? { scimType } : {}),
  };
}

/** The answer's body of a refusal: SCIM's error shape on its routes, the platform's otherwise. */
export function refusalBody(r: Refusal, requestId: string): Record<string, unknown> {
  return r.scimType ? scimErrorBody(r.status, r.message, r.scimType) : { error: r.message, requestId };
}

/**
 * SCIM paths are family-relative like the platform's but not under /api/v1: their document answers
 * a bad request in its own error shape, with the RFC 7644 3.12 type of the fault.
 */
const scim = (op: Operation, scimType: Refusal['scimType']) =>
  op.path.startsWith('/scim/') ? { scimType } : {};

/** Why the request does not fit its operation's row, or undefined when it does. */
export function checkRequest(row: OperationRow, req: CheckedRequest): Refusal | undefined {
  const { op } = row;
  const parts = segmentsOf(req.path);
  const template = segmentsOf(op.path);
  for (let i = 0; i < template.length; i++) {
    const name = PARAM.exec(template[i]!)?.[1];
    if (!name || op.text?.includes(name)) continue;
    const value = decode(parts[i] ?? '');
    if (!/^[1-9]\d*$/.test(value))
      return {
        status: 404,
        message: `${name} "${value}" is not an id: ids are whole numbers of at least 1.`,
      };
  }
  const queryRefused = op.query && checkQuery(op.query, req.query);
  if (queryRefused) return { status: 400, message: queryRefused, ...scim(op, 'invalidValue') };
  if (op.body) {
    if (req.hasBody && !jsonType(op.path, req.contentType))
      return {
        status: 400,
        message: `${op.method} ${op.path} takes a JSON body: send it with "Content-Type: application/json" (got "${req.contentType ?? ''}").`,
        ...scim(op, 'invalidSyntax'),
      };
    const parsed = op.body.safeParse(req.body);
    if (!parsed.success)
      return {
        status: 400,
        message: `Invalid body: ${describe(parsed.error)}`,
        ...scim(op, 'invalidSyntax'),
      };
  }
  return undefined;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const describe = (error: z.ZodError) =>
  error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') : 'the body'}: ${i.message}`)
    .join('; ');

/**
 * The query against the row's query schema: every key the schema requires must be present, and
 * each value sent must be one the schema accepts in some wire spelling (text, number, true/false,
 * a list by repetition or by commas); then the values together must pass the schema's own rules
 * (one parameter or another, two that go together). A schema without a shape is not checked.
 */
function checkQuery(schema: z.ZodType, query: URLSearchParams): string | undefined {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape) return undefined;
  const values: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    const sent = query.getAll(key);
    if (sent.length === 0) {
      if (!field.safeParse(undefined).success) return `The query parameter ${key} is required.`;
      continue;
    }
    const first = sent[0]!;
    const spellings: unknown[] = [sent.length > 1 ? sent : first, sent, first.split(',')];
    if (first.trim() !== '' && Number.isFinite(Number(first))) spellings.push(Number(first));
    if (first === 'true' || first === 'false') spellings.push(first === 'true');
    const accepted = spellings.find((v) => field.safeParse(v).success);
    if (accepted === undefined)
      return `The query parameter ${key} has a value its operation does not accept ("${sent.join('", "')}").`;
    values[key] = accepted;
  }
  const whole = schema.safeParse(values);
  return whole.success ? undefined : whole.error.issues[0]?.message;
}
