// The sandbox in a worker thread: the extension runs the emulator here (dist/sandboxWorker.js), so
// its SQL engine (sql.js, synchronous) never stalls the extension host's event loop. Messages: the
// host sends `start` (options) and `close`; the worker answers `started` (what a client needs: port,
// URLs, tokens, and its thread id so tests can tell where it runs), `closed`, `failed`, and `log`.
import { parentPort, threadId } from 'node:worker_threads';
import type { ApiLogger } from '../api/log';
import { startSandbox, type SandboxHandle, type SandboxOptions, type StateFileStatus } from './index';

/** What crosses the thread boundary (structured clone): options without the logger. */
export type WorkerStartOptions = Omit<SandboxOptions, 'logger'>;

export type HostToWorker = { type: 'start'; opts: WorkerStartOptions } | { type: 'close' };

export interface WorkerSandboxInfo {
  port: number;
  urls: SandboxHandle['urls'];
  tokens: SandboxHandle['tokens'];
  threadId: number;
  pid: number;
  /** What the start found in the state file (undefined without one). */
  persistence?: StateFileStatus;
}

export type WorkerToHost =
  | { type: 'started'; info: WorkerSandboxInfo }
  | { type: 'failed'; message: string }
  | { type: 'closed' }
  | { type: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; message: string };

const port = parentPort;
if (port) {
  const post = (m: WorkerToHost) => port.postMessage(m);
  const logger: ApiLogger = {
    debug: (message) => post({ type: 'log', level: 'debug', message }),
    info: (message) => post({ type: 'log', level: 'info', message }),
    warn: (message) => post({ type: 'log', level: 'warn', message }),
    error: (message) => post({ type: 'log', level: 'error', message }),
  };
  let handle: SandboxHandle | undefined;
  port.on('message', (m: HostToWorker) => {
    if (m.type === 'start') {
      startSandbox({ ...m.opts, logger }).then(
        (h) => {
          handle = h;
          post({
            type: 'started',
            info: {
              port: h.port,
              urls: h.urls,
              tokens: h.tokens,
              threadId,
              pid: process.pid,
              persistence: h.persistence,
            },
          });
        },
        (e: unknown) => post({ type: 'failed', message: e instanceof Error ? e.message : String(e) }),
      );
    } else if (m.type === 'close') {
      const h = handle;
      handle = undefined;
      void (h ? h.close() : Promise.resolve()).finally(() => post({ type: 'closed' }));
    }
  });
}
