// How an AI agent is named in pickers: its name, with where it runs in words. A sandbox agent's URL
// carries a port that changes on every start, so it reads "Sandbox"; a platform agent reads as its
// host and account, never as a raw URL.
const AGENT_PATH = /\/api\/v1\/public\/([^/]+)\/agents\/([^/?#]+)/;

export function agentDescription(url: string, sandbox: boolean): string {
  if (sandbox) return 'Sandbox';
  try {
    const u = new URL(url);
    const m = AGENT_PATH.exec(u.pathname);
    return m ? `${u.host} · account ${decodeURIComponent(m[1]!)}` : u.host;
  } catch {
    return url;
  }
}
