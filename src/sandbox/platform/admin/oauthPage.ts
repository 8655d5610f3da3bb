// The sandbox's OAuth sign-in page: where `POST /v1/user-oauth-tokens/{id}/initiate` sends the
// user. Opening it plays the identity provider's consent: the pending sign-in becomes an active
// token of that user for that integration (replacing one they held), and the page says so. An
// unknown or used state is refused (400). Not part of the API families; plain HTML, no scripts.
import type { ServerResponse } from 'node:http';
import type { SandboxState } from '../../state';
import { issueId } from '../../state';
import { esc, sendHtml } from './htmlPage';

export const OAUTH_SIGN_IN_PATH = '/oauth/sandbox-sign-in';

const page = (res: ServerResponse, status: number, title: string, text: string) =>
  sendHtml(
    res,
    status,
    title,
    'body{font-family:system-ui,sans-serif;margin:2rem}',
    `<h1>${esc(title)}</h1><p>${esc(text)}</p>`,
  );

/** Answers the sign-in page; returns false for any other path. */
export function serveOAuthPage(url: URL, res: ServerResponse, state: SandboxState): boolean {
  if (url.pathname !== OAUTH_SIGN_IN_PATH) return false;
  const admin = state.admin;
  const key = url.searchParams.get('state') ?? '';
  const pending = admin?.oauthSignIns[key];
  if (!admin || !pending) {
    page(
      res,
      400,
      'Sign-in not valid',
      'This sign-in was used or never started. Start it again from VS Code.',
    );
    return true;
  }
  delete admin.oauthSignIns[key];
  const now = new Date();
  const name = String(
    admin.oauthIntegrations.find((i) => i.id === pending.integrationId)?.name ?? 'the integration',
  );
  const others = admin.userOAuthTokens.filter(
    (t) => !(t.userId === pending.userId && t.integrationId === pending.integrationId),
  );
  admin.userOAuthTokens = [
    ...others,
    {
      id: issueId(state, 'userOAuthToken', 802),
      userId: pending.userId,
      integrationId: pending.integrationId,
      status: 'active',
      accessTokenExpiresAt: new Date(now.getTime() + 3600_000).toISOString(),
      refreshTokenExpiresAt: new Date(now.getTime() + 30 * 86400_000).toISOString(),
      lastError: null,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    },
  ];
  page(res, 200, `Connected to ${name}`, 'You can close this tab and go back to VS Code.');
  return true;
}
