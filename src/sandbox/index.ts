// The sandbox: a local emulator of the Platform, Data and AI APIs on 127.0.0.1, speaking the live
// service's wire formats, with seeded sample data, a real SQL engine and fault injection.
// Used by the Sandbox profile, `npm run demo`, the tests, the benchmarks and `npm run sandbox`.
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { ApiLogger } from '../api/log';
import { registerAiRoutes } from './ai';
import { createDataEngine, registerDataRoutes } from './data';
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
  urls: { platform: string; dataApi: string; ai: { name: string; url: string }[]; control: string };
  tokens: SandboxTokens;
  faults: FaultController;
  state: SandboxState;
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
  const engine = await createDataEngine({ rows: opts.rows ?? 20_000, seed });
  registerPlatformRoutes(router, {
    data: seedPlatform(seed, opts.notifications ?? 230),
    state,
    tokens: tok,
    jwtSecret,
    dbtStepMs: opts.dbtStepMs,
  });
  registerDataRoutes(router, { engine, continueWaitMs: opts.continueWaitMs ?? 1500, state });
  registerAiRoutes(router, { engine, state, eventDelayMs: opts.aiEventDelayMs });

  const info: { value?: unknown } = {};
  const { server, sockets } = createSandboxServer({
    router,
    faults,
    state,
    tokens: tok,
    jwtSecret,
    info: () => info.value,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  const urls = {
    platform: `${base}/api`,
    dataApi: `${base}/cubejs-api`,
    ai: AGENTS.map((a) => ({ name: a.name, url: `${base}/ai/api/v1/public/sandbox/agents/${a.id}` })),
    control: `${base}/__sandbox`,
  };
  info.value = { urls, tokens: tok, rows: engine.rows };
  opts.logger?.info(`Sandbox listening on ${base} (${engine.rows} orders)`);
  return {
    port,
    urls,
    tokens: tok,
    faults,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
        engine.db.close();
      }),
  };
}
