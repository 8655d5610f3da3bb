// `npm run sandbox -- --port 4100 [--rows N] [--fault JSON] [--state FILE [--reset]]`: starts the
// sandbox standalone and prints one JSON line on stdout with its base URLs, tokens and what it
// found in the state file; logs go to stderr. With --state it keeps its data in FILE between runs
// (--reset removes FILE first: the sample data again).
import * as fs from 'node:fs';
import { FaultRuleSchema, type FaultRule } from './faults';
import { startSandbox } from './index';

function usage(message: string): never {
  process.stderr.write(
    `${message}\nUsage: npm run sandbox -- [--port N] [--rows N] [--notifications N] [--fault '{"family":"data","status":503}'] [--state FILE [--reset]]\n`,
  );
  process.exit(2);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  let port = 0;
  let rows: number | undefined;
  let notifications: number | undefined;
  const faults: FaultRule[] = [];
  let stateFile: string | undefined;
  let reset = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = () => args[++i] ?? usage(`${a} needs a value.`);
    const int = (v: string) =>
      /^\d+$/.test(v) ? Number(v) : usage(`${a} needs a whole number, not "${v}".`);
    if (a === '--port') port = int(value());
    else if (a === '--rows') rows = int(value());
    else if (a === '--notifications') notifications = int(value());
    else if (a === '--state') stateFile = value();
    else if (a === '--reset') reset = true;
    else if (a === '--fault') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value());
      } catch {
        usage('--fault needs a JSON object.');
      }
      const r = FaultRuleSchema.safeParse(parsed);
      if (!r.success) usage(`--fault: ${r.error.issues[0]?.path.join('.')}: ${r.error.issues[0]?.message}`);
      faults.push(r.data);
    } else if (a === '--help' || a === '-h') usage('Starts the Dashboard Platform sandbox.');
    else usage(`Unknown option ${a}.`);
  }
  if (reset && !stateFile) usage('--reset needs --state FILE (the file whose data it removes).');
  const log = (m: string) => process.stderr.write(`[sandbox] ${m}\n`);
  if (reset && stateFile) {
    fs.rmSync(stateFile, { force: true });
    log(`reset: removed ${stateFile}; starting from the sample data`);
  }
  const sandbox = await startSandbox({
    port,
    rows,
    notifications,
    faults,
    stateFile,
    logger: { debug: () => undefined, info: log, warn: log, error: log },
  });
  process.stdout.write(
    `${JSON.stringify({ port: sandbox.port, urls: sandbox.urls, tokens: sandbox.tokens, persistence: sandbox.persistence })}\n`,
  );
  const stop = () => {
    log('stopping');
    void sandbox.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`[sandbox] failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
