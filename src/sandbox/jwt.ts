// HS256 JSON Web Tokens for the sandbox's Data API (the live service's Data API tokens are HS256
// JWTs whose payload is the security context).
import { createHmac, timingSafeEqual } from 'node:crypto';

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');

export function signJwt(payload: Record<string, unknown>, secret: string, expiresInSeconds = 3600): string {
  const now = Math.floor(Date.now() / 1000);
  const header = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64(JSON.stringify({ iat: now, exp: now + expiresInSeconds, ...payload }));
  const sig = createHmac('sha256', secret).update(`${header}.${body}`).digest('base64url');
  return `${header}.${body}.${sig}`;
}

/** The payload when the token is a valid, unexpired HS256 JWT signed with `secret`. */
export function verifyJwt(token: string, secret: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, body, sig] = parts as [string, string, string];
  const expected = createHmac('sha256', secret).update(`${header}.${body}`).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof payload.exp === 'number' && payload.exp * 1000 < Date.now()) return undefined;
    return payload;
  } catch {
    return undefined;
  }
}
