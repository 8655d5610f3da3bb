// The sandbox: a local emulator of the Platform, Data and AI APIs on 127.0.0.1, speaking the live
// service's wire formats, with seeded sample data, a real SQL engine and fault injection.
// Used by the Sandbox profile, `npm run demo`, the tests, the benchmarks and `npm run sandbox`.
// With `stateFile` it keeps what clients changed between runs (stateFile.ts).
import { createHash, randomUUID } from 'node:crypto';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ApiLogger } from '../api/log';
import { registerAiRoutes } from './ai';
import { httpAgentData } from './ai/dataApi';
import { registerBuildRoutes } from './build';
import { DeploymentRepo } from './build/store';
import { createDataEngine, registerDataRoutes, type DataEngine } from './data';
import { FaultController, type FaultRule } from './faults';
import { Router } from './http';
import { signJwt } from './jwt';
import { maskEnvVar } from './platform/opsRoutes';
import { starterOf } from './platform/deploymentRoutes';
import { registerPlatformRoutes } from './platform/routes';
import { seedPlatform } from './platform/seed';
import { createSandboxServer, type SandboxTokens } from './server';
import type { CodecOptions } from './persistence';
import { createSandboxState, issueId, type SandboxState } from './state';
import { StateFile, type StateFileStatus } from './stateFile';

export type { FaultRule } from './faults';
export { FaultController } from './faults';
export type { SandboxState } from './state';
export type { StateFileStatus } from './stateFile';

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Rows of the orders table (default 20,000; millions for benchmarks). */
  rows?: number;
  /** Notifications in deployment 1 (default 230). */
  notifications?: number;
  faults?: FaultRule[];
  logger?: ApiLogger;
  /** How long a slow query runs, answering "Continue wait" meanwhile (default 12 s). */
  continueWaitMs?: number;
  /**
   * How long each long-poll round of a slow query is held before "Continue wait" (the engine's
   * continueWaitTimeout: 10 s by default; a third of `continueWaitMs` when only that is given, so
   * that a short slow query still shows Continue-wait rounds).
   */
  continueWaitTimeoutMs?: number;
  /**
   * A fixed time (ISO 8601) for the clock that relative date ranges are resolved against and that
   * the sample data ends at; the real clock when absent (tests that assert dates fix it).
   */
  clock?: string;
  /** Pause between AI stream events (default 25 ms). */
  aiEventDelayMs?: number;
  /** How long each dbt sync state lasts (default 500 ms). */
  dbtStepMs?: number;
  seed?: number;
  /** Embed tenants beside the seeded three (no published operation makes one; tests delete them). */
  embedTenants?: readonly string[];
  /**
   * Where the sandbox keeps its data between runs: loaded at start (an unreadable file is renamed
   * aside and reported), saved after changes. Without it the data lives in memory only.
   */
  stateFile?: string;
}

export interface SandboxHandle {
  port: number;
  urls: {
    platform: string;
    /** The shared Data API (answers from the deployment in the token; deployment 1 by default). */
    dataApi: string;
    ai: { name: string; url: string }[];
    control: string;
    /** Each deployment's own Data API host: `deploymentUrl` is its origin, the Data API at /cubejs-api. */
    deployments: { id: number; deploymentUrl: string; dataApi: string }[];
  };
  tokens: SandboxTokens;
  faults: FaultController;
  state: SandboxState;
  /** What the start found in `stateFile` (undefined without one). */
  persistence?: StateFileStatus;
  /** Writes pending changes to `stateFile` now (they are saved shortly after each request anyway). */
  saveState(): void;
  /** Every route the sandbox serves (`family METHOD /pattern`), for contract tests. */
  routes(): {
    family: string;
    method: string;
    pattern: string;
    produces: readonly string[];
    /** The operation-table row whose input the sandbox checks before the route's handler. */
    operation?: { name: string };
  }[];
  close(): Promise<void>;
}

const AGENTS = [
  { id: 'analyst', name: 'Analyst' },
  { id: 'sql-helper', name: 'SQL Helper' },
];

/** Deterministic per seed: the sandbox is loopback-only, so fixed tokens are fine and convenient. */
function tokens(seed: number, jwtSecret: string): SandboxTokens {
  const h = (s: string) => createHash('sha256').update(`${seed}:${s}`).digest('hex').slice(0, 32);
  return {
    admin: `sbx_admin_${h('admin')}`,
    member: `sbx_member_${h('member')}`,
    dataApi: signJwt({ sub: 'sandbox', deploymentId: 1 }, jwtSecret, 30 * 24 * 3600),
    aiApiKey: `sbx_ai_${h('ai')}`,
  };
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<SandboxHandle> {
  const seed = opts.seed ?? 42;
  const jwtSecret = createHash('sha256').update(`sandbox-jwt-${seed}`).digest('hex');
  const tok = tokens(seed, jwtSecret);
  const state = createSandboxState();
  const faults = new FaultController(opts.faults ?? []);
  const router = new Router();
  const rows = opts.rows ?? 20_000;
  const now = opts.clock !== undefined ? () => new Date(opts.clock!) : () => new Date();
  const engine = await createDataEngine({ rows, seed, now: now() });
  // Other deployments get their own (smaller) data, made on first use.
  const engines = new Map<number, Promise<DataEngine>>([[1, Promise.resolve(engine)]]);
  const engineFor = (id: number) => {
    let e = engines.get(id);
    if (!e)
      engines.set(
        id,
        (e = createDataEngine({ rows: Math.max(100, Math.round(rows / 4)), seed: seed + id, now: now() })),
      );
    return e;
  };
  const platformData = seedPlatform(seed, opts.notifications ?? 230);
  for (const name of opts.embedTenants ?? []) platformData.embedTenants.add(name);
  // Created objects' ids come from the state's counters (saved with it), starting where the seed's
  // own counter would: a restarted sandbox never hands out an id twice.
  const firstCreatedId = platformData.nextId();
  platformData.nextId = () => issueId(state, 'platform', firstCreatedId);
  const build = registerBuildRoutes(router, {
    deployments: platformData.deployments,
    engineFor,
    starter: (id) => starterOf(state, id),
  });
  // A created deployment's Data API host listens at once (the running sandbox's own servers).
  let openHost: (id: number) => Promise<void> = () => Promise.resolve();
  registerPlatformRoutes(
    router,
    {
      data: platformData,
      state,
      tokens: tok,
      jwtSecret,
      dbtStepMs: opts.dbtStepMs,
      buildStatus: (id, branch) => build.buildStatus(id, branch),
      deployedCubes: async (id) => {
        const repo = build.repo(id);
        const b = repo?.branches.get(repo.deployBranch);
        const compiled = repo && b ? (await repo.compile(b.files)).result : undefined;
        return compiled && compiled.errors.length === 0 ? compiled.cubes : undefined;
      },
    },
    {
      created: (id) => openHost(id),
      reseeded: (id) => build.drop(id),
      deleted: (id) => build.drop(id),
    },
  );
  const continueWaitMs = opts.continueWaitMs ?? 12_000;
  registerDataRoutes(router, {
    engineFor,
    continueWaitMs,
    // The engine's 10 s; a shorter slow query (tests) gets rounds of a third of its run time.
    continueWaitTimeoutMs:
      opts.continueWaitTimeoutMs ??
      (opts.continueWaitMs === undefined ? 10_000 : Math.min(10_000, Math.ceil(continueWaitMs / 3))),
    now,
    state,
    modelFor: (id, branch) => build.modelFor(id, branch),
  });
  // The agent reads the model and runs queries on this sandbox's own Data API (its origin is known
  // once the server listens).
  let origin = '';
  const agentKey = randomUUID();
  const ai = registerAiRoutes(router, {
    data: httpAgentData(() => ({ origin, token: tok.dataApi, agentKey })),
    state,
    eventDelayMs: opts.aiEventDelayMs,
    modelFor: (id, branch) => build.modelFor(id, branch),
  });

  // Each deployment's Data API origin belongs to this run (its port), never to the saved data.
  const hostUrls = new Map<number, string>();
  const putHostUrls = () => {
    for (const d of platformData.deployments) d.deploymentUrl = hostUrls.get(d.id) ?? '';
  };
  let store: StateFile | undefined;
  let persistence: StateFileStatus | undefined;
  if (opts.stateFile) {
    const codec: CodecOptions = {
      dataClasses: [DeploymentRepo],
      redact: (path, value) => {
        // Secret env variable values never reach the file (the sandbox never shows them anyway).
        if (path.length === 4 && path[0] === 'platform' && path[1] === 'envVars')
          return maskEnvVar(value as { name: string; value: string });
        if (path.length === 3 && path[0] === 'platform' && path[1] === 'deployments')
          return { ...(value as object), deploymentUrl: '' };
        return value;
      },
    };
    store = new StateFile(
      { file: opts.stateFile, logger: opts.logger },
      () => ({
        state,
        platform: platformData,
        // Every deployment's data-model repository (made now if it was not yet). Read when the
        // restore reaches it, after the state and the deployments: a created deployment's is made
        // from its starter then, and restored into.
        get repos(): Map<number, DeploymentRepo> {
          return new Map(
            platformData.deployments.flatMap((d) => {
              const r = build.repo(d.id);
              return r ? [[d.id, r] as const] : [];
            }),
          );
        },
        // The restore fills the repositories in place (the map is made from the live ones).
        set repos(_restored: Map<number, DeploymentRepo>) {},
        chats: ai.chats,
      }),
      codec,
      putHostUrls,
    );
    persistence = store.open();
  }

  const info: { value?: unknown } = {};
  const serverDeps = { router, faults, state, tokens: tok, jwtSecret, agentKey, info: () => info.value };
  const main = createSandboxServer(serverDeps);
  const listen = (server: Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(main.server, opts.port ?? 0);
  const base = `http://127.0.0.1:${port}`;
  origin = base;
  // Each deployment's Data API listens on its own loopback port, like the live service's
  // per-deployment hosts; the deployment's deploymentUrl is that origin.
  const hosts: ReturnType<typeof createSandboxServer>[] = [];
  // First, before the request is served: take in what another window's sandbox saved.
  const syncOnRequest = (_req: unknown, res: ServerResponse) => {
    store?.sync();
    res.once('close', () => store?.touch());
  };
  openHost = async (id) => {
    if (hostUrls.has(id)) return putHostUrls();
    const h = createSandboxServer({ ...serverDeps, deploymentHost: id });
    hosts.push(h);
    const p = await listen(h.server, 0);
    hostUrls.set(id, `http://127.0.0.1:${p}`);
    if (store) h.server.prependListener('request', syncOnRequest);
    putHostUrls();
  };
  for (const dep of platformData.deployments) await openHost(dep.id);
  if (store) main.server.prependListener('request', syncOnRequest);
  const urls = {
    platform: `${base}/api`,
    dataApi: `${base}/cubejs-api`,
    ai: AGENTS.map((a) => ({ name: a.name, url: `${base}/ai/api/v1/public/sandbox/agents/${a.id}` })),
    control: `${base}/__sandbox`,
    deployments: platformData.deployments.map((d) => ({
      id: d.id,
      deploymentUrl: String(d.deploymentUrl),
      dataApi: `${String(d.deploymentUrl)}/cubejs-api`,
    })),
  };
  info.value = { urls, tokens: tok, rows: engine.rows };
  opts.logger?.info(`Sandbox listening on ${base} (${engine.rows} orders)`);
  const closeServer = ({ server, sockets }: { server: Server; sockets: Set<Socket> }) =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return {
    port,
    urls,
    tokens: tok,
    faults,
    state,
    persistence,
    saveState: () => store?.save(),
    routes: () => router.list(),
    close: async () => {
      await Promise.all([main, ...hosts].map(closeServer));
      store?.close();
      for (const e of engines.values()) (await e).db.close();
    },
  };
}
