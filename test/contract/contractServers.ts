// Two real HTTP servers on 127.0.0.1 for contract tests: a validating recording proxy (forwards to
// a target, judges every request and response by the published documents) and a mock server
// (answers any published operation with a generated response of a chosen variant).
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { familyOf, type ApiFamily, type Match, type Reference } from './openapiDocs';
import { generateResponse, successStatus, type Variant } from './openapiGenerate';
import { negotiate } from '../../src/sandbox/http';
import { responseFor, validateRequest, validateResponse } from './openapiValidate';

/** The media types of an operation's success answers, as its document lists them (no parameters). */
export function servedTypes(op: Match['op']): string[] {
  const types = new Set<string>();
  for (const status of Object.keys(op.raw.responses ?? {}).filter((k) => /^2\d\d$/.test(k))) {
    const content = responseFor(op, Number(status))?.raw.content as Record<string, unknown> | undefined;
    for (const k of Object.keys(content ?? {})) types.add(k.split(';')[0]!.trim().toLowerCase());
  }
  return [...types];
}

export interface Exchange {
  method: string;
  /** Path and query as received. */
  url: string;
  family?: ApiFamily;
  /** The published operation (`GET /api/v1/deployments`), undefined for an unknown route. */
  operation?: string;
  /** Set when the operation is a known alias the documents do not list. */
  alias?: string;
  requestBody?: unknown;
  /** The request's Content-Type header, as sent. */
  requestContentType?: string;
  status?: number;
  contentType?: string;
  responseText?: string;
  requestErrors: string[];
  responseErrors: string[];
  notes: string[];
}

export interface Violation {
  kind: 'request' | 'response' | 'unknownRoute';
  method: string;
  url: string;
  operation?: string;
  status?: number;
  errors: string[];
}

export interface RecordingServer {
  url: string;
  port: number;
  exchanges: Exchange[];
  violations: Violation[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function parseJson(raw: Buffer): { value?: unknown; error?: string } {
  if (raw.length === 0) return {};
  try {
    return { value: JSON.parse(raw.toString('utf8')) };
  } catch {
    return { error: 'body: not JSON' };
  }
}

/** The fields of a multipart/form-data body (a file part's value is its text). */
export function parseMultipart(raw: Buffer, contentType: string): { value?: unknown; error?: string } {
  const boundary = /boundary=("?)([^";]+)\1/i.exec(contentType)?.[2];
  if (!boundary) return { error: 'body: multipart without a boundary' };
  const fields: Record<string, string> = {};
  const text = raw.toString('latin1');
  const parts = text.split(`--${boundary}`);
  if (parts.length < 3 || !parts[parts.length - 1]!.startsWith('--'))
    return { error: 'body: multipart not closed by its boundary' };
  for (const part of parts.slice(1, -1)) {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) return { error: 'body: multipart part without headers' };
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(part.slice(0, split))?.[1];
    if (name === undefined) return { error: 'body: multipart part without a name' };
    fields[name] = Buffer.from(part.slice(split + 4).replace(/\r\n$/, ''), 'latin1').toString('utf8');
  }
  return { value: fields };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

/** Judges the request part of an exchange; records an unknown route. */
function judgeRequest(
  ref: Reference,
  req: IncomingMessage,
  raw: Buffer,
  familyHint: ApiFamily | undefined,
  strict: boolean,
): { ex: Exchange; m?: Match; violations: Violation[] } {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = (req.method ?? 'GET').toUpperCase();
  const family = familyHint ?? familyOf(url.pathname);
  const ex: Exchange = {
    method,
    url: req.url ?? '/',
    family,
    requestErrors: [],
    responseErrors: [],
    notes: [],
  };
  const violations: Violation[] = [];
  const m = family ? ref.match(family, method, url.pathname) : undefined;
  if (!m) {
    const why = !family
      ? 'no published API family at this path'
      : ref.pathPublished(family, url.pathname)
        ? `${method} is not published for this path`
        : 'no published operation matches this path';
    violations.push({ kind: 'unknownRoute', method, url: ex.url, errors: [why] });
    return { ex, violations };
  }
  ex.operation = m.op.key;
  ex.alias = m.op.alias;
  const body = /^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')
    ? parseMultipart(raw, req.headers['content-type']!)
    : parseJson(raw);
  ex.requestBody = body.value;
  ex.requestContentType = req.headers['content-type'];
  const r = validateRequest(m.op, {
    query: url.searchParams,
    params: m.params,
    body: body.value,
    contentType: req.headers['content-type'],
    strict,
  });
  ex.requestErrors = body.error ? [body.error, ...r.errors] : r.errors;
  // Accept is negotiated: one that none of the served media types satisfy gets 406 from a
  // conforming server (the same rule the sandbox applies).
  const served = servedTypes(m.op);
  const accept = req.headers.accept;
  if (served.length > 0 && negotiate(accept, served) === null)
    ex.requestErrors.push(
      `Accept "${accept ?? ''}" accepts none of what ${m.op.key} serves (${served.join(', ')}): a conforming server answers 406`,
    );
  if (ex.requestErrors.length)
    violations.push({ kind: 'request', method, url: ex.url, operation: m.op.key, errors: ex.requestErrors });
  return { ex, m, violations };
}

/** The exchanges and violations a server records, and the reading and judging of each request. */
function recorder(ref: Reference, options: { family?: ApiFamily; strictRequests?: boolean }) {
  const exchanges: Exchange[] = [];
  const violations: Violation[] = [];
  return {
    exchanges,
    violations,
    async take(req: IncomingMessage): Promise<ReturnType<typeof judgeRequest> & { raw: Buffer }> {
      const raw = await readBody(req);
      const judged = judgeRequest(ref, req, raw, options.family, options.strictRequests ?? true);
      exchanges.push(judged.ex);
      violations.push(...judged.violations);
      return { ...judged, raw };
    },
  };
}

export interface ProxyOptions {
  /** Family of every request (when the target's paths do not follow the sandbox layout). */
  family?: ApiFamily;
  /** A request body property the document does not declare is a violation (default true). */
  strictRequests?: boolean;
}

/**
 * Forwards every request to `target` (an origin, e.g. http://127.0.0.1:4100), streams the answer
 * back, and judges both against the documents. Violations are recorded before the response ends,
 * so a client that has read the whole response can inspect them.
 */
export async function startValidatingProxy(
  ref: Reference,
  target: string,
  options: ProxyOptions = {},
): Promise<RecordingServer> {
  const { exchanges, violations, take } = recorder(ref, options);
  const origin = new URL(target);
  const server = createServer((req, res) => {
    void (async () => {
      const judged = await take(req);
      const raw = judged.raw;
      const headers = { ...req.headers, host: origin.host };
      const up = httpRequest(
        {
          protocol: origin.protocol,
          hostname: origin.hostname,
          port: origin.port,
          method: req.method,
          path: req.url,
          headers,
        },
        (upRes) => {
          const chunks: Buffer[] = [];
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          upRes.on('data', (c: Buffer) => {
            chunks.push(c);
            res.write(c);
          });
          upRes.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const ex = judged.ex;
            ex.status = upRes.statusCode;
            ex.contentType = upRes.headers['content-type'];
            ex.responseText = text;
            if (judged.m) {
              const v = validateResponse(judged.m.op, ex.status ?? 0, ex.contentType, text);
              ex.responseErrors = v.errors;
              ex.notes = v.notes;
              if (v.errors.length)
                violations.push({
                  kind: 'response',
                  method: ex.method,
                  url: ex.url,
                  operation: ex.operation,
                  status: ex.status,
                  errors: v.errors,
                });
            }
            res.end();
          });
          upRes.on('error', () => res.destroy());
        },
      );
      up.on('error', (e) => {
        violations.push({
          kind: 'response',
          method: judged.ex.method,
          url: judged.ex.url,
          errors: [`proxy: ${e.message}`],
        });
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: `proxy: ${e.message}` }));
      });
      res.on('close', () => {
        if (!res.writableFinished) up.destroy();
      });
      up.end(raw);
    })().catch((e: unknown) => {
      violations.push({
        kind: 'response',
        method: req.method ?? '',
        url: req.url ?? '',
        errors: [`proxy failure: ${String(e)}`],
      });
      res.destroy();
    });
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, exchanges, violations, close: closer(server) };
}

export interface MockOptions {
  variant?: Variant;
  seed?: number;
  /** Family of every request (default: by the sandbox's URL layout, see familyOf). */
  family?: ApiFamily;
  /** Status to answer an operation with (default: its first published 2xx). */
  statusFor?: (operation: string) => number | undefined;
  /** A request body property the document does not declare is a violation (default true). */
  strictRequests?: boolean;
}

export interface MockServer extends RecordingServer {
  /** Changes the variant (and seed) of the next answers. */
  setVariant(variant: Variant, seed?: number): void;
}

/**
 * Answers every published operation with a response generated from its schema in the chosen
 * variant; validates and records each request. An unknown route gets 404 and is recorded as a
 * violation.
 */
export async function startMockServer(ref: Reference, options: MockOptions = {}): Promise<MockServer> {
  const { exchanges, violations, take } = recorder(ref, options);
  let variant: Variant = options.variant ?? 'allOptional';
  let seed = options.seed ?? 1;
  const server = createServer((req, res) => {
    void (async () => {
      const judged = await take(req);
      if (!judged.m) {
        judged.ex.status = 404;
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: `mock: ${judged.violations[0]?.errors[0] ?? 'unknown route'}` }));
        return;
      }
      const op = judged.m.op;
      const status = options.statusFor?.(op.key) ?? successStatus(op);
      const g = generateResponse(op, status, variant, seed);
      judged.ex.status = status;
      judged.ex.contentType = g.contentType;
      judged.ex.responseText = g.text;
      res.writeHead(status, g.contentType ? { 'content-type': g.contentType } : {});
      res.end(g.text);
    })().catch((e: unknown) => {
      violations.push({
        kind: 'response',
        method: req.method ?? '',
        url: req.url ?? '',
        errors: [`mock failure: ${String(e)}`],
      });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `mock failure: ${String(e)}` }));
    });
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    exchanges,
    violations,
    close: closer(server),
    setVariant(v, s = 1) {
      variant = v;
      seed = s;
    },
  };
}
