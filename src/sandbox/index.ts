// The sandbox: a local emulator of the Platform, Data and AI APIs on 127.0.0.1, speaking the live
// service's wire formats, with seeded sample data, a real SQL engine and fault injection.
// Used by the Sandbox profile, `npm run demo`, the tests, the benchmarks and `npm run sandbox`.
import { createHash, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ApiLogger } from '../api/log';
import { registerAiRoutes } from './ai';
import { httpAgentData } from './ai/dataApi';
import { registerBuildRoutes } from './build';
import { createDataEngine, registerDataRoutes, type DataEngine } from './data';
import { FaultController, type FaultRule } from './faults';
import { Router } from './http';
import { signJwt } from './jwt';
import { registerPlatformRoutes } from './platform/routes';
import { seedPlatform } from './platform/seed';
import { createSandboxServer, type SandboxTokens } from './server';
import { createSandboxState, type SandboxState } from './state';

export type { FaultRule } from './faults';
export { FaultController } from './faults';
export type { SandboxState } from './state';

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Rows of the orders table (default 20,000; millions for benchmarks). */
  rows?: number;
  /** Notifications in deployment 1 (default 230). */
  notifications?: number;
  faults?: FaultRule[];
  logger?: ApiLogger;
  /** How long slow queries answer "Continue wait" (default 1500 ms). */
  continueWaitMs?: number;
  /** Pause between AI stream events (default 25 ms). */
  aiEventDelayMs?: number;
  /** How long each dbt sync state lasts (default 500 ms). */
  dbtStepMs?: number;
  seed?: number;
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
  /** Every route the sandbox serves (`family METHOD /pattern`), for contract tests. */
  routes(): { family: string; method: string; pattern: string }[];
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
  const engine = await createDataEngine({ rows, seed });
  // Other deployments get their own (smaller) data, made on first use.
  const engines = new Map<number, Promise<DataEngine>>([[1, Promise.resolve(engine)]]);
  const engineFor = (id: number) => {
    let e = engines.get(id);
    if (!e)
      engines.set(id, (e = createDataEngine({ rows: Math.max(100, Math.round(rows / 4)), seed: seed + id })));
    return e;
  };
  const platformData = seedPlatform(seed, opts.notifications ?? 230);
  const build = registerBuildRoutes(router, { deployments: platformData.deployments, engineFor });
  registerPlatformRoutes(router, {
    data: platformData,
    state,
    tokens: tok,
    jwtSecret,
    dbtStepMs: opts.dbtStepMs,
    buildStatus: (id, branch) => build.buildStatus(id, branch),
  });
  registerDataRoutes(router, {
    engineFor,
    continueWaitMs: opts.continueWaitMs ?? 1500,
    state,
    modelFor: (id, branch) => build.modelFor(id, branch),
  });
  // The agent reads the model and runs queries on this sandbox's own Data API (its origin is known
  // once the server listens).
  let origin = '';
  const agentKey = randomUUID();
  registerAiRoutes(router, {
    data: httpAgentData(() => ({ origin, token: tok.dataApi, agentKey })),
    state,
    eventDelayMs: opts.aiEventDelayMs,
    modelFor: (id, branch) => build.modelFor(id, branch),
  });

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
  for (const dep of platformData.deployments) {
    const h = createSandboxServer({ ...serverDeps, deploymentHost: dep.id });
    const p = await listen(h.server, 0);
    dep.deploymentUrl = `http://127.0.0.1:${p}`;
    hosts.push(h);
  }
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
    routes: () => router.list(),
    close: async () => {
      await Promise.all([main, ...hosts].map(closeServer));
      for (const e of engines.values()) (await e).db.close();
    },
  };
}
