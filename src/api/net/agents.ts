// Shared, reference-counted undici dispatchers: one keep-alive pool per origin and network settings,
// so every client talking to the same host reuses its connections.
import { Agent, Client, Pool, ProxyAgent, type buildConnector, type Dispatcher } from 'undici';
import { buildCa, networkKey, resolveProxy, type Env, type NetworkSettings } from './network';

export interface DispatcherLease {
  /** The current pool (a new one after `reset`). */
  readonly dispatcher: Dispatcher;
  /** Redacted-safe proxy URL when the connection goes through a proxy. */
  proxy?: string;
  warnings: string[];
  release(): Promise<void>;
  /**
   * Destroys the pool and puts a fresh one in its place for every holder. For a call that did not
   * end on abort: undici 7 keeps re-dialling a proxy that drops the CONNECT tunnel, ignoring the
   * request's signal, until its pool is destroyed.
   */
  reset(): void;
}

interface Entry {
  dispatcher: Dispatcher;
  proxy?: string;
  refs: number;
}

const DEFAULTS = {
  connectTimeoutMs: 15_000,
  headersTimeoutMs: 120_000,
  bodyTimeoutMs: 120_000,
  idleTimeoutMs: 30_000,
};

export class DispatcherRegistry {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly env: Env = process.env) {}

  /** A dispatcher for `origin` with `settings`; shared with other holders of the same pair. */
  acquire(origin: URL, settings: NetworkSettings = {}): DispatcherLease {
    const proxy = resolveProxy(origin, settings, this.env);
    const { ca, warnings } = buildCa(settings, this.env);
    const key = `${origin.origin}|${networkKey(settings, proxy, ca)}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { dispatcher: create(settings, proxy, ca), proxy, refs: 0 };
      this.entries.set(key, entry);
    }
    entry.refs++;
    let released = false;
    const e = entry;
    return {
      get dispatcher() {
        return e.dispatcher;
      },
      proxy,
      warnings,
      reset: () => {
        const old = e.dispatcher;
        e.dispatcher = create(settings, proxy, ca);
        old.destroy().catch(() => undefined);
      },
      release: async () => {
        if (released) return;
        released = true;
        e.refs--;
        if (e.refs <= 0 && this.entries.get(key) === e) {
          this.entries.delete(key);
          await e.dispatcher.close().catch(() => undefined);
        }
      },
    };
  }

  get size(): number {
    return this.entries.size;
  }
}

function create(settings: NetworkSettings, proxy: string | undefined, ca: string[] | undefined): Dispatcher {
  const rejectUnauthorized = settings.proxyStrictSSL !== false;
  const timeouts = {
    headersTimeout: settings.headersTimeoutMs ?? DEFAULTS.headersTimeoutMs,
    bodyTimeout: settings.bodyTimeoutMs ?? DEFAULTS.bodyTimeoutMs,
    keepAliveTimeout: settings.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
    connectTimeout: settings.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
  };
  const tls = { ...(ca ? { ca } : {}), rejectUnauthorized, timeout: timeouts.connectTimeout };
  if (proxy) {
    return new ProxyAgent({
      uri: proxy,
      ...timeouts,
      requestTls: tls,
      proxyTls: tls,
      factory: tunnelGuardFactory,
    });
  }
  return new Agent({ ...timeouts, connect: tls });
}

type Connector = buildConnector.connector;

/**
 * undici counts a tunnel the proxy closed before answering CONNECT as a recoverable socket error:
 * the request stays queued and the pool re-dials at once, forever, ignoring the request's signal
 * (a busy loop). Reported as PROXY_TUNNEL_FAILED instead, the request fails at once, and the
 * transport decides: a backoff and a bounded retry for a read, none for a write (nothing was sent).
 */
export function guardTunnel(connect: Connector): Connector {
  return (opts, callback) =>
    connect(opts, (err, socket) => {
      const code = (err as { code?: unknown } | null)?.code;
      if (err && (code === 'UND_ERR_SOCKET' || code === 'UND_ERR_INFO' || code === undefined)) {
        callback(
          Object.assign(
            new Error(`The proxy closed the connection before the tunnel opened: ${err.message}`),
            {
              code: 'PROXY_TUNNEL_FAILED',
              cause: err,
            },
          ),
          null,
        );
        return;
      }
      // undici's callback takes (error, null) or (null, socket).
      (callback as (e: Error | null, s: unknown) => void)(err, socket);
    });
}

/** ProxyAgent's per-origin pools, with the tunnel connector guarded (undici's own default otherwise). */
function tunnelGuardFactory(origin: string | URL, opts: object): Dispatcher {
  const o = opts as Pool.Options;
  const options: Pool.Options =
    typeof o.connect === 'function' ? { ...o, connect: guardTunnel(o.connect) } : o;
  return o.connections === 1 ? new Client(origin, options) : new Pool(origin, options);
}

/** The registry used when a client is not given one: shares pools across all clients of the process. */
export const sharedDispatchers = new DispatcherRegistry();
