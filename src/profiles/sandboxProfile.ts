// The built-in "Sandbox" profile: starts the local emulator (src/sandbox) on a free loopback port the
// first time it is needed (in a worker thread, see sandboxLoader.ts), keeps its tokens in memory
// only, and stops it with the extension. Starting is lazy so activation does no work for it.
import type { ApiLogger } from '../api/log';
import { SANDBOX_PROFILE_NAME, type Profile } from './profileModel';

/** The part of src/sandbox's SandboxHandle the extension uses (see docs/contracts.md). */
export interface SandboxHandleLike {
  port: number;
  urls: { platform: string; dataApi: string; ai: { name: string; url: string }[] };
  tokens: { admin: string; member: string; dataApi: string; aiApiKey: string };
  /** Settles when a sandbox running elsewhere (a worker) has gone, even without close(). */
  readonly exited?: Promise<void>;
  close(): Promise<void>;
}

export interface SandboxModule<H extends SandboxHandleLike = SandboxHandleLike> {
  startSandbox(opts?: { port?: number; rows?: number; logger?: ApiLogger }): Promise<H>;
}

/** What the rest of the extension needs of the sandbox manager. */
export interface SandboxControl {
  readonly current: SandboxHandleLike | undefined;
  start(): Promise<SandboxHandleLike>;
  stop(): Promise<boolean>;
  onDidChange(listener: (h: SandboxHandleLike | undefined) => void): { dispose(): void };
}

export class SandboxManager<H extends SandboxHandleLike = SandboxHandleLike> implements SandboxControl {
  private handle: H | undefined;
  private starting: Promise<H> | undefined;
  private readonly listeners = new Set<(h: H | undefined) => void>();

  constructor(
    private readonly load: () => Promise<SandboxModule<H>>,
    private readonly options: () => { rows?: number },
    private readonly logger: ApiLogger,
  ) {}

  get current(): H | undefined {
    return this.handle;
  }

  /** Called with the handle after a start and with undefined after a stop. */
  onDidChange(listener: (h: H | undefined) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Starts the sandbox once; concurrent callers share the same start. */
  start(): Promise<H> {
    if (this.handle) return Promise.resolve(this.handle);
    this.starting ??= this.doStart().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async doStart(): Promise<H> {
    let mod: SandboxModule<H>;
    try {
      mod = await this.load();
    } catch (e) {
      throw new Error(
        `The sandbox is not available in this build, so the "${SANDBOX_PROFILE_NAME}" profile cannot start (${(e as Error).message}).`,
        { cause: e },
      );
    }
    const t0 = Date.now();
    let handle: H;
    try {
      handle = await mod.startSandbox({ port: 0, logger: this.logger, ...this.options() });
    } catch (e) {
      throw new Error(`The sandbox failed to start: ${(e as Error).message}`, { cause: e });
    }
    this.handle = handle;
    this.logger.info(`Sandbox started on ${handle.urls.platform} in ${Date.now() - t0} ms`);
    // A worker that dies on its own leaves no sandbox: the next use starts a new one.
    void handle.exited?.then(() => {
      if (this.handle !== handle) return;
      this.handle = undefined;
      this.logger.warn('The sandbox stopped unexpectedly; it starts again on next use.');
      for (const l of this.listeners) l(undefined);
    });
    for (const l of this.listeners) l(handle);
    return handle;
  }

  async stop(): Promise<boolean> {
    const h = this.handle ?? (this.starting ? await this.starting.catch(() => undefined) : undefined);
    if (!h) return false;
    this.handle = undefined;
    await h.close();
    this.logger.info('Sandbox stopped');
    for (const l of this.listeners) l(undefined);
    return true;
  }

  dispose(): Promise<boolean> {
    return this.stop();
  }
}

/** The Sandbox profile as a Profile (URLs known only once it runs). */
export function sandboxProfile(h: SandboxHandleLike | undefined): Profile {
  const base = h?.urls.platform ?? 'http://127.0.0.1/api';
  return {
    name: SANDBOX_PROFILE_NAME,
    platformUrl: base,
    dataApiUrl: h?.urls.dataApi,
    agents: (h?.urls.ai ?? []).map((a) => ({ label: a.name, url: a.url })),
    environment: 'local',
    session: { externalId: 'sandbox-user', email: 'sandbox@example.com' },
  };
}

/** Lines for the log: URLs and the fault-control endpoint, never the tokens. */
export function sandboxInfoLines(h: SandboxHandleLike): string[] {
  const origin = new URL(h.urls.platform).origin;
  return [
    `Sandbox running on port ${h.port}`,
    `  platform API: ${h.urls.platform}`,
    `  Data API:     ${h.urls.dataApi}`,
    ...h.urls.ai.map((a) => `  AI agent "${a.name}": ${a.url}`),
    `  info (URLs and tokens): ${origin}/__sandbox/info`,
    `  fault control: ${origin}/__sandbox/faults (GET list, PUT replace, POST add, DELETE clear)`,
    `  state: ${origin}/__sandbox/state`,
  ];
}
