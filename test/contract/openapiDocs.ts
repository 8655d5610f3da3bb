// Loads the live service's published OpenAPI documents (../shared/reference/*.yaml, never copied
// into the project) and maps a request URL to the published operation it calls.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { createDocValidator, type DocValidator } from './openapiValidate';

/** The published documents: the platform API, the Data API, the AI (chat) API and SCIM. */
export type ApiFamily = 'platform' | 'data' | 'ai' | 'scim';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required: boolean;
  /** JSON pointer (inside the document) of the parameter's schema. */
  schemaPointer?: string;
  /** Set when the parameter is JSON-serialised (`content: application/json`). */
  json?: boolean;
}

export interface Operation {
  family: ApiFamily;
  method: HttpMethod;
  /** The path template as published, e.g. `/api/v1/deployments/{deploymentId}`. */
  path: string;
  operationId?: string;
  /** `${method} ${path}`. */
  key: string;
  /** JSON pointer of the operation object inside its document. */
  pointer: string;
  raw: Json;
  parameters: Parameter[];
  doc: ApiDocument;
  /** The document says the response is newline-delimited JSON (each line one instance of the schema). */
  ndjson: boolean;
  /**
   * Set for a route the document does not list but a published client relies on; the value says
   * why it is accepted. Its schemas are those of the operation named in `aliasOf`.
   */
  alias?: string;
}

export interface ApiDocument {
  family: ApiFamily;
  file: string;
  version: string;
  root: Json;
  operations: Operation[];
  validator: DocValidator;
}

export interface Match {
  op: Operation;
  /** Path parameters taken from the URL, decoded. */
  params: Record<string, string>;
  /** The pathname as the document writes it (family base applied). */
  docPath: string;
}

const FILES: Record<ApiFamily, string> = {
  platform: 'platform-api.yaml',
  data: 'data-api.yaml',
  ai: 'ai-api.yaml',
  scim: 'scim-api.yaml',
};
const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Routes the documents do not list but that a published client uses by default. `GET /v1/load`
 * with the JSON query in `?query=` is what `@cubejs-client/core` sends for short queries (and Cube's
 * REST API reference documents it); it answers like `POST /v1/load`.
 */
export const KNOWN_ALIASES: {
  family: ApiFamily;
  method: HttpMethod;
  path: string;
  aliasOf: string;
  parameters: { name: string; required: boolean; schema: Json; json?: boolean }[];
  why: string;
}[] = [
  {
    family: 'data',
    method: 'GET',
    path: '/v1/load',
    aliasOf: 'POST /v1/load',
    parameters: [
      {
        name: 'query',
        required: true,
        json: true,
        schema: { $ref: '#/components/schemas/V1LoadRequestQuery' },
      },
      { name: 'queryType', required: false, schema: { type: 'string' } },
      {
        name: 'cache',
        required: false,
        schema: { $ref: '#/components/schemas/V1LoadRequest/properties/cache' },
      },
    ],
    why: 'GET /v1/load?query=… is the default of the official client @cubejs-client/core for short queries; answered like POST /v1/load.',
  },
];

/**
 * Defects of the published documents that no valid request or response could satisfy, corrected
 * in memory (the files are never changed) and listed here with the reason.
 */
export const DOCUMENT_FIXES: {
  family: ApiFamily;
  pointer: string;
  fix: (node: Json) => Json;
  why: string;
}[] = [
  ...(['UserListResponse', 'GroupListResponse'] as const).map((name) => ({
    family: 'scim' as const,
    pointer: `/components/schemas/${name}`,
    fix: (node: Json) => ({ ...node, required: ['totalResults', 'Resources'] }),
    why: 'RFC 7644 3.4.2 requires totalResults, and Resources whenever totalResults is not 0; the document marks neither, so `{}` would pass for an empty list (the client refuses it)',
  })),
  {
    family: 'platform',
    pointer: '/components/schemas/PythonAnalysisFilteredRun/properties/outputData',
    fix: (node) => ({ ...node, anyOf: node.oneOf, oneOf: undefined }),
    why: "a python run's outputData is oneOf `{}` (anything) and null, so null matches both and fails oneOf, though the field is published as nullable; read as anyOf",
  },
  {
    family: 'data',
    pointer: '/components/schemas/V1LoadRequestQueryFilterItem',
    fix: (node) => ({ ...node, anyOf: node.oneOf, oneOf: undefined }),
    why: 'a filter is oneOf three object schemas with only optional properties, so every filter matches all three and fails oneOf; read as anyOf',
  },
];

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Repo root: two levels above out/test/contract (compiled) or test/contract (sources). */
export function repoRoot(): string {
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src'))) return dir;
    dir = resolve(dir, '..');
  }
  return process.cwd();
}

/** Where the documents are: `../shared/reference` relative to the repo root. */
export const referenceDir = (root = repoRoot()) => resolve(root, '..', 'shared', 'reference');

export const SKIP_MESSAGE = 'skipped: ../shared/reference not found';

let cached: Reference | undefined | null = null;

/**
 * Reads the four documents. Returns undefined when `../shared/reference` is absent (suites then
 * print SKIP_MESSAGE and skip). Cached per process.
 */
export function loadReference(dir = referenceDir()): Reference | undefined {
  if (cached !== null && dir === referenceDir()) return cached;
  const ref = existsSync(dir) ? new Reference(dir) : undefined;
  if (dir === referenceDir()) cached = ref;
  return ref;
}

/** For a mocha `before`: loads the documents or prints why the suite is skipped and skips it. */
export function requireReference(ctx: Mocha.Context): Reference {
  const ref = loadReference();
  if (!ref) {
    console.log(`      ${SKIP_MESSAGE} (looked in ${referenceDir()})`);
    ctx.skip();
  }
  return ref as Reference;
}

interface Compiled {
  op: Operation;
  regex: RegExp;
  names: string[];
  literals: number;
}

export class Reference {
  readonly docs: Record<ApiFamily, ApiDocument>;
  private readonly compiled: Compiled[] = [];

  constructor(readonly dir: string) {
    const docs = {} as Record<ApiFamily, ApiDocument>;
    for (const family of Object.keys(FILES) as ApiFamily[]) {
      const file = join(dir, FILES[family]);
      const root = parse(readFileSync(file, 'utf8')) as Json;
      for (const f of DOCUMENT_FIXES.filter((x) => x.family === family)) {
        const parts = f.pointer.split('/').slice(1);
        const parent = resolvePointer(root, `/${parts.slice(0, -1).join('/')}`);
        const last = parts[parts.length - 1]!;
        if (parent?.[last]) parent[last] = JSON.parse(JSON.stringify(f.fix(parent[last])));
      }
      const doc: ApiDocument = {
        family,
        file,
        version: String(root.openapi),
        root,
        operations: [],
        validator: createDocValidator(family, root),
      };
      for (const [path, item] of Object.entries(root.paths ?? {}) as [string, Json][]) {
        for (const method of METHODS) {
          const raw = item[method.toLowerCase()];
          if (!raw) continue;
          const pointer = `/paths/${escapePointer(path)}/${method.toLowerCase()}`;
          doc.operations.push({
            family,
            method,
            path,
            operationId: raw.operationId,
            key: `${method} ${path}`,
            pointer,
            raw,
            parameters: collectParameters(root, item, raw, pointer, `/paths/${escapePointer(path)}`),
            doc,
            ndjson: /newline-delimited/i.test(
              `${raw.description ?? ''} ${JSON.stringify(raw.responses?.['200']?.description ?? '')}`,
            ),
          });
        }
      }
      docs[family] = doc;
    }
    for (const a of KNOWN_ALIASES) {
      const doc = docs[a.family];
      const target = doc.operations.find((o) => o.key === a.aliasOf);
      if (!target) continue;
      const parameters = a.parameters.map((p, i) => {
        const pointer = doc.validator.addSyntheticSchema(`alias-${a.method}-${a.path}-${i}`, p.schema);
        return {
          name: p.name,
          in: 'query' as const,
          required: p.required,
          schemaPointer: pointer,
          json: p.json,
        };
      });
      doc.operations.push({
        ...target,
        method: a.method,
        key: `${a.method} ${a.path}`,
        parameters,
        alias: a.why,
      });
    }
    this.docs = docs;
    for (const doc of Object.values(docs))
      for (const op of doc.operations) {
        const names: string[] = [];
        const source = op.path
          .split('/')
          .map((seg) => {
            const m = /^\{(.+)\}$/.exec(seg);
            if (!m) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            names.push(m[1]!);
            return '([^/]+)';
          })
          .join('/');
        this.compiled.push({
          op,
          regex: new RegExp(`^${source}$`),
          names,
          literals: op.path.split('/').length - names.length,
        });
      }
  }

  /** Every published operation (and the known aliases) of a family. */
  operations(family?: ApiFamily): Operation[] {
    return Object.values(this.docs)
      .filter((d) => !family || d.family === family)
      .flatMap((d) => d.operations);
  }

  /** The operation with this key (`GET /api/v1/app-config`) in a family. */
  operation(family: ApiFamily, key: string): Operation {
    const op = this.docs[family].operations.find((o) => o.key === key);
    if (!op) throw new Error(`${family}: no published operation ${key}`);
    return op;
  }

  /**
   * The published operation a request calls. `pathname` is the URL's path as sent:
   * platform `/api/v1/…` or `/build/api/v1/…` on the tenant host (a bare `/v1/…` is read as
   * `/api/v1/…`; `/api/scim/v2/…` is handed to the SCIM document); data `<anything>/cubejs-api/v1/…`
   * or `/v1/…`; ai `<agent base>/chat/…`; scim `/api/scim/v2/…` or `/scim/v2/…`.
   */
  match(family: ApiFamily, method: string, pathname: string): Match | undefined {
    const target = docPathOf(family, pathname);
    if (!target) return undefined;
    let best: { c: Compiled; m: RegExpExecArray } | undefined;
    for (const c of this.compiled) {
      if (c.op.family !== target.family || c.op.method !== method.toUpperCase()) continue;
      const m = c.regex.exec(target.path);
      if (m && (!best || c.literals > best.c.literals)) best = { c, m };
    }
    if (!best) return undefined;
    const params: Record<string, string> = {};
    best.c.names.forEach((n, i) => (params[n] = decodeURIComponent(best.m[i + 1]!)));
    return { op: best.c.op, params, docPath: target.path };
  }

  /** Whether some method is published for this path (tells "unknown path" from "method not published"). */
  pathPublished(family: ApiFamily, pathname: string): boolean {
    const target = docPathOf(family, pathname);
    return !!target && this.compiled.some((c) => c.op.family === target.family && c.regex.test(target.path));
  }
}

/** Maps a URL path to (document, path as the document writes it). */
export function docPathOf(
  family: ApiFamily,
  pathname: string,
): { family: ApiFamily; path: string } | undefined {
  const p = pathname.replace(/\/+$/, '') || '/';
  if (family === 'platform' || family === 'scim') {
    if (p.startsWith('/api/scim/')) return { family: 'scim', path: p.slice(4) };
    if (p.startsWith('/scim/')) return { family: 'scim', path: p };
    if (family === 'scim') return undefined;
    if (p.startsWith('/api/') || p.startsWith('/build/api/')) return { family, path: p };
    if (p.startsWith('/v1/')) return { family, path: `/api${p}` };
    return undefined;
  }
  if (family === 'data') {
    const i = p.indexOf('/cubejs-api/');
    if (i >= 0) return { family, path: p.slice(i + '/cubejs-api'.length) };
    const j = p.lastIndexOf('/v1/');
    return j >= 0 ? { family, path: p.slice(j) } : undefined;
  }
  const i = p.lastIndexOf('/chat/');
  return i >= 0 ? { family, path: p.slice(i) } : undefined;
}

/**
 * The family of a request by the sandbox's URL layout (src/sandbox/server.ts): `/api/scim/…` SCIM,
 * `/api/…` and `/build/api/…` platform, `…/cubejs-api/…` Data API, `/ai/…/chat/…` AI.
 */
export function familyOf(pathname: string): ApiFamily | undefined {
  if (pathname.startsWith('/api/scim/')) return 'scim';
  if (pathname === '/api' || pathname.startsWith('/api/') || pathname.startsWith('/build/api/'))
    return 'platform';
  if (pathname.includes('/cubejs-api/')) return 'data';
  if (pathname.startsWith('/ai/') && pathname.includes('/chat/')) return 'ai';
  return undefined;
}

function collectParameters(
  root: Json,
  item: Json,
  op: Json,
  opPointer: string,
  itemPointer: string,
): Parameter[] {
  const out = new Map<string, Parameter>();
  const add = (list: Json[] | undefined, base: string) =>
    (list ?? []).forEach((raw: Json, i: number) => {
      let p = raw;
      let pointer = `${base}/parameters/${i}`;
      if (p.$ref) {
        pointer = String(p.$ref).slice(1);
        p = resolvePointer(root, pointer);
      }
      const json = !p.schema && !!p.content?.['application/json'];
      out.set(`${p.in}:${p.name}`, {
        name: p.name,
        in: p.in,
        required: !!p.required || p.in === 'path',
        schemaPointer: p.schema
          ? `${pointer}/schema`
          : json
            ? `${pointer}/content/application~1json/schema`
            : undefined,
        json,
      });
    });
  add(item.parameters, itemPointer);
  add(op.parameters, opPointer);
  return [...out.values()];
}

export function resolvePointer(root: Json, pointer: string): Json {
  let node = root;
  for (const part of pointer.split('/').slice(1)) {
    node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}
