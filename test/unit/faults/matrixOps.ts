// The fault matrix's hand-kept cells: operations without a row in an operation table (the rows'
// cells are built from the rows, rowCells.ts). Each platform entry names the published operation
// it calls (`operation`), and the matrix fails once a row declares it, so an entry is deleted when
// its operation gets a row. Reads return what must stay the same under every fault that lets them
// succeed (a projection when the rest may move); a write is sent once.
import * as assert from 'node:assert/strict';
import type { BuildClient, PlatformClient } from '../../../src/api';

export type Family = 'platform' | 'data' | 'ai';
export interface Op {
  name: string;
  family: Family;
  write: boolean;
  /** The request's route, for fault rules (a substring of the family-relative path, or a /regex/). */
  route: string;
  /** The request's method, where the route alone would match others' requests. */
  method?: string;
  /** The published operation a hand-kept platform entry calls (`GET /v1/app-config`). */
  operation?: string;
  /** True when the answer is an NDJSON stream (the stream faults apply). */
  stream?: boolean;
  /** True when the answer has no body (204): a reset after the status is a known success. */
  noBody?: boolean;
  /** True when the answer's body is never read (a 200 whose body is ignored): an empty one is a success. */
  bodyIgnored?: boolean;
  /** Runs before the fault is set, uncounted: makes what the write consumes. */
  prepare?(): Promise<void>;
  run(): Promise<unknown>;
  /** What a success must equal (reads), or satisfy (writes). */
  check?(value: unknown): void;
}

const p = (name: string, operation: string, route: string, run: () => Promise<unknown>): Op => ({
  name,
  family: 'platform',
  write: false,
  operation,
  route,
  run,
});

/** Platform and build reads without a row: each cell's success must equal the baseline. */
export function handReads(_platform: PlatformClient, build: BuildClient): Op[] {
  return [
    p(
      'build.listFiles',
      'GET /v1/deployments/{deploymentId}/data-model/files',
      '/data-model/files',
      async () => (await build.listFiles(1)).map((f) => f.path),
    ),
    p(
      'build.fileHashes',
      'GET /v1/deployments/{deploymentId}/data-model/file-hashes',
      '/file-hashes',
      async () => [...(await build.fileHashes(1)).entries()],
    ),
    p('build.listBranches', 'GET /v1/deployments/{deploymentId}/branches', '/branches', async () =>
      (await build.allBranches(1)).map((b) => b.name),
    ),
  ];
}

/** Platform and build writes without a row: never retried, sent exactly once. */
export function handWrites(_platform: PlatformClient, build: BuildClient): Op[] {
  let n = 0;
  return [
    {
      name: 'build.createBranch',
      family: 'platform',
      write: true,
      operation: 'POST /v1/deployments/{deploymentId}/branches',
      route: '/branches',
      run: () => build.createBranch(1, { name: `matrix-${++n}`, from: 'main' }),
      check: (v) => assert.equal((v as { parentBranch?: string }).parentBranch, 'main'),
    },
  ];
}
