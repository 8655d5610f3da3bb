// Generates responses (and request bodies) from the published schemas with json-schema-faker,
// deterministically (seeded), in variants that exercise a tolerant reader.
import jsf from 'json-schema-faker';
import { sample } from 'openapi-sampler';
import { rng } from '../../src/shared/random';
import type { Json, Operation } from './openapiDocs';
import { formatErrors, responseFor } from './openapiValidate';

/**
 * - allOptional: every optional property present.
 * - requiredOnly: only required properties.
 * - nulls: every optional property present, null wherever the document allows null.
 * - extraProperties: allOptional plus an unpublished property in every object that allows one.
 * - unknownEnums: allOptional with every string enum replaced by a value the document does not list
 *   (not valid under the document: a value the service may add later).
 * - random: optional properties present with probability 1/2, chosen by the seed.
 */
export type Variant =
  'allOptional' | 'requiredOnly' | 'nulls' | 'extraProperties' | 'unknownEnums' | 'random';
export const VARIANTS: Variant[] = [
  'allOptional',
  'requiredOnly',
  'nulls',
  'extraProperties',
  'unknownEnums',
  'random',
];
export const RANDOM_SEEDS = [1, 2, 3];
export const EXTRA_PROPERTY = 'x_unpublished_extra';
export const UNKNOWN_ENUM_VALUE = 'UNPUBLISHED_ENUM_VALUE';

export interface Generated {
  variant: Variant;
  seed: number;
  /** The value (for an NDJSON operation, the first line). */
  value: unknown;
  /** NDJSON operations: each line's value. */
  lines?: unknown[];
  /** The body as sent on the wire. */
  text: string;
  contentType?: string;
  /** False for unknownEnums (by design) and for a value the generator could not make valid. */
  validUnderDocument: boolean;
}

export interface GeneratedResponse extends Generated {
  status: number;
}

const isNullSchema = (s: Json) =>
  s && typeof s === 'object' && s.type === 'null' && Object.keys(s).length === 1;

// json-schema-faker's clean-up step misreads a property named like a schema keyword (a list's
// `items` property is read as the array keyword and crashes it): such property names are renamed
// before generating and renamed back in the value.
const KEYWORD_NAMES = new Set([
  'items',
  'properties',
  'type',
  'enum',
  'required',
  'format',
  'default',
  'pattern',
  'const',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'additionalProperties',
  'description',
  'title',
  'example',
  'examples',
  '$ref',
]);
const RENAMED = /^__kw_(.+)__$/;
const rename = (k: string) => (KEYWORD_NAMES.has(k) ? `__kw_${k}__` : k);

/** A copy of the document with the variant's schema rewrite applied (and keyword-named properties renamed). */
function transform(node: Json, variant: Variant | 'base'): Json {
  if (Array.isArray(node)) return node.map((n) => transform(n, variant));
  if (!node || typeof node !== 'object') return node;
  const union = (node.oneOf ?? node.anyOf) as Json[] | undefined;
  const nullable = Array.isArray(union) && union.some(isNullSchema) && !node.type;
  if (variant === 'nulls') {
    if (nullable) return { type: 'null' };
    if (Array.isArray(node.type) && node.type.includes('null')) return { type: 'null' };
  } else if (nullable && union.length === 2) {
    // Other variants present the value; json-schema-faker also loses track of an array's `items`
    // inside a union (and crashes), so the union is replaced by its non-null branch.
    const { oneOf: _o, anyOf: _a, ...rest } = node;
    return transform({ ...rest, ...union.find((b) => !isNullSchema(b)) }, variant);
  }
  if (
    variant === 'unknownEnums' &&
    Array.isArray(node.enum) &&
    node.enum.every((e: unknown) => typeof e === 'string')
  )
    return { type: 'string', enum: [UNKNOWN_ENUM_VALUE] };
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'properties' && v && typeof v === 'object' && !Array.isArray(v)) {
      out[k] = Object.fromEntries(
        Object.entries(v).map(([name, sub]) => [rename(name), transform(sub, variant)]),
      );
    } else if (k === 'required' && Array.isArray(v))
      out[k] = v.map((n) => (typeof n === 'string' ? rename(n) : n));
    else out[k] = transform(v, variant);
  }
  return out;
}

function unrename(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unrename);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [RENAMED.exec(k)?.[1] ?? k, unrename(v)]));
}

const transformed = new WeakMap<object, Map<string, Json>>();
function rootFor(op: Operation, variant: Variant): Json {
  let m = transformed.get(op.doc.root);
  if (!m) transformed.set(op.doc.root, (m = new Map()));
  const base = variant === 'nulls' || variant === 'unknownEnums' ? variant : 'base';
  let r = m.get(base);
  if (!r) m.set(base, (r = transform(op.doc.root, base)));
  return r;
}

function nodeAt(root: Json, pointer: string): Json {
  let node = root;
  for (const part of pointer.split('/').slice(1)) node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node;
}

const CYCLE = '__contract_cycle__';
/**
 * Inlines every `$ref` (json-schema-faker and openapi-sampler both lose values at deep references);
 * a reference back into its own chain is cut: dropped from a `oneOf`/`anyOf`, `{}` elsewhere.
 */
function deref(root: Json, node: Json, stack: string[]): Json {
  if (Array.isArray(node)) return node.map((n) => deref(root, n, stack));
  if (!node || typeof node !== 'object') return node;
  if (typeof node.$ref === 'string') {
    const { $ref, ...rest } = node;
    if (stack.includes($ref)) return { [CYCLE]: true };
    const target = deref(root, nodeAt(root, $ref.slice(1)), [...stack, $ref]);
    return Object.keys(rest).length ? { ...deref(root, rest, stack), ...target } : target;
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    let d = deref(root, v, stack);
    if ((k === 'oneOf' || k === 'anyOf') && Array.isArray(d)) d = d.filter((b: Json) => !b?.[CYCLE]);
    out[k] = d?.[CYCLE] ? {} : d;
  }
  return out;
}

const derefCache = new WeakMap<object, Map<string, Json>>();
function schemaAt(root: Json, pointer: string): Json {
  let m = derefCache.get(root);
  if (!m) derefCache.set(root, (m = new Map()));
  let s = m.get(pointer);
  if (!s) m.set(pointer, (s = deref(root, nodeAt(root, pointer), [])));
  return s;
}

// Formats json-schema-faker does not know (it would emit a random word).
jsf.format('url', () => 'https://example.com/resource');

function fake(root: Json, pointer: string, variant: Variant, seed: number): unknown {
  const schema = schemaAt(root, pointer);
  if (schema === undefined) throw new Error(`no schema at ${pointer}`);
  jsf.option({
    random: rng(seed * 7919 + variant.length),
    alwaysFakeOptionals: variant !== 'requiredOnly' && variant !== 'random',
    requiredOnly: variant === 'requiredOnly',
    optionalsProbability: variant === 'random' ? 0.5 : false,
    fillProperties: false,
    useExamplesValue: false,
    useDefaultValue: false,
    failOnInvalidFormat: false,
    failOnInvalidTypes: false,
    ignoreMissingRefs: true,
    minItems: variant === 'random' ? 0 : 1,
    maxItems: variant === 'random' ? 3 : 2,
    refDepthMax: 12,
    omitNulls: false,
  });
  return unrename(jsf.generate(schema as never));
}

function addExtras(value: unknown): void {
  if (Array.isArray(value)) value.forEach(addExtras);
  else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) addExtras(v);
    (value as Record<string, unknown>)[EXTRA_PROPERTY] = 'a field the document does not publish';
  }
}

function at(value: unknown, instancePath: string): unknown {
  let node = value as Json;
  for (const part of instancePath.split('/').slice(1))
    node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node;
}

function removeExtras(value: unknown): void {
  if (Array.isArray(value)) value.forEach(removeExtras);
  else if (value && typeof value === 'object') {
    delete (value as Record<string, unknown>)[EXTRA_PROPERTY];
    for (const v of Object.values(value)) removeExtras(v);
  }
}

/**
 * Generates a value for the schema at `pointer` of the operation's document. Valid variants are
 * validated and regenerated with the next seeds until valid (json-schema-faker may pick a `oneOf`
 * branch whose value also matches another branch); `validUnderDocument` says whether that worked.
 */
export function generateAt(
  op: Operation,
  pointer: string,
  variant: Variant,
  seed = 1,
): { value: unknown; valid: boolean; errors: string[] } {
  const validate = op.doc.validator.at(pointer);
  const root = rootFor(op, variant);
  let last: { value: unknown; errors: string[] } | undefined;
  const attempts: (() => unknown)[] = [];
  for (let attempt = 0; attempt < 6; attempt++)
    attempts.push(() => fake(root, pointer, variant, seed + attempt * 1000));
  // openapi-sampler (deterministic, follows deep references) when json-schema-faker cannot.
  attempts.push(() =>
    unrename(
      sample(schemaAt(root, pointer), {
        skipNonRequired: variant === 'requiredOnly',
        quiet: true,
        maxSampleDepth: 30,
      }),
    ),
  );
  for (const make of attempts) {
    let value: unknown;
    try {
      value = make();
    } catch (e) {
      last = {
        value: undefined,
        errors: [`generator failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`],
      };
      continue;
    }
    if (variant === 'unknownEnums') return { value, valid: false, errors: [] };
    if (variant === 'extraProperties') {
      addExtras(value);
      // Drop the extra property where the document forbids it (additionalProperties: false, typed maps).
      for (let round = 0; round < 30 && !validate(value); round++) {
        for (const e of validate.errors ?? []) {
          const extra = (e.params as { additionalProperty?: string }).additionalProperty;
          if (extra === EXTRA_PROPERTY)
            delete (at(value, e.instancePath) as Record<string, unknown>)[EXTRA_PROPERTY];
          else if (e.instancePath.endsWith(`/${EXTRA_PROPERTY}`))
            delete (
              at(value, e.instancePath.slice(0, -EXTRA_PROPERTY.length - 1)) as Record<string, unknown>
            )[EXTRA_PROPERTY];
          else removeExtras(at(value, e.instancePath));
        }
      }
    }
    if (validate(value)) return { value, valid: true, errors: [] };
    last = { value, errors: formatErrors('generated', validate.errors) };
  }
  return { value: last!.value, valid: false, errors: last!.errors };
}

/** The statuses an operation publishes with a JSON schema (2xx first), e.g. [200]. */
export function schemaStatuses(op: Operation): number[] {
  return Object.entries(op.raw.responses ?? {})
    .filter(([k, r]) => /^\d{3}$/.test(k) && (r as Json).content?.['application/json']?.schema)
    .map(([k]) => Number(k))
    .sort((a, b) => a - b);
}

/** The status a mock answers with: the first published 2xx. */
export function successStatus(op: Operation): number {
  const s = Object.keys(op.raw.responses ?? {})
    .filter((k) => /^2\d\d$/.test(k))
    .sort()[0];
  return s ? Number(s) : 200;
}

const MINIMAL_PDF =
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n' +
  'trailer\n<< /Root 1 0 R >>\n%%EOF\n';

/** A response for an operation+status in a variant; NDJSON operations get three lines. */
export function generateResponse(
  op: Operation,
  status: number,
  variant: Variant,
  seed = 1,
): GeneratedResponse {
  const declared = responseFor(op, status);
  const content = declared?.raw.content as Record<string, Json> | undefined;
  const mediaKey = content && Object.keys(content).find((k) => /json/.test(k));
  // A file answer (a dashboard export): the smallest whole PDF, so a client's file checks pass.
  if (declared && !mediaKey && content?.['application/pdf'])
    return {
      status,
      variant,
      seed,
      value: undefined,
      text: MINIMAL_PDF,
      contentType: 'application/pdf',
      validUnderDocument: true,
    };
  if (!declared || !mediaKey)
    return { status, variant, seed, value: undefined, text: '', validUnderDocument: true };
  if (!content![mediaKey]?.schema)
    return {
      status,
      variant,
      seed,
      value: {},
      text: '{}',
      contentType: 'application/json',
      validUnderDocument: true,
    };
  const pointer = `${declared.pointer}/content/${mediaKey.replace(/\//g, '~1')}/schema`;
  if (op.ndjson && status < 300) {
    const lines = [0, 1, 2].map((i) => generateAt(op, pointer, variant, seed + i * 101));
    return {
      status,
      variant,
      seed,
      value: lines[0]!.value,
      lines: lines.map((l) => l.value),
      text: lines.map((l) => `${JSON.stringify(l.value)}\n`).join(''),
      contentType: 'application/json',
      validUnderDocument: lines.every((l) => l.valid),
    };
  }
  return { status, ...jsonAt(op, pointer, variant, seed) };
}

/** The JSON value generated at `pointer`, as a generated answer or body. */
function jsonAt(op: Operation, pointer: string, variant: Variant, seed: number): Generated {
  const g = generateAt(op, pointer, variant, seed);
  return {
    variant,
    seed,
    value: g.value,
    text: JSON.stringify(g.value),
    contentType: 'application/json',
    validUnderDocument: g.valid,
  };
}

/** A request body for an operation (undefined when it declares none). */
export function generateRequestBody(op: Operation, variant: Variant, seed = 1): Generated | undefined {
  if (!op.raw.requestBody?.content?.['application/json']?.schema) return undefined;
  return jsonAt(op, `${op.pointer}/requestBody/content/application~1json/schema`, variant, seed);
}

export interface ResponseCase {
  name: string;
  status: number;
  variant: Variant;
  seed: number;
}

/** Every case of an operation: each JSON-schema status × the fixed variants, plus the random seeds. */
export function responseCases(op: Operation, seeds = RANDOM_SEEDS): ResponseCase[] {
  const out: ResponseCase[] = [];
  for (const status of schemaStatuses(op).filter((s) => s < 300)) {
    for (const variant of VARIANTS.filter((v) => v !== 'random'))
      out.push({ name: `${status} ${variant}`, status, variant, seed: 1 });
    for (const seed of seeds) out.push({ name: `${status} random#${seed}`, status, variant: 'random', seed });
  }
  return out;
}
