// Loads the sandbox for the Sandbox profile on first use, in a worker thread: its SQL engine
// (sql.js) is synchronous, and in the extension host's thread a large or concurrent load stalled
// the editor (issue 20). In the packaged extension the worker runs dist/sandboxWorker.js, beside
// dist/extension.js; from compiled sources (tests) it runs the module next door. Nothing of the
// sandbox is loaded into the host: activation neither parses nor pays for it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as WorkerThreads from 'node:worker_threads';
import type { ApiLogger } from '../api/log';
import type { HostToWorker, WorkerSandboxInfo, WorkerStartOptions, WorkerToHost } from '../sandbox/worker';
import type { SandboxModule } from './sandboxProfile';

/** The running sandbox as the host sees it: what clients need, plus where it runs. */
export interface SandboxHandle extends WorkerSandboxInfo {
  /** Settles when the worker has gone (after close(), or if it crashed). */
  readonly exited: Promise<void>;
  close(): Promise<void>;
}

/** How long close() waits for the servers to shut before the worker is terminated anyway. */
const CLOSE_GRACE_MS = 5_000;

export function sandboxWorkerFile(dir = __dirname): string {
  const bundled = path.join(dir, 'sandboxWorker.js');
  return fs.existsSync(bundled) ? bundled : path.join(dir, '..', 'sandbox', 'worker.js');
}

/** Starts the sandbox in a new worker thread and resolves once it listens. */
export function startSandboxWorker(
  opts: WorkerStartOptions & { logger?: ApiLogger } = {},
  file = sandboxWorkerFile(),
): Promise<SandboxHandle> {
  const { logger, ...rest } = opts;
  // Settings may hold undefined values; structured clone keeps them, the sandbox ignores them.
  // Required here, on the sandbox's first use, not when the startup bundle loads.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Worker } = require('node:worker_threads') as typeof WorkerThreads;
  const worker = new Worker(file, { name: 'dashboard-platform-sandbox' });
  const send = (m: HostToWorker) => worker.postMessage(m);
  let closedSignal: (() => void) | undefined;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return new Promise<SandboxHandle>((resolve, reject) => {
    let started = false;
    worker.on('message', (m: WorkerToHost) => {
      if (m.type === 'log') logger?.[m.level](m.message);
      else if (m.type === 'closed') closedSignal?.();
      else if (m.type === 'failed') {
        reject(new Error(m.message));
        void worker.terminate();
      } else if (m.type === 'started') {
        started = true;
        let closing: Promise<void> | undefined;
        const close = () =>
          (closing ??= (async () => {
            const closed = new Promise<void>((r) => (closedSignal = r));
            send({ type: 'close' });
            let timer: NodeJS.Timeout | undefined;
            const grace = new Promise<void>((r) => (timer = setTimeout(r, CLOSE_GRACE_MS)));
            await Promise.race([closed, grace, exited]);
            clearTimeout(timer);
            await worker.terminate();
          })());
        resolve({ ...m.info, exited, close });
      }
    });
    worker.once('error', (e) => {
      logger?.error(`The sandbox worker failed: ${e.message}`);
      if (!started) reject(e);
    });
    worker.once('exit', (code) => {
      if (!started) reject(new Error(`the sandbox worker exited (code ${code}) before it started`));
    });
    send({ type: 'start', opts: rest });
  });
}

/**
 * The sandbox module the Sandbox profile uses: every start is a new worker. `extra` joins every
 * start's options (the state file in the extension's global storage).
 */
export function loadSandbox(extra: WorkerStartOptions = {}): Promise<SandboxModule<SandboxHandle>> {
  return Promise.resolve({ startSandbox: (opts) => startSandboxWorker({ ...opts, ...extra }) });
}
