// The exact kind, code and sentence of each transport failure, HTTP status and response-schema
// mismatch (src/api/errors.ts): these are the words a user reads when a call fails.
import * as assert from 'node:assert/strict';
import { z } from 'zod';
import {
  ApiError,
  errorFromResponse,
  errorFromTransport,
  exchangeOf,
  isConnectionReset,
  isRetriableTransport,
  issuePath,
  parseErrorBody,
  PROXY_TUNNEL_FAILED,
  safeUrl,
  zodProtocolError,
  type TransportErrorContext,
} from '../../../src/api/errors';

const ORIGIN = 'https://dash.example.com';
const CTX: TransportErrorContext = { method: 'GET', url: ORIGIN + '/api/v1/x', origin: ORIGIN };
const PROXY = 'http://proxy.corp:3128';

/** An error as node and undici throw them: a code, a message, maybe a cause chain. */
const coded = (code: string | undefined, message = 'boom', cause?: unknown): Error =>
  Object.assign(new Error(message, cause !== undefined ? { cause } : undefined), code ? { code } : {});

describe('api/errors: transport failures, sentence by code', () => {
  it('says a request was cancelled before anything else', () => {
    const e = errorFromTransport(coded('ECONNRESET'), { ...CTX, cancelled: true, timedOut: true });
    assert.equal(e.kind, 'cancelled');
    assert.equal(e.message, 'The request was cancelled.');
    assert.equal(e.code, 'ABORTED');
    assert.equal(e.method, 'GET');
    assert.equal(e.url, CTX.url);
  });

  it('returns an ApiError unchanged', () => {
    const original = new ApiError('conflict', 'x.');
    assert.equal(errorFromTransport(original, { ...CTX, cancelled: true }), original);
  });

  it('names what timed out for each timeout code', () => {
    const cases: [string, string][] = [
      ['UND_ERR_CONNECT_TIMEOUT', 'Connecting to'],
      ['UND_ERR_BODY_TIMEOUT', 'Receiving data from'],
      ['UND_ERR_HEADERS_TIMEOUT', 'Waiting for'],
      ['ETIMEDOUT', 'Waiting for'],
    ];
    for (const [code, what] of cases) {
      const e = errorFromTransport(coded(code), CTX);
      assert.equal(e.kind, 'timeout', code);
      assert.equal(e.code, code);
      assert.equal(e.message, `${what} ${ORIGIN} timed out. Check your network and try again.`, code);
    }
    const viaProxy = errorFromTransport(coded('UND_ERR_CONNECT_TIMEOUT'), { ...CTX, viaProxy: PROXY });
    assert.equal(
      viaProxy.message,
      `Connecting to ${ORIGIN} timed out. Check your network and proxy and try again.`,
    );
  });

  it('treats a deadline the client set as a timeout whatever the code', () => {
    const e = errorFromTransport(coded('UND_ERR_ABORTED', 'aborted'), { ...CTX, timedOut: true });
    assert.equal(e.kind, 'timeout');
    assert.equal(e.message, `Waiting for ${ORIGIN} timed out. Check your network and try again.`);
    assert.equal(e.code, 'UND_ERR_ABORTED');
  });

  it('explains a proxy that dropped the tunnel, with and without its address', () => {
    const tail =
      `closed the connection instead of opening a tunnel to ${ORIGIN}, so nothing was sent. ` +
      'Check the proxy settings (http.proxy, HTTPS_PROXY) and that the proxy allows this host.';
    const named = errorFromTransport(coded(PROXY_TUNNEL_FAILED), { ...CTX, viaProxy: PROXY });
    assert.equal(named.kind, 'network');
    assert.equal(named.code, PROXY_TUNNEL_FAILED);
    assert.equal(named.message, `The proxy ${PROXY} ${tail}`);
    const unnamed = errorFromTransport(coded(PROXY_TUNNEL_FAILED), CTX);
    assert.equal(unnamed.message, `The proxy ${tail}`);
  });

  it('explains an untrusted certificate for each TLS code family', () => {
    for (const code of [
      'CERT_HAS_EXPIRED',
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'SELF_SIGNED_CERT_IN_CHAIN',
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'ERR_TLS_CERT_ALTNAME_INVALID',
      'ERR_SSL_WRONG_VERSION_NUMBER',
      'HOSTNAME_MISMATCH',
    ]) {
      const e = errorFromTransport(coded(code), CTX);
      assert.equal(e.kind, 'network', code);
      assert.equal(e.code, code);
      assert.equal(
        e.message,
        `The TLS certificate of ${ORIGIN} is not trusted (${code}). If you are behind a corporate proxy, ` +
          'add its CA certificate to the extra CA certificates setting (or NODE_EXTRA_CA_CERTS), or turn off http.proxyStrictSSL.',
        code,
      );
    }
    // Only a code that starts with one of these words is a certificate problem.
    assert.doesNotMatch(errorFromTransport(coded('X_CERT_HAS_EXPIRED'), CTX).message, /TLS/);
  });

  it('says a name did not resolve for ENOTFOUND and EAI_AGAIN', () => {
    for (const code of ['ENOTFOUND', 'EAI_AGAIN']) {
      const e = errorFromTransport(coded(code), CTX);
      assert.equal(e.kind, 'network');
      assert.equal(e.code, code);
      assert.equal(e.message, `Could not resolve ${ORIGIN}. Check the URL in the profile and your network.`);
    }
  });

  it('says who refused the connection: the service or the proxy', () => {
    const direct = errorFromTransport(coded('ECONNREFUSED'), CTX);
    assert.equal(direct.kind, 'network');
    assert.equal(
      direct.message,
      `${ORIGIN} refused the connection. Check the URL and that the service is running.`,
    );
    const proxy = errorFromTransport(coded('ECONNREFUSED'), { ...CTX, viaProxy: PROXY });
    assert.equal(
      proxy.message,
      `The proxy ${PROXY} refused the connection. Check the URL and proxy settings and that the service is running.`,
    );
  });

  it('says the connection was interrupted for each reset and socket code', () => {
    for (const code of [
      'ECONNRESET',
      'EPIPE',
      'EHOSTUNREACH',
      'ENETUNREACH',
      'UND_ERR_CLOSED',
      'UND_ERR_DESTROYED',
    ]) {
      const e = errorFromTransport(coded(code), CTX);
      assert.equal(e.kind, 'network', code);
      assert.equal(e.code, code);
      assert.equal(e.message, `The connection to ${ORIGIN} was interrupted (${code}). Try again.`);
    }
  });

  it('reads the cause of an undici socket error, and calls a bare socket error a reset', () => {
    // undici wraps the socket's own error: the cause's code is the one named.
    const wrapped = errorFromTransport(
      coded('UND_ERR_SOCKET', 'other side closed', coded('EPIPE', 'write EPIPE')),
      CTX,
    );
    assert.equal(wrapped.code, 'EPIPE');
    assert.equal(wrapped.message, `The connection to ${ORIGIN} was interrupted (EPIPE). Try again.`);
    // UND_ERR_SOCKET with no coded cause: the top code is kept.
    const bare = errorFromTransport(coded('UND_ERR_SOCKET', 'closed'), CTX);
    assert.equal(bare.kind, 'network');
    assert.equal(bare.code, 'UND_ERR_SOCKET');
    assert.equal(bare.message, `The connection to ${ORIGIN} was interrupted (UND_ERR_SOCKET). Try again.`);
    // No code at all, but the words of a reset.
    const words = errorFromTransport(new Error('socket hang up'), CTX);
    assert.equal(words.kind, 'network');
    assert.equal(words.code, 'ECONNRESET');
    assert.equal(words.message, `The connection to ${ORIGIN} was interrupted (reset). Try again.`);
  });

  it('blames the proxy for an aborted or tunnel failure through a proxy only', () => {
    const aborted = errorFromTransport(coded('UND_ERR_ABORTED', 'Proxy response !== 200'), {
      ...CTX,
      viaProxy: PROXY,
    });
    assert.equal(aborted.kind, 'network');
    assert.equal(
      aborted.message,
      `The proxy ${PROXY} failed: Proxy response !== 200. Check the proxy settings.`,
    );
    const tunnel = errorFromTransport(coded('E_OTHER', 'tunnel broke'), { ...CTX, viaProxy: PROXY });
    assert.equal(tunnel.message, `The proxy ${PROXY} failed: tunnel broke. Check the proxy settings.`);
    const noProxy = errorFromTransport(coded('E_OTHER', 'tunnel broke'), CTX);
    assert.equal(noProxy.message, `Request to ${ORIGIN} failed: tunnel broke`);
    const unrelated = errorFromTransport(coded('E_OTHER', 'odd'), { ...CTX, viaProxy: PROXY });
    assert.equal(unrelated.message, `Request to ${ORIGIN} failed: odd`);
  });

  it('calls a parser error a malformed response', () => {
    for (const code of ['HPE_INVALID_CONSTANT', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'UND_ERR_INFO']) {
      const e = errorFromTransport(coded(code, 'bad'), CTX);
      assert.equal(e.kind, 'protocol', code);
      assert.equal(e.code, code);
      assert.equal(e.message, `${ORIGIN} sent a malformed HTTP response (${code}).`);
    }
    assert.equal(errorFromTransport(coded('XHPE_X', 'bad'), CTX).kind, 'network');
  });

  it('falls back to the joined messages of the cause chain, or the value itself', () => {
    const chain = coded(
      undefined,
      'fetch failed',
      coded(undefined, 'inner reason', coded(undefined, 'inner reason')),
    );
    const e = errorFromTransport(chain, CTX);
    assert.equal(e.kind, 'network');
    assert.equal(e.code, undefined);
    assert.equal(e.message, `Request to ${ORIGIN} failed: fetch failed: inner reason`);
    assert.equal(e.cause, chain);
    assert.equal(errorFromTransport('plain words', CTX).message, `Request to ${ORIGIN} failed: plain words`);
    assert.equal(errorFromTransport(null, CTX).message, `Request to ${ORIGIN} failed: null`);
    // A code that is not a string is no code.
    assert.equal(errorFromTransport(Object.assign(new Error('odd'), { code: 42 }), CTX).code, undefined);
  });

  it('follows the cause chain at most five levels for the code', () => {
    let deep: unknown = coded('ECONNREFUSED');
    for (let i = 0; i < 4; i++) deep = coded(undefined, `level ${i}`, deep);
    assert.equal(errorFromTransport(deep, CTX).code, 'ECONNREFUSED');
    const tooDeep = coded(undefined, 'top', deep);
    assert.notEqual(errorFromTransport(tooDeep, CTX).code, 'ECONNREFUSED');
  });
});

describe('api/errors: which transport failures are resets or retriable', () => {
  it('recognises resets by code, by undici socket code, and by words', () => {
    assert.ok(isConnectionReset(coded('ECONNRESET')));
    assert.ok(isConnectionReset(coded('EPIPE')));
    assert.ok(isConnectionReset(coded('UND_ERR_SOCKET')));
    assert.ok(isConnectionReset(coded('UND_ERR_SOCKET', 'x', coded('E_SOMETHING'))));
    assert.ok(isConnectionReset(coded(undefined, 'wrapped', coded('ECONNRESET'))));
    assert.ok(isConnectionReset(new Error('other side closed')));
    assert.ok(isConnectionReset(new Error('Socket Hang Up')));
    assert.ok(isConnectionReset(new Error('read ECONNRESET')));
    assert.ok(!isConnectionReset(coded('ECONNREFUSED', 'refused')));
    assert.ok(!isConnectionReset(coded('ETIMEDOUT', 'slow')));
    assert.ok(!isConnectionReset(null));
  });

  it('retries resets and dropped tunnels only', () => {
    assert.ok(isRetriableTransport(coded('ECONNRESET')));
    assert.ok(isRetriableTransport(coded(PROXY_TUNNEL_FAILED, 'dropped')));
    assert.ok(!isRetriableTransport(coded('ECONNREFUSED', 'refused')));
    assert.ok(!isRetriableTransport(coded('ENOTFOUND', 'nope')));
  });
});

describe('api/errors: error bodies', () => {
  it('strips HTML tags and collapses whitespace of a non-JSON body', () => {
    assert.deepEqual(parseErrorBody('  <html><body>\n<h1>Bad\tGateway</h1>\n\n<p>nginx</p></body></html> '), {
      serverMessage: 'Bad Gateway nginx',
    });
    assert.deepEqual(parseErrorBody('a <b>bold</b>  move'), { serverMessage: 'a bold move' });
    // A tag between words is a space: paragraphs do not run together.
    assert.deepEqual(parseErrorBody('<p>one</p><p>two</p>'), { serverMessage: 'one two' });
    assert.deepEqual(parseErrorBody('<html><br/></html>'), {});
    assert.deepEqual(parseErrorBody(''), {});
    assert.deepEqual(parseErrorBody(undefined), {});
    assert.equal(parseErrorBody('x'.repeat(400)).serverMessage?.length, 300);
  });

  it('ignores JSON that is not an object', () => {
    assert.deepEqual(parseErrorBody('"just a string"'), {});
    assert.deepEqual(parseErrorBody('null'), {});
    assert.deepEqual(parseErrorBody('42'), {});
  });

  it('reads each family error shape in order', () => {
    assert.equal(parseErrorBody('{"error":"e","detail":"d"}').serverMessage, 'e');
    assert.equal(parseErrorBody('{"detail":"d","message":"m"}').serverMessage, 'd');
    assert.equal(parseErrorBody('{"message":"m","error_description":"x"}').serverMessage, 'm');
    assert.equal(parseErrorBody('{"error_description":"x","title":"t"}').serverMessage, 'x');
    assert.equal(parseErrorBody('{"title":"t"}').serverMessage, 't');
    assert.equal(parseErrorBody('{"error":{"message":"inner"}}').serverMessage, 'inner');
    assert.equal(parseErrorBody('{"error":{"detail":"inner d"}}').serverMessage, 'inner d');
    assert.equal(parseErrorBody('{"error":null,"errors":["first","second"]}').serverMessage, 'first');
    assert.equal(parseErrorBody('{"errors":[{"message":"obj"}]}').serverMessage, 'obj');
    assert.equal(parseErrorBody('{"errors":[null]}').serverMessage, undefined);
    assert.equal(parseErrorBody('{"errors":[]}').serverMessage, undefined);
    assert.equal(parseErrorBody('{"message":""}').serverMessage, undefined);
    assert.deepEqual(parseErrorBody('{"request_id":"r2","scimType":"uniqueness","type":"T"}'), {
      serverMessage: undefined,
      requestId: 'r2',
      code: 'uniqueness',
      type: 'T',
    });
    assert.deepEqual(parseErrorBody('{"requestId":"r1","request_id":"r2","code":"C","scimType":"s"}'), {
      serverMessage: undefined,
      requestId: 'r1',
      code: 'C',
      type: undefined,
    });
  });
});

describe('api/errors: HTTP statuses', () => {
  const base = { family: 'platform' as const, method: 'POST', url: ORIGIN + '/api/v1/x' };

  it('words each status kind with the family token word', () => {
    const e401 = errorFromResponse({ ...base, status: 401 });
    assert.equal(e401.kind, 'auth');
    assert.equal(e401.message, 'The token was rejected (401). Check or refresh the token in the profile.');
    const ai = errorFromResponse({ ...base, family: 'ai', status: 401 });
    assert.equal(ai.message, 'The API key was rejected (401). Check or refresh the API key in the profile.');
    const data403 = errorFromResponse({
      ...base,
      family: 'data',
      status: 403,
      bodyText: '{"error":"Invalid token"}',
    });
    assert.equal(data403.kind, 'auth');
    assert.equal(
      data403.message,
      'The Data API token was rejected (403). Check or refresh the Data API token in the profile. The server said: Invalid token.',
    );
    const dataHeader = errorFromResponse({
      ...base,
      family: 'data',
      status: 403,
      bodyText: '{"error":"missing Authorization Header"}',
    });
    assert.equal(dataHeader.kind, 'auth');
    const dataForbidden = errorFromResponse({
      ...base,
      family: 'data',
      status: 403,
      bodyText: '{"error":"no"}',
    });
    assert.equal(dataForbidden.kind, 'forbidden');
    assert.equal(
      dataForbidden.message,
      'You are not allowed to do this (403). Use a Data API token of a user with the needed permissions. The server said: no.',
    );
    assert.equal(errorFromResponse({ ...base, family: 'data', status: 403 }).kind, 'forbidden');
    assert.equal(
      errorFromResponse({ ...base, status: 403, bodyText: '{"error":"bad token"}' }).kind,
      'forbidden',
    );
    assert.equal(
      errorFromResponse({ ...base, status: 404 }).message,
      'Not found (404): the item may have been deleted or the URL in the profile is wrong.',
    );
    assert.equal(
      errorFromResponse({ ...base, status: 409, bodyText: '{"message":"taken!"}' }).message,
      'The request conflicts with the current state (409). Refresh and try again. The server said: taken!',
    );
    assert.equal(
      errorFromResponse({ ...base, status: 408 }).message,
      'The server timed out (408). Try again.',
    );
    assert.equal(errorFromResponse({ ...base, status: 408 }).kind, 'timeout');
    assert.equal(errorFromResponse({ ...base, status: 504 }).kind, 'server');
    assert.equal(
      errorFromResponse({ ...base, status: 500 }).message,
      'The service failed (500). Try again later.',
    );
    assert.equal(errorFromResponse({ ...base, status: 599 }).kind, 'server');
    assert.equal(errorFromResponse({ ...base, status: 499 }).kind, 'validation');
    assert.equal(errorFromResponse({ ...base, status: 400 }).kind, 'validation');
    const e302 = errorFromResponse({ ...base, status: 302 });
    assert.equal(e302.kind, 'protocol');
    assert.equal(e302.message, 'Unexpected response status 302.');
  });

  it('says when to retry a rate limit', () => {
    assert.equal(
      errorFromResponse({ ...base, status: 429, retryAfterMs: 2001 }).message,
      'The service is rate limiting requests (429). Try again in 3 s.',
    );
    const later = errorFromResponse({ ...base, status: 429 });
    assert.equal(later.message, 'The service is rate limiting requests (429). Try again later.');
    assert.equal(later.retryAfterMs, undefined);
    assert.equal(
      errorFromResponse({ ...base, status: 429, retryAfterMs: 0 }).message,
      'The service is rate limiting requests (429). Try again in 0 s.',
    );
  });

  it('points at the input when the server explains a refusal, else also at the URL', () => {
    assert.equal(
      errorFromResponse({ ...base, status: 400, bodyText: '{"detail":"name is required"}' }).message,
      'The server rejected the request (400). The server said: name is required. Check the input.',
    );
    assert.equal(
      errorFromResponse({ ...base, status: 422 }).message,
      "The server rejected the request (422). Check the input and the profile's URL.",
    );
  });

  it('uses the call hints: override, forbidden hint, action prefix', () => {
    const hinted = errorFromResponse({
      ...base,
      status: 409,
      bodyText: '{"message":"dup"}',
      hints: { messages: { conflict: 'That name is taken' } },
    });
    assert.equal(hinted.message, 'That name is taken. The server said: dup.');
    const forb = errorFromResponse({
      ...base,
      status: 403,
      bodyText: '{"message":"dup"}',
      hints: { forbiddenHint: 'Only admins can do this.' },
    });
    assert.equal(forb.message, 'Only admins can do this.');
    const authOverride = errorFromResponse({
      ...base,
      status: 401,
      bodyText: '{"message":"x"}',
      hints: { messages: { auth: 'Sign in again' } },
    });
    assert.equal(authOverride.message, 'Sign in again.');
    const act = errorFromResponse({
      ...base,
      status: 404,
      hints: { action: 'Loading deployments', forbiddenHint: 'no' },
    });
    assert.equal(
      act.message,
      'Loading deployments failed: Not found (404): the item may have been deleted or the URL in the profile is wrong.',
    );
  });

  it('adds the request id except to auth and forbidden sentences, from the body before the header', () => {
    const e = errorFromResponse({
      ...base,
      status: 500,
      bodyText: '{"requestId":"body-id"}',
      headerRequestId: 'hdr',
    });
    assert.equal(e.message, 'The service failed (500). Try again later. (request id body-id)');
    assert.equal(e.requestId, 'body-id');
    const h = errorFromResponse({ ...base, status: 500, headerRequestId: 'hdr' });
    assert.equal(h.requestId, 'hdr');
    assert.match(h.message, /\(request id hdr\)$/);
    const a = errorFromResponse({ ...base, status: 401, headerRequestId: 'hdr' });
    assert.equal(a.requestId, 'hdr');
    assert.doesNotMatch(a.message, /request id/);
    assert.doesNotMatch(
      errorFromResponse({ ...base, status: 403, headerRequestId: 'hdr' }).message,
      /request id/,
    );
    // A long id is cut to 128 characters and an ellipsis.
    assert.equal(
      errorFromResponse({ ...base, status: 500, headerRequestId: 'r'.repeat(300) }).requestId,
      'r'.repeat(128) + '…',
    );
  });

  it('keeps the exchange fields for a follow-up error', () => {
    const e = errorFromResponse({
      ...base,
      status: 400,
      bodyText: '{"message":"m","code":"C","type":"T"}',
      headerRequestId: 'rid',
      retryAfterMs: 5,
    });
    assert.equal(e.code, 'C');
    assert.equal(e.retryAfterMs, 5);
    assert.equal(e.serverMessage, 'm');
    assert.deepEqual(exchangeOf(e), {
      status: 400,
      serverMessage: 'm',
      requestId: 'rid',
      code: 'C',
      method: 'POST',
      url: ORIGIN + '/api/v1/x',
    });
    assert.equal(errorFromResponse({ ...base, status: 400, bodyText: '{"type":"T"}' }).code, 'T');
  });

  it('drops user-info from a URL it keeps', () => {
    assert.equal(safeUrl('https://user:pw@dash.example.com/a'), 'https://dash.example.com/a');
    assert.equal(new ApiError('server', 'x', { url: 'https://u:p@h.example/x' }).url, 'https://h.example/x');
  });
});

describe('api/errors: response schema mismatches', () => {
  it('names at most five fields, says how many more, and calls undefined missing', () => {
    const schema = z.object({
      a: z.string(),
      b: z.number(),
      c: z.string(),
      d: z.string(),
      e: z.string(),
      f: z.string(),
      g: z.string(),
    });
    const r = schema.safeParse({ b: 'x', c: 1, d: 1, e: 1, f: 1, g: 1 });
    assert.ok(!r.success);
    const e = zodProtocolError(r.error, 'the deployments list', 'rid-1');
    assert.equal(e.kind, 'protocol');
    assert.equal(e.code, 'SCHEMA');
    assert.equal(e.requestId, 'rid-1');
    assert.equal(e.cause, r.error);
    assert.equal(
      e.message,
      'Unexpected response from the deployments list: missing required field "a"; ' +
        `"b": ${r.error.issues[1].message}; "c": ${r.error.issues[2].message}; ` +
        `"d": ${r.error.issues[3].message}; "e": ${r.error.issues[4].message} (and 2 more). ` +
        'The service may be newer than this extension.',
    );
  });

  it('says nothing of more when there are exactly five', () => {
    const r = z.array(z.string()).safeParse([1, 2, 3, 4, 5]);
    assert.ok(!r.success);
    assert.equal(r.error.issues.length, 5);
    const e = zodProtocolError(r.error, 'x');
    const each = r.error.issues.map((i, n) => `"[${n}]": ${i.message}`).join('; ');
    assert.equal(
      e.message,
      `Unexpected response from x: ${each}. The service may be newer than this extension.`,
    );
  });

  it('counts one more when there are six', () => {
    const r = z.array(z.string()).safeParse([1, 2, 3, 4, 5, 6]);
    assert.ok(!r.success);
    assert.equal(r.error.issues.length, 6);
    assert.match(
      zodProtocolError(r.error, 'x').message,
      /"\[4\]": [^;]* \(and 1 more\)\. The service may be newer/,
    );
  });

  it('writes a field path the way code reads it', () => {
    assert.equal(issuePath(['items', 2, 'id']), 'items[2].id');
    assert.equal(issuePath([0, 'a']), '[0].a');
    assert.equal(issuePath([]), '(root)');
  });
});
