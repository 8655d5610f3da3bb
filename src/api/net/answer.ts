// What a success answer must be before anything reads it: of a media type the operation serves
// (its Content-Type, checked once for every answer), and no larger than a cap (its Content-Length
// checked before reading, its bytes counted while reading), so an HTML sign-in page is never taken
// for data and a huge answer is never buffered.
import { ApiError, type ApiFamily } from '../errors';

/** What a JSON operation accepts (NDJSON streams are served as JSON too). */
export const JSON_TYPES: readonly string[] = ['application/json'];

/**
 * The most one answer read whole may hold, per family (a streamed answer is read a line at a time,
 * each line capped by its reader). Lists are paged (200 items at most) and a Data API result is at
 * most 50,000 rows, so these leave room; a 100 MB answer is refused.
 */
export const DEFAULT_MAX_BODY_BYTES: Record<ApiFamily, number> = {
  platform: 32 * 1024 * 1024,
  data: 64 * 1024 * 1024,
  ai: 32 * 1024 * 1024,
};

export interface AnswerContext {
  /** The operation as a user knows it ("Downloading the export"). */
  what: string;
  status: number;
  method: string;
  url: string;
  requestId?: string;
}

/** `type/subtype` of a Content-Type, lower case, without parameters. */
export function mediaType(contentType: string | null | undefined): string | undefined {
  const t = contentType?.split(';')[0]?.trim().toLowerCase();
  return t ? t : undefined;
}

const isJson = (t: string) =>
  /^application\/([\w.+-]+\+)?json$/.test(t) || t === 'application/x-ndjson' || t === 'application/ndjson';

/** True when the served type `actual` is one of `accepted` (JSON accepts its +json and NDJSON forms). */
export function typeAccepted(actual: string, accepted: readonly string[]): boolean {
  return accepted.some((a) => {
    const want = a.toLowerCase();
    if (want === 'application/json') return isJson(actual);
    if (want.endsWith('/*')) return actual.startsWith(want.slice(0, -1));
    return actual === want;
  });
}

const NAMES: Record<string, string> = {
  'application/json': 'JSON',
  'application/pdf': 'a PDF document',
  'image/png': 'a PNG image',
};
export const describeTypes = (types: readonly string[]): string =>
  types.map((t) => NAMES[t] ?? t).join(' or ');

function init(ctx: AnswerContext, code: string) {
  return { status: ctx.status, requestId: ctx.requestId, method: ctx.method, url: ctx.url, code };
}

/**
 * The problem with a success answer's headers, or undefined: a media type the operation does not
 * serve, or a declared length over the cap. An empty answer (204, or Content-Length 0) has no type
 * to check; JSON operations also take an answer without a Content-Type (its text is parsed anyway),
 * an operation serving files does not.
 */
export function headerProblem(
  headers: Headers,
  accepted: readonly string[],
  maxBytes: number,
  ctx: AnswerContext,
): ApiError | undefined {
  const length = headers.get('content-length');
  const declared = length !== null && /^\d+$/.test(length.trim()) ? Number(length) : undefined;
  if (declared !== undefined && declared > maxBytes) return tooLarge(ctx, maxBytes, declared);
  if (ctx.status === 204 || ctx.status === 205 || declared === 0) return undefined;
  const type = mediaType(headers.get('content-type'));
  if (type === undefined) {
    if (accepted.every((a) => a === 'application/json')) return undefined;
    return new ApiError(
      'protocol',
      `${ctx.what}: the service answered without saying what it sent, where ${describeTypes(accepted)} was expected. Check the profile's URL.`,
      init(ctx, 'CONTENT_TYPE'),
    );
  }
  if (typeAccepted(type, accepted)) return undefined;
  const page = type === 'text/html' || type === 'application/xhtml+xml';
  return new ApiError(
    'protocol',
    page
      ? `${ctx.what}: the service answered with a web page (${type}) instead of ${describeTypes(accepted)}. ` +
          `A sign-in page or a proxy may be answering in its place: check the profile's URL and that your network lets the extension reach the service.`
      : `${ctx.what}: the service answered with ${type} instead of ${describeTypes(accepted)}. Check the profile's URL.`,
    init(ctx, 'CONTENT_TYPE'),
  );
}

const mib = (n: number) => `${Math.round((n / (1024 * 1024)) * 10) / 10} MiB`;

export function tooLarge(ctx: AnswerContext, maxBytes: number, declared?: number): ApiError {
  return new ApiError(
    'protocol',
    `${ctx.what}: the answer is larger than ${mib(maxBytes)}${declared !== undefined ? ` (${mib(declared)})` : ''}, ` +
      `the most the extension reads for one answer, so it was not read. Narrow the request (a smaller page or fewer rows) or check the profile's URL.`,
    init(ctx, 'TOO_LARGE'),
  );
}

/** `body`, ending with a TOO_LARGE error as soon as it passes `maxBytes` (the rest is never fetched). */
export async function* capBody(
  body: AsyncIterable<Uint8Array>,
  maxBytes: number,
  ctx: AnswerContext,
): AsyncGenerator<Uint8Array> {
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    // Throwing here ends the inner iterator, which destroys the connection's stream.
    if (size > maxBytes) throw tooLarge(ctx, maxBytes);
    yield chunk;
  }
}

/** An empty answer where the operation expects one (not a sign of a newer service). */
export function emptyAnswer(ctx: AnswerContext): ApiError {
  return new ApiError(
    'protocol',
    `${ctx.what}: the service answered ${ctx.status} with nothing where an answer was expected. ` +
      `Try again later; if it keeps happening, check the profile's URL.`,
    init(ctx, 'EMPTY'),
  );
}

/**
 * A user's name for a call without an `action`: "Reading reports" for `GET …/reports/12`. Never
 * the path itself: messages are for people.
 */
export function operationName(method: string, path: string): string {
  const noun = path
    .split('/')
    .reverse()
    .find((s) => s && !/\d/.test(s) && !s.startsWith('%'));
  const verb =
    method === 'GET' || method === 'HEAD' ? 'Reading' : method === 'DELETE' ? 'Deleting' : 'Sending';
  if (!noun) return `${verb} a request`;
  let word = noun;
  try {
    word = decodeURIComponent(noun);
  } catch {
    // kept as sent
  }
  return `${verb} ${word.replace(/[-_]+/g, ' ').toLowerCase()}`;
}
