// Entry point of dist/mcp.js: the Dashboard Platform MCP server over stdio. Configured only by
// environment variables (see config.ts and the README); `--sandbox` runs it against a local sandbox
// started in-process instead. Logs go to stderr (stdout carries the protocol), redacted.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { redact, type ApiLogger } from '../api/log';
import { PlatformGateway } from '../agents/gateway';
import { EnvClientSource, readMcpConfig, MCP_ENV, type McpConfig } from './config';
import { createMcpServer } from './mcpServer';
import { RobustStdioTransport } from './stdioTransport';

/** The extension's version (dist/mcp.js sits in dist/, beside ../package.json). */
function version(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return String(pkg.version ?? '0.0.0');
  } catch {
    return '0.0.0';
  }
}

interface SandboxLike {
  urls: { platform: string; dataApi: string };
  tokens: { admin: string; dataApi: string };
  close(): Promise<void>;
}

async function sandboxConfig(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  // The sandbox bundle sits next to this one (dist/sandbox.js); computed paths keep it out of
  // mcp.js. Run from the compiled sources (out/src/mcp), the sandbox is out/src/sandbox.
  const candidates = [path.join(__dirname, 'sandbox.js'), path.join(__dirname, '..', 'sandbox', 'index.js')];
  const file = candidates.find((f) => fs.existsSync(f)) ?? candidates[0]!;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(file) as { startSandbox(o: { port: number }): Promise<SandboxLike> };
  const h = await mod.startSandbox({ port: 0 });
  return {
    env: {
      [MCP_ENV.platformUrl]: h.urls.platform,
      [MCP_ENV.dataApiUrl]: h.urls.dataApi,
      [MCP_ENV.platformToken]: h.tokens.admin,
      [MCP_ENV.dataApiToken]: h.tokens.dataApi,
      [MCP_ENV.profile]: 'Sandbox',
    },
    close: () => h.close(),
  };
}

async function main(): Promise<void> {
  let env: Record<string, string | undefined> = process.env;
  let closeSandbox: (() => Promise<void>) | undefined;
  if (process.argv.includes('--sandbox')) {
    const s = await sandboxConfig();
    env = { ...process.env, ...s.env };
    closeSandbox = s.close;
  }
  const config: McpConfig = readMcpConfig(env, process.cwd());
  const holder: { source?: EnvClientSource } = {};
  const secrets = () => holder.source?.secrets() ?? [config.platformToken, config.dataApiToken];
  const scrub = (text: string) => redact(text, secrets());
  const line = (level: string) => (m: string) => process.stderr.write(`[${level}] ${scrub(m)}\n`);
  const logger: ApiLogger = {
    debug: () => undefined,
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
  };
  const source = new EnvClientSource(config, logger);
  holder.source = source;
  const gateway = new PlatformGateway(source, () => config.profile);
  const server = createMcpServer({
    gateway,
    allowWrites: config.allowWrites,
    allowProductionWrites: config.allowProductionWrites,
    root: config.root,
    redact: scrub,
    log: logger,
    version: version(),
  });
  const shutdown = async () => {
    await server.close().catch(() => undefined);
    await source.close();
    await closeSandbox?.();
    process.exit(0);
  };
  process.stdin.on('end', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  // The SDK reports a dropped or failed message here; the session goes on.
  server.onerror = (e) => logger.error(`[mcp] ${e.message}`);
  await server.connect(new RobustStdioTransport(process.stdin, process.stdout, { log: logger.error }));
  logger.info(
    `Dashboard Platform MCP server ready: profile "${config.profile.name}", ${config.platformUrl}, ${config.allowWrites ? (config.allowProductionWrites ? 'writes and production writes allowed' : 'writes allowed') : 'read-only'}${config.profile.production ? ', production' : ''}`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`${redact(e instanceof Error ? e.message : String(e))}\n`);
  process.exit(1);
});
