// The rules of a profile's fields (URLs, colours, the sandbox's name), shared by the zod schema
// (profileSchema.ts, the Add Profile flow) and the zod-free parser of settings (profileParse.ts).
// No vscode import.
import { isLoopbackHost } from '../api/net/network';

export const SANDBOX_PROFILE_NAME = 'Sandbox';

/** Returns an error sentence for a URL the extension may not use, or undefined when it is fine. */
export function validateUrl(value: string, what = 'URL'): string | undefined {
  const text = value.trim();
  if (!text) return `Enter the ${what}.`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `"${text}" is not a valid URL. Enter a full URL such as https://example.com/api.`;
  }
  if (url.username || url.password)
    return `Do not put credentials in the ${what}; tokens are stored separately.`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    if (isLoopbackHost(url.hostname)) return undefined;
    return `http:// is refused for ${url.host}: tokens would travel unencrypted. Use https:// (http:// is allowed only for localhost, 127.0.0.0/8 and ::1).`;
  }
  return `Unsupported scheme "${url.protocol}" in the ${what}. Use https://.`;
}

const AGENT_PATH = /\/api\/v1\/public\/[^/]+\/agents\/[^/]+\/?$/;

/** Extra rule for AI agent URLs: `.../api/v1/public/{account}/agents/{agentId}`. */
export function validateAgentUrl(value: string): string | undefined {
  const base = validateUrl(value, 'AI agent URL');
  if (base) return base;
  const url = new URL(value.trim());
  if (!AGENT_PATH.test(url.pathname)) {
    return 'An AI agent URL ends with /api/v1/public/{account}/agents/{agentId}.';
  }
  return undefined;
}

/** Normalises a base URL: trimmed, no trailing slash. */
export function normalizeUrl(value: string): string {
  return value.trim().replace(/\/+$/, '');
}

export const PROFILE_COLORS = ['none', 'warning', 'error'] as const;
export type ProfileColor = (typeof PROFILE_COLORS)[number];
