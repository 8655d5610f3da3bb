// Data API client: JSON queries with the Continue-wait long poll, streamed SQL results, and the
// data model's metadata (cached per deployment).
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { interpretDataError } from './dataErrors';
import { ApiError, isApiError, zodProtocolError } from './errors';
import { CallSignal, HttpClient, cancelledError, sleep, type ClientOptions } from './http';
import { ndjsonLines, type NdjsonLine } from './ndjson';
import { scanLines, type CountedLine } from './rowScan';
import {
  CONTINUE_WAIT,
  CubeSqlRequestSchema,
  CubeSqlSchemaLineSchema,
  LoadRequestWireSchema,
  type CubeSqlRequest,
  type LoadRequestWire,
  LoadResponseSchema,
  MetaSchema,
  type CubeSqlChunk,
  type LoadQuery,
  type LoadResponse,
  type Meta,
} from './schemas/data';

export type { CubeSqlChunk } from './schemas/data';

export interface DataProgress {
  /** 1 for the first request, +1 for each Continue-wait re-send. */
  attempt: number;
  elapsedMs: number;
}

export interface DataClientOptions extends ClientOptions {
  token: () => Promise<string | undefined>;
  /** Deployment id (or any key) under which `meta` is cached. */
  cacheKey?: string;
  /** Share one cache between clients of the same deployment. */
  metaCache?: MetaCache;
  /** Pause between Continue-wait re-sends (the official client re-sends at once). */
  continueWaitDelayMs?: number;
  /** Longest accepted NDJSON line of cubesql. */
  maxLineBytes?: number;
}

export interface LoadOptions {
  signal?: AbortSignal;
  onProgress?(p: DataProgress): void;
  /** Overall limit across all Continue-wait rounds. */
  timeoutMs?: number;
}

export interface CubeSqlOptions {
  signal?: AbortSignal;
  timezone?: string;
  onProgress?(p: DataProgress): void;
  /** Overall limit, streaming included. */
  timeoutMs?: number;
  /** The published cache modes only. */
  cache?: CubeSqlRequest['cache'];
  /**
   * Parse about this many rows (whole lines); past them `{"data"}` lines are only counted and
   * yielded as `{type: 'count'}` (see rowScan.ts). Unset: every row is parsed.
   */
  parseRows?: number;
  /**
   * Reads each response body instead of the client's own parser (Export Results hands the bytes to
   * a worker thread that writes the rows and answers only counts). Called once per request sent;
   * lines it answers are interpreted exactly as parsed ones, `counted` lines as `{type: 'count'}`.
   */
  lines?: CubeSqlLineReader;
}

/** A reader of a cubesql body: its lines, parsed, or (data lines) counted. */
export type CubeSqlLineReader = (
  body: AsyncIterable<Uint8Array>,
  opts: { maxLineBytes?: number },
) => AsyncIterable<NdjsonLine | CountedLine>;

/** Rows past `parseRows`, counted but not parsed. */
export interface CubeSqlCount {
  type: 'count';
  rows: number;
}

/** Meta responses per cache key. */
export class MetaCache {
  private readonly entries = new Map<string, Meta>();
  get(key: string): Meta | undefined {
    return this.entries.get(key);
  }
  set(key: string, meta: Meta): void {
    this.entries.set(key, meta);
  }
  delete(key: string): void {
    this.entries.delete(key);
  }
  clear(): void {
    this.entries.clear();
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** An error carried in a Data API body (HTTP 200 `{"error"}` or a trailing NDJSON line). */
export function dataBodyError(body: Record<string, unknown>, fallbackRequestId?: string): ApiError {
  const message = typeof body.error === 'string' ? body.error : 'Unknown error';
  const requestId = typeof body.requestId === 'string' ? body.requestId : fallbackRequestId;
  const userError = body.type === 'UserError';
  const text = userError ? `The query is not valid: ${message}` : `The query failed: ${message}`;
  return new ApiError(
    userError ? 'validation' : 'server',
    requestId && !userError ? `${text} (request id ${requestId})` : text,
    { serverMessage: message, requestId, code: typeof body.type === 'string' ? body.type : undefined },
  );
}

/** Checks a request body against its strict schema; a failure names the field and sends nothing. */
function checkBody<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const i = parsed.error.issues[0];
  const where = i?.path.map(String).join('.') ?? '';
  const why =
    i?.code === 'unrecognized_keys'
      ? `${i.keys.join(', ')} ${i.keys.length > 1 ? 'are not fields' : 'is not a field'} the Data API publishes`
      : (i?.message ?? 'invalid');
  throw new ApiError('validation', `${what}: ${where ? `${where}: ` : ''}${why}.`, { code: 'INPUT' });
}

/**
 * The /v1/load body: `order` given as `{member: dir}` is sent as the published `[[member, dir]]`
 * pairs; anything else the documents do not declare is refused before sending.
 */
export function loadBody(query: LoadQuery): LoadRequestWire {
  const order = query.order;
  const wireQuery =
    order && !Array.isArray(order)
      ? { ...query, order: Object.entries(order).map(([m, d]) => [m, d]) }
      : query;
  return checkBody(LoadRequestWireSchema, { queryType: 'multi', query: wireQuery }, 'The query was not sent');
}

/** The caller's signal plus an overall limit across Continue-wait rounds (see CallSignal). */
class Deadline extends CallSignal {
  /** Rewrites a cancellation caused by the deadline into a 'timeout' error. */
  translate(e: unknown, what: string): unknown {
    if (this.timedOut) {
      return new ApiError(
        'timeout',
        `${what} did not finish within ${Math.round((this.timeoutMs ?? 0) / 1000)} s. Narrow the query or raise the time limit.`,
        { code: 'DEADLINE', cause: e },
      );
    }
    return e;
  }
  check(): void {
    if (this.signal.aborted) throw this.timedOut ? this.translate(undefined, 'The query') : cancelledError();
  }
}

export class DataClient {
  readonly http: HttpClient;
  private readonly opts: DataClientOptions;
  private readonly metaCache: MetaCache;

  constructor(opts: DataClientOptions) {
    this.opts = opts;
    this.metaCache = opts.metaCache ?? new MetaCache();
    // The data client's own options (cache, waits, line cap) are not the transport's: it ignores them.
    const { token, ...rest } = opts;
    this.http = new HttpClient({ ...rest, family: 'data', auth: token });
  }

  /**
   * `POST /v1/load`. While the server answers `{"error": "Continue wait"}` the identical request is
   * re-sent with the same `x-request-id` prefix (`<uuid>-span-<n>`).
   */
  async load(query: LoadQuery, opts: LoadOptions = {}): Promise<LoadResponse> {
    const started = Date.now();
    const deadline = new Deadline(opts.signal, opts.timeoutMs);
    const prefix = randomUUID();
    const body = loadBody(query);
    try {
      for (let attempt = 1; ; attempt++) {
        deadline.check();
        const requestId = `${prefix}-span-${attempt}`;
        let value: unknown;
        try {
          value = await this.http.json(
            {
              method: 'POST',
              path: '/v1/load',
              body,
              signal: deadline.signal,
              idempotent: true,
              requestId,
              action: 'The query',
            },
            z.unknown(),
          );
        } catch (e) {
          throw interpretDataError(e, { requestId, query });
        }
        if (isRecord(value) && typeof value.error === 'string') {
          if (value.error !== CONTINUE_WAIT)
            throw interpretDataError(dataBodyError(value, requestId), { query });
          opts.onProgress?.({ attempt, elapsedMs: Date.now() - started });
          if (this.opts.continueWaitDelayMs) await sleep(this.opts.continueWaitDelayMs, deadline.signal);
          continue;
        }
        // The engine answers a single result object when queryType is not "multi"; read it too.
        const envelope =
          isRecord(value) &&
          value.results === undefined &&
          value.data !== undefined &&
          value.annotation !== undefined
            ? { queryType: 'regularQuery', results: [value] }
            : value;
        const parsed = LoadResponseSchema.safeParse(envelope);
        if (!parsed.success) throw zodProtocolError(parsed.error, 'POST /v1/load', requestId);
        return parsed.data;
      }
    } catch (e) {
      throw deadline.translate(e, 'The query');
    } finally {
      deadline.done();
    }
  }

  /**
   * `POST /v1/cubesql`, streamed: yields the schema, then each `{"data"}` batch as it arrives.
   * Holds at most one line in memory. A trailing `{"error"}` line throws.
   */
  cubesql(
    sql: string,
    opts: CubeSqlOptions & ({ parseRows: number } | { lines: CubeSqlLineReader }),
  ): AsyncGenerator<CubeSqlChunk | CubeSqlCount>;
  cubesql(sql: string, opts?: CubeSqlOptions): AsyncGenerator<CubeSqlChunk>;
  async *cubesql(sql: string, opts: CubeSqlOptions = {}): AsyncGenerator<CubeSqlChunk | CubeSqlCount> {
    const started = Date.now();
    const deadline = new Deadline(opts.signal, opts.timeoutMs);
    const prefix = randomUUID();
    // Only the published fields. A server that still answers a Continue-wait line gets the same
    // request again (handled below).
    const body = checkBody(
      CubeSqlRequestSchema,
      {
        query: sql,
        ...(opts.timezone ? { timezone: opts.timezone } : {}),
        ...(opts.cache ? { cache: opts.cache } : {}),
      },
      'The SQL query was not sent',
    );
    const maxEarlyResets = this.opts.retry?.retries ?? 2;
    let earlyResets = 0;
    try {
      for (let attempt = 1; ; attempt++) {
        deadline.check();
        const requestId = `${prefix}-span-${attempt}`;
        const res = await this.http
          .request({
            method: 'POST',
            path: '/v1/cubesql',
            body,
            signal: deadline.signal,
            idempotent: true,
            requestId,
            action: 'The SQL query',
          })
          .catch((e: unknown) => {
            throw interpretDataError(e, { requestId });
          });
        let lines = 0;
        /** Object lines of any shape (a line of an unknown shape is skipped, not an empty answer). */
        let seen = 0;
        let continueWait = false;
        // Past opts.parseRows parsed rows, data lines are counted instead of parsed.
        let parsedRows = 0;
        const parseRows = opts.parseRows;
        const source = opts.lines
          ? opts.lines(res.body, { maxLineBytes: this.opts.maxLineBytes })
          : parseRows === undefined
            ? ndjsonLines(res.body, { maxLineBytes: this.opts.maxLineBytes })
            : scanLines(res.body, {
                maxLineBytes: this.opts.maxLineBytes,
                counting: () => parsedRows >= parseRows,
              });
        try {
          for await (const item of source) {
            if ('counted' in item) {
              lines++;
              seen++;
              yield { type: 'count', rows: item.counted };
              continue;
            }
            const { value, line } = item;
            if (!isRecord(value)) {
              throw new ApiError('protocol', `Line ${line} of the SQL result is not a JSON object.`, {
                line,
                requestId: res.requestId,
              });
            }
            seen++;
            // One line may carry the schema and a batch together (the documents publish one
            // object with schema, lastRefreshTime and data): schema first, then the rows.
            if (value.schema !== undefined) {
              const parsed = CubeSqlSchemaLineSchema.safeParse(value);
              if (!parsed.success)
                throw zodProtocolError(parsed.error, `line ${line} of POST /v1/cubesql`, res.requestId);
              lines++;
              yield {
                type: 'schema',
                schema: parsed.data.schema,
                lastRefreshTime: parsed.data.lastRefreshTime,
              };
            }
            if (value.data !== undefined) {
              if (!Array.isArray(value.data)) {
                throw new ApiError(
                  'protocol',
                  `Line ${line} of the SQL result has a "data" field that is not an array.`,
                  { line, requestId: res.requestId },
                );
              }
              lines++;
              parsedRows += value.data.length;
              yield { type: 'rows', rows: value.data as unknown[][] };
            }
            if (value.schema === undefined && value.data === undefined && typeof value.error === 'string') {
              if (value.error === CONTINUE_WAIT && lines === 0) {
                continueWait = true;
                break;
              }
              throw interpretDataError(dataBodyError(value, res.requestId ?? requestId));
            }
            // Any other line shape is a newer server's addition: skip it.
          }
        } catch (e) {
          // A connection cut before anything was yielded: the query is idempotent, so ask again.
          if (lines === 0 && isApiError(e) && e.kind === 'network' && earlyResets < maxEarlyResets) {
            earlyResets++;
            continue;
          }
          throw e;
        }
        if (!continueWait) {
          if (seen === 0) {
            throw new ApiError('protocol', 'The SQL query returned an empty response. Try again.', {
              requestId: res.requestId,
            });
          }
          return;
        }
        opts.onProgress?.({ attempt, elapsedMs: Date.now() - started });
        if (this.opts.continueWaitDelayMs) await sleep(this.opts.continueWaitDelayMs, deadline.signal);
      }
    } catch (e) {
      throw deadline.translate(e, 'The SQL query');
    } finally {
      deadline.done();
    }
  }

  /** `GET /v1/meta`, cached per cache key until `refresh` is asked for. */
  async meta(opts: { signal?: AbortSignal; refresh?: boolean; extended?: boolean } = {}): Promise<Meta> {
    const key = `${this.opts.cacheKey ?? this.opts.baseUrl}${opts.extended ? '|extended' : ''}`;
    if (!opts.refresh) {
      const hit = this.metaCache.get(key);
      if (hit) return hit;
    }
    const meta = await this.http.json(
      {
        method: 'GET',
        path: '/v1/meta',
        query: opts.extended ? { extended: '' } : undefined,
        signal: opts.signal,
        action: 'Loading the data model',
      },
      MetaSchema,
    );
    this.metaCache.set(key, meta);
    return meta;
  }

  /** The Data API base URL this client sends to. */
  get baseUrl(): string {
    return this.opts.baseUrl;
  }

  /**
   * The claims of the Data API token (its payload, read without verifying: for display only, e.g.
   * which deployment a token was minted for). Empty when the token is not a readable JWT.
   */
  async tokenClaims(): Promise<Record<string, unknown>> {
    const token = await this.opts.token();
    const payload = token?.split('.')[1];
    if (!payload) return {};
    try {
      const v = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
      return isRecord(v) ? v : {};
    } catch {
      return {};
    }
  }

  /** Forgets the cached meta of this client's key. */
  invalidateMeta(): void {
    const key = this.opts.cacheKey ?? this.opts.baseUrl;
    this.metaCache.delete(key);
    this.metaCache.delete(`${key}|extended`);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
