// How the benchmarks measure in fresh processes: a bench file forks itself with a role (`--child
// MODE ...`), the child sends its one result over IPC and exits; and the cubesql answer they
// replay, captured from the sandbox once (or read from --body).
import { fork } from 'node:child_process';
import * as fs from 'node:fs';
import { startSandbox } from '../src/sandbox';
import { argText } from './benchArgs';
import { captureCubesql } from './replay';

/**
 * Runs `file` again as `--child mode ...args` (with --expose-gc) and resolves with the result it
 * sends; an exit without one rejects, naming `what`.
 */
export function measureInChild<R>(file: string, mode: string, args: string[], what = mode): Promise<R> {
  return new Promise((resolve, reject) => {
    const cp = fork(file, ['--child', mode, ...args], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: ['--expose-gc'],
    });
    let result: R | undefined;
    cp.on('message', (m) => (result = m as R));
    cp.on('error', reject);
    cp.on('exit', (code) => (result ? resolve(result) : reject(new Error(`${what} exited with ${code}`))));
  });
}

/** The cubesql answer to `sql` over a sandbox of `rows` rows, or the file given as --body. */
export async function capturedAnswer(rows: number, sql: string): Promise<Buffer> {
  const given = argText('body');
  if (given) return fs.readFileSync(given);
  const sandbox = await startSandbox({ rows });
  try {
    return await captureCubesql(sandbox.urls.dataApi, sandbox.tokens.dataApi, sql);
  } finally {
    await sandbox.close();
  }
}

/**
 * Runs the bench's `main`, or in a process forked with `--<role>` that part (given the arguments
 * after the role), which exits when done; a failure of either is printed and exits 1.
 */
export function runBench(
  main: () => Promise<void>,
  parts: Record<string, (args: string[]) => Promise<unknown>> = {},
): void {
  const fail = (e: unknown) => {
    console.error(e);
    process.exit(1);
  };
  const role = process.argv[2]?.replace(/^--/, '') ?? '';
  const part = process.argv[2]?.startsWith('--') && Object.hasOwn(parts, role) ? parts[role] : undefined;
  if (part) part(process.argv.slice(3)).then(() => process.exit(0), fail);
  else main().catch(fail);
}
