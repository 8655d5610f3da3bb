// Network settings: which proxy a URL goes through (settings first, then the environment), the
// no-proxy rules, loopback detection and the trusted CA set.
import { readFileSync, statSync } from 'node:fs';
import type * as Tls from 'node:tls';

/** Node's default trusted roots; node:tls is required on first use, not when the bundle loads. */
function rootCertificates(): readonly string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('node:tls') as typeof Tls).rootCertificates;
}

export interface NetworkSettings {
  /** Proxy URL (VS Code's http.proxy). When unset, HTTPS_PROXY / HTTP_PROXY from the environment. */
  proxy?: string;
  /** VS Code's http.proxyStrictSSL: verify server certificates (default true). */
  proxyStrictSSL?: boolean;
  /** VS Code's http.noProxy, merged with NO_PROXY. */
  noProxy?: string[];
  /** Extra trusted CA certificates, PEM text. Added to the default roots. */
  extraCaCerts?: string[];
  /** Files with extra PEM CA certificates (a setting with a file path). */
  extraCaCertFiles?: string[];
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  idleTimeoutMs?: number;
  /** Send loopback traffic through the proxy too (tests only; loopback bypasses it by default). */
  proxyLoopback?: boolean;
}

export type Env = Record<string, string | undefined>;

/**
 * 127.0.0.0/8, ::1 and localhost. Not `*.localhost`: such a name is resolved by the system resolver
 * (or a hosts file) and may point anywhere, so plain HTTP to it would send credentials in clear.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  if (/^::ffff:127\.\d+\.\d+\.\d+$/.test(h)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function envVar(env: Env, name: string): string | undefined {
  const v = env[name] ?? env[name.toLowerCase()] ?? env[name.toUpperCase()];
  return v && v.trim() ? v.trim() : undefined;
}

/** Splits NO_PROXY-style lists (comma or whitespace separated). */
export function parseNoProxy(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * True when `url` matches a no-proxy rule: `*`, a host (matching itself and its subdomains),
 * `.domain`, `*.domain`, `host:port`, or an IPv4 CIDR (`10.0.0.0/8`).
 */
export function matchesNoProxy(url: URL, rules: readonly string[]): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  for (const raw of rules) {
    let rule = raw.toLowerCase();
    if (rule === '*') return true;
    let rulePort: string | undefined;
    const m = /^(.*?):(\d+)$/.exec(rule);
    if (m && !rule.includes('::')) {
      rule = m[1];
      rulePort = m[2];
    }
    if (rulePort && rulePort !== port) continue;
    rule = rule.replace(/^\[|\]$/g, '');
    if (rule.includes('/') && /^\d+\.\d+\.\d+\.\d+\/\d+$/.test(rule) && /^\d+\.\d+\.\d+\.\d+$/.test(host)) {
      if (inCidr(host, rule)) return true;
      continue;
    }
    if (rule.startsWith('*.')) rule = rule.slice(1);
    if (rule.startsWith('.')) {
      if (host.endsWith(rule) || host === rule.slice(1)) return true;
    } else if (host === rule || host.endsWith('.' + rule)) {
      return true;
    }
  }
  return false;
}

function inCidr(ip: string, cidr: string): boolean {
  const [base, bitsText] = cidr.split('/');
  const bits = Number(bitsText);
  const toInt = (s: string): number => s.split('.').reduce((acc, o) => (acc << 8) + Number(o), 0) >>> 0;
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (toInt(ip) & mask) === (toInt(base) & mask);
}

/** The proxy URL for a request to `url`, or undefined for a direct connection. */
export function resolveProxy(
  url: URL,
  settings: NetworkSettings = {},
  env: Env = process.env,
): string | undefined {
  if (isLoopbackHost(url.hostname) && !settings.proxyLoopback) return undefined;
  const explicit = settings.proxy?.trim();
  const proxy =
    explicit ||
    (url.protocol === 'https:'
      ? (envVar(env, 'HTTPS_PROXY') ?? envVar(env, 'HTTP_PROXY'))
      : envVar(env, 'HTTP_PROXY'));
  if (!proxy) return undefined;
  const rules = [...(settings.noProxy ?? []), ...parseNoProxy(envVar(env, 'NO_PROXY'))];
  if (matchesNoProxy(url, rules)) return undefined;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`;
}

export interface CaResult {
  /** The full CA list to use (default roots + extras), or undefined to keep Node's defaults. */
  ca?: string[];
  warnings: string[];
}

/** Default roots plus the extra PEM certificates, the setting's files and NODE_EXTRA_CA_CERTS. */
export function buildCa(settings: NetworkSettings = {}, env: Env = process.env): CaResult {
  const warnings: string[] = [];
  const extras: string[] = [...(settings.extraCaCerts ?? []).filter((p) => p.trim())];
  const files = [...(settings.extraCaCertFiles ?? [])];
  const nodeExtra = env.NODE_EXTRA_CA_CERTS;
  if (nodeExtra) files.push(nodeExtra);
  for (const f of files) {
    try {
      extras.push(readCaFile(f));
    } catch (e) {
      warnings.push(`Could not read the CA certificate file ${f}: ${(e as Error).message}`);
    }
  }
  for (const pem of extras) {
    if (!pem.includes('-----BEGIN CERTIFICATE-----'))
      warnings.push('An extra CA certificate is not PEM text; it was ignored.');
  }
  const valid = extras.filter((p) => p.includes('-----BEGIN CERTIFICATE-----'));
  if (valid.length === 0) return { warnings };
  return { ca: [...rootCertificates(), ...valid], warnings };
}

/**
 * CA files as last read, by path. Each client's dispatcher asks for its CA list, and with
 * NODE_EXTRA_CA_CERTS pointing at a system bundle (hundreds of KB) reading and hashing it again
 * was most of a session's first-query overhead. Read again once the file's size or mtime changes.
 */
const caFiles = new Map<string, { mtimeMs: number; size: number; text: string }>();
function readCaFile(f: string): string {
  const st = statSync(f);
  const hit = caFiles.get(f);
  if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.text;
  const text = readFileSync(f, 'utf8');
  caFiles.set(f, { mtimeMs: st.mtimeMs, size: st.size, text });
  return text;
}

/** A stable key for settings that change how connections are made (for sharing dispatchers). */
export function networkKey(
  settings: NetworkSettings = {},
  proxy: string | undefined,
  ca: string[] | undefined,
): string {
  return JSON.stringify([
    proxy ?? '',
    settings.proxyStrictSSL ?? true,
    ca ? ca.length + ':' + hashText(ca.slice(rootCertificates().length).join('\n')) : '',
    settings.connectTimeoutMs ?? null,
    settings.headersTimeoutMs ?? null,
    settings.bodyTimeoutMs ?? null,
    settings.idleTimeoutMs ?? null,
  ]);
}

/** The last text hashed and its hash: the same extra CAs are keyed again for every client. */
let lastHash: { text: string; hash: string } | undefined;

function hashText(s: string): string {
  if (lastHash?.text === s) return lastHash.hash;
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  lastHash = { text: s, hash: (h >>> 0).toString(16) };
  return lastHash.hash;
}
