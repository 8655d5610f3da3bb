// The embed tokens the sandbox signs for redeemed embed sessions, and whether one is still good: the
// server's authentication reads this, and so do the embeddable dashboard routes (a file of its own,
// so the server does not import the routes).
import { verifyJwt } from '../jwt';
import type { SandboxState } from '../state';

/** What an embed token says about its holder. */
export interface EmbedClaims {
  typ: 'embed';
  sid: string;
  tenant: string | null;
  userId: number;
  deploymentId: number;
  creator: boolean;
}

export const TOKEN_SECONDS = 24 * 3600;

export function claimsOf(token: string | undefined, secret: string): EmbedClaims | undefined {
  const p = token ? verifyJwt(token, secret) : undefined;
  return p?.typ === 'embed' && typeof p.sid === 'string' ? (p as unknown as EmbedClaims) : undefined;
}

/** An embed token this sandbox signed whose session was not revoked since (server.ts accepts it). */
export function embedTokenValid(token: string, deps: { jwtSecret: string; state: SandboxState }): boolean {
  const c = claimsOf(token, deps.jwtSecret);
  return c !== undefined && deps.state.admin?.embedSessions[c.sid]?.revoked !== true;
}
