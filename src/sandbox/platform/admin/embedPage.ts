// The tenant host's embed page, as the sandbox plays it: `/embed/dashboard/{publicId}?session=<id>`
// shows the published dashboard for the session's end user while the session stands, and refuses
// it (401) once revoked. Not part of the API families; plain HTML with a CSP that allows nothing
// but inline styles.
import type { ServerResponse } from 'node:http';
import type { SandboxState } from '../../state';
import { esc, sendHtml } from './htmlPage';

const STYLE =
  'body{font-family:system-ui,sans-serif;margin:2rem;color:#222;background:#fafafa}' +
  '.card{border:1px solid #ccc;border-radius:6px;padding:1rem;background:#fff;max-width:40rem}';
const page = (res: ServerResponse, status: number, title: string, body: string) =>
  sendHtml(res, status, title, STYLE, `<div class="card">${body}</div>`);

/** Answers `/embed/...` requests; returns false for any other path. */
export function serveEmbedPage(url: URL, res: ServerResponse, state: SandboxState): boolean {
  const m = /^\/embed\/dashboard\/([^/]+)$/.exec(url.pathname);
  if (!m) return false;
  const publicId = decodeURIComponent(m[1]!);
  const sessionId = url.searchParams.get('session') ?? '';
  const s = state.admin?.embedSessions[sessionId];
  if (!s || s.publicDashboardId !== publicId) {
    page(
      res,
      401,
      'Embed session not valid',
      '<h1>Embed session not valid</h1><p>Generate a new embed session.</p>',
    );
  } else if (s.revoked) {
    page(
      res,
      401,
      'Embed session revoked',
      '<h1>Embed session revoked</h1><p>This embed session was revoked.</p>',
    );
  } else {
    const who = `${esc(s.externalId)}${s.embedTenantName ? ` in tenant ${esc(s.embedTenantName)}` : ''}`;
    const groups = s.tenantGroups.length ? `<p>Groups: ${s.tenantGroups.map(esc).join(', ')}</p>` : '';
    page(
      res,
      200,
      s.dashboardTitle,
      `<h1>${esc(s.dashboardTitle)}</h1><p>Embedded dashboard ${esc(publicId)}, seen as ${who}.</p>${groups}`,
    );
  }
  return true;
}
