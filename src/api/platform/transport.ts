// The one transport every Platform API family uses, and the reading rules they share: lists are
// read tolerantly (one bad item is reported, never fatal to the page; deprecated `data`/`count`
// are read when `items`/`pageInfo` are absent, spec 9.3) and request bodies are checked against
// strict input schemas before anything is sent.
import { z } from 'zod';
import { ApiError, plainIssue } from '../errors';
import type { HttpClient, QueryValue, RequestOptions, WriteOptions } from '../http';
import type { ApiLogger } from '../log';
import type { InvalidItem, Page, PageParams } from '../paging';

export const id = z.number().int();

/** A field the documents publish as `T | null`, possibly absent. */
export const maybe = <T extends z.ZodType>(t: T) => t.nullable().optional();

export const PageInfoSchema = z.looseObject({
  hasNextPage: z.boolean(),
  hasPreviousPage: z.boolean().optional(),
  startCursor: maybe(z.string()),
  endCursor: maybe(z.string()),
});

/**
 * The envelope of every list: `{items, pageInfo}`, or the deprecated `{data, count}` of older
 * servers (spec 9.3). Items stay unparsed here; `readPage` parses them one by one.
 */
export const ListEnvelopeSchema = z
  .looseObject({
    items: z.array(z.unknown()).optional(),
    data: z.array(z.unknown()).optional(),
    pageInfo: PageInfoSchema.nullable().optional(),
    count: maybe(z.number()),
  })
  .superRefine((v, ctx) => {
    // Neither list: not a list response at all (an empty list is `items: []`).
    if (v.items === undefined && v.data === undefined) {
      ctx.addIssue({
        code: 'invalid_type',
        expected: 'array',
        path: ['items'],
        message: 'Invalid input: expected array, received undefined',
      });
    }
  });

/** Short reason of a zod failure: the first issue, with its field, in plain words. */
export function issueText(error: z.ZodError): string {
  const i = error.issues[0];
  return i ? plainIssue(i) : 'invalid';
}

/** Parses each item on its own: a bad item is kept aside (and logged), the others are returned. */
export function readItems<T>(
  raw: readonly unknown[],
  item: z.ZodType<T>,
  what: string,
  log?: ApiLogger,
): { items: T[]; invalid: InvalidItem[] } {
  const items: T[] = [];
  const invalid: InvalidItem[] = [];
  raw.forEach((value, index) => {
    const parsed = item.safeParse(value);
    if (parsed.success) items.push(parsed.data);
    else {
      const problem = issueText(parsed.error);
      invalid.push({ index, problem, value });
      log?.warn(`${what}: item ${index} skipped (${problem})`);
    }
  });
  return { items, invalid };
}

/** A list envelope into a Page: `items` else `data`; no `pageInfo` means no further page. */
export function readPage<T>(
  envelope: z.infer<typeof ListEnvelopeSchema>,
  item: z.ZodType<T>,
  what: string,
  log?: ApiLogger,
): Page<T> {
  const raw = envelope.items ?? envelope.data ?? [];
  const { items, invalid } = readItems(raw, item, what, log);
  const page: Page<T> = { items, pageInfo: envelope.pageInfo ?? null };
  if (invalid.length > 0) page.invalid = invalid;
  if (typeof envelope.count === 'number') page.total = envelope.count;
  return page;
}

/** Validates a request body against its strict input schema, naming the field at fault. */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new ApiError('validation', `${what}: ${issueText(parsed.error) || 'input'}`, {
    code: 'INPUT',
  });
}

export function positiveId(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new ApiError('validation', `${what} must be a whole number of at least 1 (got ${String(value)}).`);
  }
  return value;
}

export function checkPage(p: PageParams | undefined): void {
  const first = p?.first;
  if (first !== undefined && !(Number.isInteger(first) && first >= 1 && first <= 200)) {
    throw new ApiError(
      'validation',
      `Page size must be a whole number from 1 to 200 (got ${String(first)}).`,
    );
  }
}

/** Drops undefined values, so only parameters actually given reach the query string. */
export function definedQuery(q: Record<string, QueryValue | undefined>): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const [k, v] of Object.entries(q)) if (v !== undefined) out[k] = v;
  return out;
}

/** The transport of one PlatformClient: GET, writes (never retried) and tolerant lists. */
export class PlatformTransport {
  constructor(
    readonly http: HttpClient,
    readonly log?: ApiLogger,
  ) {}

  get<T>(path: string, schema: z.ZodType<T>, extra: Partial<RequestOptions> = {}): Promise<T> {
    return this.http.json({ method: 'GET', path, ...extra }, schema);
  }

  write<T>(
    method: string,
    path: string,
    body: unknown,
    schema: z.ZodType<T>,
    extra: Partial<WriteOptions> = {},
  ): Promise<T> {
    // The one guarded path: sent once, and an unclear failure is an unknown outcome.
    return this.http.write({ ...extra, method, path, body }, schema);
  }

  /** A write whose answer has no body (DELETE and friends), through the same guarded path. */
  writeNoContent(method: string, path: string, extra: Partial<WriteOptions> = {}): Promise<number> {
    return this.http.writeNoContent({ ...extra, method, path });
  }

  /** GET of one page of a list; bad items become `page.invalid`, never a failed page. */
  async list<T>(
    path: string,
    item: z.ZodType<T>,
    query: Record<string, QueryValue | undefined> = {},
    extra: Partial<RequestOptions> = {},
  ): Promise<Page<T>> {
    checkPage(query as PageParams);
    const envelope = await this.http.json(
      { method: 'GET', path, query: definedQuery(query), ...extra },
      ListEnvelopeSchema,
    );
    return readPage(envelope, item, `${extra.action ?? `GET ${path}`}`, this.log);
  }
}

/** The paging query of a list (the page size's range is checked with its own message, `checkPage`). */
export const PageQuery = z.object({
  first: z.custom<number>().optional(),
  after: z.string().optional(),
});
