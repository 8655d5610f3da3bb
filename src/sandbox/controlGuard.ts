// The control endpoints (/__sandbox/*: tokens, state, faults) answer only the local user's own
// tools: a page on another site must not switch faults (a cross-site POST needs no CORS preflight)
// nor read the tokens through DNS rebinding (a foreign Host header).
import type { IncomingMessage } from 'node:http';

const LOOPBACK_HOST = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])(:\d+)?$/i;

/** Why a control request is refused, or undefined to serve it. */
export function controlRefusal(req: IncomingMessage): string | undefined {
  const host = req.headers.host ?? '';
  if (!LOOPBACK_HOST.test(host))
    return `The control endpoints answer only loopback Host names, not "${host}".`;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let ok: boolean;
    try {
      ok = LOOPBACK_HOST.test(new URL(origin).host);
    } catch {
      ok = false;
    }
    if (!ok) return 'The control endpoints refuse requests from web pages of other sites.';
  } else if (origin === 'null') {
    return 'The control endpoints refuse requests from web pages of other sites.';
  }
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return 'The control endpoints refuse cross-site requests.';
  }
  return undefined;
}
