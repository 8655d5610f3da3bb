// Client benchmarks measure the client, not the server: the bytes of a real cubesql answer are
// captured once from the sandbox, then a loopback server replays them (costing next to nothing) to
// every reader in the run. Shared by the benchmarks that time a cubesql reader.
import { fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

/** The whole body of `POST /v1/cubesql` (re-asked while the sandbox says "Continue wait"). */
export async function captureCubesql(dataApiUrl: string, token: string, sql: string): Promise<Buffer> {
  for (;;) {
    const res = await request(dataApiUrl.replace(/\/+$/, '') + '/v1/cubesql', {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({ query: sql, throwContinueWait: true }),
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode !== 200)
      throw new Error(`capture: HTTP ${res.statusCode}: ${body.toString('utf8', 0, 200)}`);
    if (!body.subarray(0, 40).toString().includes('Continue wait')) return body;
  }
}

/** The schema line and the data lines up to `rows` rows (whole lines), as a body of its own. */
export function prefixRows(body: Buffer, rows: number): { body: Buffer; rows: number } {
  let taken = 0;
  let end = 0;
  for (let start = 0; start < body.length;) {
    let nl = body.indexOf(0x0a, start);
    if (nl < 0) nl = body.length - 1;
    const line = body.toString('utf8', start, nl);
    if (line.startsWith('{"data":')) {
      if (taken >= rows) break;
      taken += (JSON.parse(line) as { data: unknown[] }).data.length;
    }
    end = nl + 1;
    start = nl + 1;
  }
  return { body: body.subarray(0, end), rows: taken };
}

export interface Replay {
  /** Base URL to use as the Data API URL (any path ending in /cubesql answers). */
  url: string;
  /** Switches the body served from now on. */
  serve(body: Buffer): void;
  close(): Promise<void>;
}

/** A loopback server answering every `…/cubesql` request with `body`, in `chunkBytes` writes. */
export async function startReplay(body: Buffer, chunkBytes = 64 * 1024): Promise<Replay> {
  let current = body;
  const server = http.createServer((req, res) => {
    req.resume();
    if (!req.url?.split('?')[0]!.endsWith('/cubesql')) {
      res.writeHead(404).end();
      return;
    }
    const bytes = current;
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'replay' });
    let off = 0;
    const pump = (): void => {
      while (off < bytes.length) {
        const piece = bytes.subarray(off, off + chunkBytes);
        off += piece.length;
        if (!res.write(piece)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    pump();
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/cubejs-api`,
    serve: (b) => (current = b),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export { median } from './benchArgs';

/** The schema line, then the data lines of `body` repeated `times` times (the same bytes, more rows). */
export function repeatRows(body: Buffer, times: number): Buffer {
  const firstData = body.indexOf('\n{"data":');
  if (firstData < 0) throw new Error('repeatRows: no data line');
  const head = body.subarray(0, firstData + 1);
  const data = body.subarray(firstData + 1);
  return Buffer.concat([head, ...Array.from({ length: times }, () => data)]);
}

/**
 * The replay server in a process of its own, serving the bytes of `file`: the reader's process then
 * holds the reader alone, and the server's CPU is not counted in the reader's.
 */
export async function startReplayProcess(
  file: string,
): Promise<Replay & { serveFile(file: string): Promise<void> }> {
  const cp = fork(__filename, ['--serve', file], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`replay server exited with ${code}`));
      cp.once('exit', onExit);
      cp.once('message', (m) => {
        cp.off('exit', onExit);
        resolve(String(m));
      });
    });
  const url = await next();
  return {
    url,
    serve: () => {
      throw new Error('use serveFile with a replay process');
    },
    serveFile: async (f: string) => {
      const done = next();
      cp.send(f);
      await done;
    },
    close: async () => {
      const exited = new Promise((resolve) => cp.once('exit', resolve));
      cp.kill();
      await exited;
    },
  };
}

if (process.argv[2] === '--serve' && process.send) {
  void startReplay(fs.readFileSync(process.argv[3]!)).then((replay) => {
    process.on('message', (f) => {
      replay.serve(fs.readFileSync(String(f)));
      process.send!('ok');
    });
    process.send!(replay.url);
  });
}
