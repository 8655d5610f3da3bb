// The sandbox's HTTP server on 127.0.0.1: routes each request to its family by path prefix, checks
// the family's credential, applies faults, and serves the control endpoints under /__sandbox.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createContext } from './context';
import { controlRefusal } from './controlGuard';
import { FaultRuleSchema, serveFaultAnswer, type FaultController } from './faults';
import { negotiate, type Family, type Method, type Router } from './http';
import { verifyJwt } from './jwt';
import { checkRequest, refusalBody } from './operationCheck';
import type { SandboxState } from './state';
import { serveEmbedPage } from './platform/admin/embedPage';
import { serveOAuthPage } from './platform/admin/oauthPage';
import { embedTokenValid } from './platform/embedTokens';

export interface SandboxTokens {
  admin: string;
  member: string;
  dataApi: string;
  aiApiKey: string;
}

export interface ServerDeps {
  router: Router;
  faults: FaultController;
  state: SandboxState;
  tokens: SandboxTokens;
  jwtSecret: string;
  info: () => unknown;
  /**
   * Set on a deployment's own Data API host: only `/cubejs-api` is served, from that deployment's
   * data, and only Data API tokens minted for it are accepted.
   */
  deploymentHost?: number;
  /**
   * The sandbox agent's own requests to the Data API carry this in `x-sandbox-agent`: they are the
   * service talking to itself, so they are neither counted as client requests nor faulted.
   */
  agentKey?: string;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const AI_PREFIX = /^\/ai\/api\/v1\/public\/([^/]+)\/agents\/([^/]+)(\/.*)?$/;

function family(
  pathname: string,
): { family: Family; path: string; params: Record<string, string>; devBranch?: string } | undefined {
  // Not `/api/build/…`: the build API is published at the tenant's root only (a client sending
  // it under /api was served before, so the contract suites could not see the wrong base).
  if (pathname.startsWith('/api/build/')) return undefined;
  if (pathname === '/api' || pathname.startsWith('/api/'))
    return { family: 'platform', path: pathname.slice(4) || '/', params: {} };
  // The build API (data model, branches, dev mode): same host and token as the platform API; its
  // routes keep the published paths whole.
  if (pathname.startsWith('/build/api/')) return { family: 'platform', path: pathname, params: {} };
  if (pathname.startsWith('/cubejs-api/'))
    return { family: 'data', path: pathname.slice('/cubejs-api'.length), params: {} };
  // A branch's dev-mode Data API: /dev-mode/{branch}/cubejs-api/v1/... (branch names hold slashes).
  const dev = /^\/dev-mode\/(.+?)\/cubejs-api(\/.*)$/.exec(pathname);
  if (dev) {
    let devBranch: string;
    try {
      devBranch = decodeURIComponent(dev[1]!);
    } catch {
      return undefined;
    }
    return { family: 'data', path: dev[2]!, params: {}, devBranch };
  }
  const ai = AI_PREFIX.exec(pathname);
  if (ai) return { family: 'ai', path: ai[3] ?? '/', params: { account: ai[1]!, agentId: ai[2]! } };
  if (pathname.startsWith('/__sandbox/'))
    return { family: 'control', path: pathname.slice('/__sandbox'.length), params: {} };
  return undefined;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown, requestId: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': requestId });
  res.end(JSON.stringify(body));
}

/** The credential of a family's Authorization header, or an error sentence. */
function authenticate(
  fam: Family,
  header: string | undefined,
  deps: ServerDeps,
  path = '',
): { credential?: string; deploymentId?: number; error?: [number, string] } {
  if (fam === 'control') return {};
  if (fam === 'platform') {
    // Redeeming an embed session is unauthenticated as published: the session id is the credential.
    if (path === '/v1/embed/session/token') return {};
    const m = /^Bearer (.+)$/.exec(header ?? '');
    if (!m)
      return {
        error: [401, 'Authorization header missing or malformed: send "Authorization: Bearer <token>".'],
      };
    // An embed token (an embed user's signed JWT) is a bearer token too; routes judge its scope.
    if (m[1] !== deps.tokens.admin && m[1] !== deps.tokens.member && !embedTokenValid(m[1]!, deps))
      return { error: [401, 'Invalid or expired token.'] };
    return { credential: m[1] };
  }
  if (fam === 'data') {
    if (!header) return { error: [403, "Authorization header isn't set"] };
    const payload = verifyJwt(header, deps.jwtSecret);
    if (!payload) return { error: [403, 'Invalid token'] };
    const claimed = typeof payload.deploymentId === 'number' ? payload.deploymentId : 1;
    if (deps.deploymentHost !== undefined && claimed !== deps.deploymentHost)
      return {
        error: [
          403,
          `Invalid token: it was minted for deployment ${claimed}, this host serves deployment ${deps.deploymentHost}.`,
        ],
      };
    return { credential: header, deploymentId: deps.deploymentHost ?? claimed };
  }
  const m = /^Api-Key (.+)$/.exec(header ?? '');
  if (!m)
    return {
      error: [401, 'Authorization header missing or malformed: send "Authorization: Api-Key <key>".'],
    };
  if (m[1] !== deps.tokens.aiApiKey) return { error: [401, 'Invalid API key.'] };
  return { credential: m[1] };
}

export function createSandboxServer(deps: ServerDeps): { server: Server; sockets: Set<Socket> } {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    void handle(req, res, deps).catch((e: unknown) => {
      if (!res.headersSent)
        send(res, 500, { error: `Sandbox error: ${e instanceof Error ? e.message : String(e)}` }, 'sandbox');
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return { server, sockets };
}

async function handle(req: IncomingMessage, res: ServerResponse, deps: ServerDeps): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const requestId = (req.headers['x-request-id'] as string | undefined) ?? randomUUID();
  const method = (req.method ?? 'GET').toUpperCase();
  const target = family(url.pathname);
  const raw = await readBody(req);
  if (!target && method === 'GET' && serveEmbedPage(url, res, deps.state)) return;
  if (!target && method === 'GET' && serveOAuthPage(url, res, deps.state)) return;
  if (!target)
    return send(
      res,
      404,
      {
        error: `No API at ${url.pathname}. Families: /api, /build/api, /cubejs-api, /dev-mode/{branch}/cubejs-api, /ai/api/v1/public/{account}/agents/{id}.`,
      },
      requestId,
    );
  if (deps.deploymentHost !== undefined && target.family !== 'data')
    return send(
      res,
      404,
      { error: `This host serves the Data API of deployment ${deps.deploymentHost} only (/cubejs-api).` },
      requestId,
    );
  if (target.family === 'control') {
    const refused = controlRefusal(req);
    if (refused) return send(res, 403, { error: refused }, requestId);
    return control(target.path, method, raw, res, deps, requestId);
  }
  if (!METHODS.has(method)) return send(res, 405, { error: `Method ${method} not allowed.` }, requestId);

  const internal = deps.agentKey !== undefined && req.headers['x-sandbox-agent'] === deps.agentKey;
  const key = `${target.family} ${method} ${target.path}`;
  if (!internal) deps.state.requestCounts[key] = (deps.state.requestCounts[key] ?? 0) + 1;

  const auth = authenticate(target.family, req.headers.authorization, deps, target.path);
  // The Data API engine puts no requestId in its error bodies.
  if (auth.error)
    return send(
      res,
      auth.error[0],
      { error: auth.error[1], ...(target.family === 'data' ? {} : { requestId }) },
      requestId,
    );

  let body: unknown;
  // Multipart bodies (the upload of a data-model file) reach their route as text.
  if (/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) body = raw;
  else if (raw.trim()) {
    try {
      body = JSON.parse(raw);
    } catch (e) {
      // The engine's body parser fails the request as an unclassified error (500).
      if (target.family === 'data')
        return send(res, 500, { error: `SyntaxError: ${(e as Error).message}` }, requestId);
      return send(res, 400, { error: 'The request body is not valid JSON.', requestId }, requestId);
    }
  }
  const fault = internal ? undefined : deps.faults.take(target.family, method, target.path);
  const ctx = createContext({
    req,
    res,
    family: target.family,
    method: method as Method,
    path: target.path,
    query: url.searchParams,
    body,
    credential: auth.credential,
    requestId,
    fault,
    deploymentId: auth.deploymentId,
    devBranch: target.devBranch,
  });
  if (await ctx.preflight()) return;
  if (fault?.answer) return serveFaultAnswer(res, fault.answer, requestId);
  const match = deps.router.match(target.family, method, target.path);
  if (match === undefined) return void ctx.error(404, `No route ${method} ${target.path}.`);
  if (match === 'methodNotAllowed')
    return void ctx.error(405, `Method ${method} is not allowed on ${target.path}.`);
  // Every route honours Accept: one the route's media types do not satisfy is refused, as a
  // conforming server does, so a client asking for the wrong type is seen in tests.
  if (match.produces.length > 0 && negotiate(req.headers.accept, match.produces) === null)
    return void ctx.error(
      406,
      `${method} ${target.path} serves ${match.produces.join(' or ')}; the request accepts only "${req.headers.accept ?? ''}". ` +
        `Send an Accept header that includes one of them (or */*).`,
    );
  // A route with an operation-table row gets only requests that fit the row (operationCheck.ts).
  const refused =
    match.operation &&
    checkRequest(match.operation, {
      path: target.path,
      query: url.searchParams,
      body,
      hasBody: raw.trim() !== '',
      contentType: req.headers['content-type'],
    });
  if (refused) return void ctx.json(refused.status, refusalBody(refused, requestId));
  ctx.params = { ...target.params, ...match.params };
  await match.handler(ctx);
}

function control(
  path: string,
  method: string,
  raw: string,
  res: ServerResponse,
  deps: ServerDeps,
  requestId: string,
): void {
  if (path === '/info' && method === 'GET') return send(res, 200, deps.info(), requestId);
  if (path === '/state' && method === 'GET') return send(res, 200, deps.state, requestId);
  if (path === '/faults') {
    if (method === 'GET') return send(res, 200, { rules: deps.faults.list() }, requestId);
    if (method === 'DELETE') {
      deps.faults.clear();
      return send(res, 200, { rules: [] }, requestId);
    }
    let value: unknown;
    try {
      value = raw.trim() ? JSON.parse(raw) : undefined;
    } catch {
      return send(res, 400, { error: 'Body is not JSON.' }, requestId);
    }
    const rules = Array.isArray(value) ? value : ((value as { rules?: unknown })?.rules ?? [value]);
    const parsed = FaultRuleSchema.array().safeParse(rules);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return send(res, 400, { error: `Fault rule: ${issue.path.join('.')}: ${issue.message}` }, requestId);
    }
    if (method === 'PUT') deps.faults.set(parsed.data);
    else if (method === 'POST') for (const r of parsed.data) deps.faults.add(r);
    else return send(res, 405, { error: 'Use GET, PUT, POST or DELETE.' }, requestId);
    return send(res, 200, { rules: deps.faults.list() }, requestId);
  }
  send(
    res,
    404,
    { error: `No control endpoint ${path}. Try /__sandbox/info, /state or /faults.` },
    requestId,
  );
}
