// Validates requests and responses against the published operation with Ajv (OpenAPI 3.1 schemas
// are JSON Schema 2020-12; the 3.0 Data API document uses no 3.0-only keyword Ajv cannot read).
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ApiFamily, Json, Operation } from './openapiDocs';

export interface DocValidator {
  /** A validator for the schema at `pointer` inside the document (cached). */
  at(pointer: string): ValidateFunction;
  /** The same, but an object property the document does not declare is an error. */
  strictAt(pointer: string): ValidateFunction;
  /** Registers a schema written against the document (its `$ref`s resolve in it); returns its pointer. */
  addSyntheticSchema(name: string, schema: Json): string;
}

const SYNTHETIC = 'x-contract-synthetic';

export function createDocValidator(family: ApiFamily, root: Json): DocValidator {
  const id = `https://contract.local/${family}.json`;
  let ajv: Ajv2020 | undefined;
  let strictAjv: Ajv2020 | undefined;
  const cache = new Map<string, ValidateFunction>();
  const make = (doc: Json) => {
    const a = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, validateFormats: true });
    addFormats(a);
    // Formats the documents use that ajv-formats does not define are annotations only.
    for (const f of collectFormats(root)) if (!a.formats[f]) a.addFormat(f, true);
    a.addSchema({ ...doc, $id: id }, id);
    return a;
  };
  const init = () => (ajv ??= make(root));
  const initStrict = () => (strictAjv ??= make(closeObjects(root, false)));
  return {
    at(pointer) {
      let v = cache.get(pointer);
      if (!v) {
        v = init().compile({ $ref: `${id}#${pointer}` });
        cache.set(pointer, v);
      }
      return v;
    },
    strictAt(pointer) {
      let v = cache.get(`strict:${pointer}`);
      if (!v) {
        v = initStrict().compile({ $ref: `${id}#${pointer}` });
        cache.set(`strict:${pointer}`, v);
      }
      return v;
    },
    addSyntheticSchema(name, schema) {
      if (ajv) throw new Error('synthetic schemas must be added before the first validation');
      root[SYNTHETIC] = { ...(root[SYNTHETIC] ?? {}), [name]: schema };
      return `/${SYNTHETIC}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    },
  };
}

/**
 * A copy where every object schema with declared properties refuses undeclared ones
 * (`unevaluatedProperties: false`), except where the document says otherwise and inside `allOf`
 * (whose members each see only their own properties).
 */
function closeObjects(node: Json, inAllOf: boolean): Json {
  if (Array.isArray(node)) return node.map((n) => closeObjects(n, inAllOf));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = closeObjects(v, k === 'allOf');
  if (node.properties && typeof node.properties === 'object' && !inAllOf)
    if (node.additionalProperties === undefined && node.unevaluatedProperties === undefined)
      out.unevaluatedProperties = false;
  return out;
}

function collectFormats(node: Json, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => collectFormats(n, out));
  else if (node && typeof node === 'object') {
    if (typeof node.format === 'string') out.add(node.format);
    for (const v of Object.values(node)) collectFormats(v, out);
  }
  return out;
}

export interface ValidationResult {
  ok: boolean;
  /** Readable violations, one sentence each (where, what). */
  errors: string[];
  /** Things the document does not judge (e.g. an error status it does not describe). */
  notes: string[];
}

export interface RequestParts {
  query?: URLSearchParams | Record<string, string | string[]>;
  body?: unknown;
  /** Path parameters (from `Reference.match`). */
  params?: Record<string, string>;
  /** The request's content type when it has a body. */
  contentType?: string;
  /** A body property the document does not declare is an error (what a careful client sends). */
  strict?: boolean;
}

const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? 'undefined' : s.length > 80 ? `${s.slice(0, 77)}...` : s;
};

export function formatErrors(where: string, errors: ErrorObject[] | null | undefined): string[] {
  if (!errors?.length) return [];
  // oneOf/anyOf report every failed branch; keep the most specific (deepest) messages first.
  const sorted = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const e of sorted) {
    const extra =
      e.keyword === 'enum'
        ? ` ${show((e.params as { allowedValues?: unknown }).allowedValues)}`
        : e.keyword === 'additionalProperties'
          ? ` (${(e.params as { additionalProperty?: string }).additionalProperty})`
          : e.keyword === 'unevaluatedProperties'
            ? ` (${(e.params as { unevaluatedProperty?: string }).unevaluatedProperty}: not declared)`
            : '';
    const line = `${where}${e.instancePath || ''}: ${e.message ?? e.keyword}${extra} [${e.schemaPath}]`;
    if (!seen.has(line)) out.push(line);
    seen.add(line);
    if (out.length >= 12) break;
  }
  return out;
}

function candidates(raw: string[]): unknown[] {
  const one = raw[raw.length - 1]!;
  const out: unknown[] = [one];
  if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(one)) out.push(Number(one));
  if (one === 'true' || one === 'false') out.push(one === 'true');
  if (one === 'null') out.push(null);
  const arrays = [raw, one.split(',')];
  for (const a of arrays) {
    out.push(a);
    out.push(a.map((x) => (/^-?\d+(\.\d+)?$/.test(x) ? Number(x) : x)));
  }
  return out;
}

/**
 * Checks a request against the operation: path parameters, declared query parameters (an
 * undeclared one is a violation), required parameters, and the JSON body.
 */
export function validateRequest(op: Operation, parts: RequestParts): ValidationResult {
  const errors: string[] = [];
  const v = op.doc.validator;
  const query = new Map<string, string[]>();
  if (parts.query instanceof URLSearchParams) {
    for (const [k, val] of parts.query) query.set(k, [...(query.get(k) ?? []), val]);
  } else
    for (const [k, val] of Object.entries(parts.query ?? {})) query.set(k, Array.isArray(val) ? val : [val]);

  for (const p of op.parameters) {
    if (p.in !== 'query' && p.in !== 'path') continue;
    const raw =
      p.in === 'path'
        ? parts.params?.[p.name] !== undefined
          ? [parts.params[p.name]!]
          : undefined
        : query.get(p.name);
    if (!raw) {
      if (p.required) errors.push(`${p.in} parameter ${p.name}: required but missing`);
      continue;
    }
    if (!p.schemaPointer) continue;
    const validate = v.at(p.schemaPointer);
    if (p.json) {
      let value: unknown;
      try {
        value = JSON.parse(raw[raw.length - 1]!);
      } catch {
        errors.push(`${p.in} parameter ${p.name}: not JSON`);
        continue;
      }
      if (!validate(value)) errors.push(...formatErrors(`${p.in} parameter ${p.name}`, validate.errors));
      continue;
    }
    const ok = candidates(raw).some((c) => validate(c));
    if (!ok) {
      errors.push(`${p.in} parameter ${p.name}=${show(raw.join(','))}: not valid for the published schema`);
    }
  }
  const declared = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  for (const k of query.keys())
    if (!declared.has(k)) errors.push(`query parameter ${k}: not declared by ${op.key}`);

  const rb = op.raw.requestBody;
  if (parts.body === undefined) {
    if (rb?.required) errors.push('body: required but missing');
  } else if (!rb) {
    errors.push(`body: ${op.key} declares no request body`);
  } else {
    const multipart = /^multipart\/form-data\b/i.test(parts.contentType ?? '');
    if (multipart && rb.content?.['multipart/form-data']?.schema) {
      // Form fields as parsed by the servers (a file part reads as a string); the published
      // schema is an allOf, so it is never judged strictly.
      const validate = v.at(`${op.pointer}/requestBody/content/multipart~1form-data/schema`);
      if (!validate(parts.body)) errors.push(...formatErrors('body', validate.errors));
      return { ok: errors.length === 0, errors, notes: [] };
    }
    if (parts.contentType && !/json/i.test(parts.contentType))
      errors.push(
        `body: content type ${parts.contentType}, the document declares ${Object.keys(rb.content ?? {}).join(', ')}`,
      );
    if (rb.content?.['application/json']?.schema) {
      const pointer = `${op.pointer}/requestBody/content/application~1json/schema`;
      const validate = parts.strict ? v.strictAt(pointer) : v.at(pointer);
      if (!validate(parts.body)) errors.push(...formatErrors('body', validate.errors));
    }
  }
  return { ok: errors.length === 0, errors, notes: [] };
}

/** The response object the document declares for a status (exact, then `4XX`, then `default`). */
export function responseFor(op: Operation, status: number): { key: string; raw: Json } | undefined {
  const rs = op.raw.responses ?? {};
  for (const key of [String(status), `${String(status)[0]}XX`, 'default'])
    if (rs[key]) return { key, raw: rs[key] };
  return undefined;
}

/**
 * Checks a response. `body` is the raw text (a string: parsed here, line by line when the document
 * says the response is newline-delimited JSON) or an already parsed value.
 */
export function validateResponse(
  op: Operation,
  status: number,
  contentType: string | undefined,
  body: unknown,
): ValidationResult {
  const errors: string[] = [];
  const notes: string[] = [];
  const declared = responseFor(op, status);
  const empty = body === undefined || body === '' || (Buffer.isBuffer(body) && body.length === 0);
  if (!declared) {
    if (status >= 400) {
      notes.push(
        `status ${status}: not described by ${op.key} (the document lists ${Object.keys(op.raw.responses ?? {}).join(', ')})`,
      );
      return { ok: true, errors, notes };
    }
    return { ok: false, errors: [`status ${status}: not published for ${op.key}`], notes };
  }
  const content = declared.raw.content as Record<string, Json> | undefined;
  if (!content || Object.keys(content).length === 0) {
    if (!empty) errors.push(`body: status ${declared.key} declares no content but a body was sent`);
    return { ok: errors.length === 0, errors, notes };
  }
  if (empty)
    return {
      ok: false,
      errors: [
        `body: status ${declared.key} declares ${Object.keys(content).join(', ')} but the body is empty`,
      ],
      notes,
    };
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const mediaKey = Object.keys(content).find((k) => k.split(';')[0]!.trim().toLowerCase() === type);
  if (!mediaKey) {
    errors.push(
      `content-type ${contentType ?? '(none)'}: the document declares ${Object.keys(content).join(', ')}`,
    );
    return { ok: false, errors, notes };
  }
  const media = content[mediaKey];
  if (!/json/.test(type) || !media?.schema) return { ok: errors.length === 0, errors, notes };
  const validate = op.doc.validator.at(
    `${op.pointer}/responses/${declared.key}/content/${mediaKey.replace(/~/g, '~0').replace(/\//g, '~1')}/schema`,
  );
  const text = typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : undefined;
  const values: { where: string; value: unknown }[] = [];
  if (text === undefined) values.push({ where: 'body', value: body });
  else if (op.ndjson && status < 300) {
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    lines.forEach((l, i) => {
      try {
        values.push({ where: `line ${i + 1}`, value: JSON.parse(l) });
      } catch {
        errors.push(`line ${i + 1}: not JSON: ${show(l)}`);
      }
    });
  } else {
    try {
      values.push({ where: 'body', value: JSON.parse(text) });
    } catch {
      errors.push(`body: not JSON: ${show(text)}`);
    }
  }
  for (const { where, value } of values)
    if (!validate(value)) errors.push(...formatErrors(where, validate.errors));
  return { ok: errors.length === 0, errors, notes };
}
