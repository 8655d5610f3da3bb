// The one place webview HTML is made (architecture rule 7): a strict CSP with a fresh nonce per
// page, scripts only from dist/webview, no network from the webview (`connect-src 'none'`).
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export interface WebviewPageOptions {
  webview: vscode.Webview;
  extensionUri: vscode.Uri;
  /** Bundle name: dist/webview/<name>.js and, if present, media/<name>.css. */
  name: string;
  title: string;
  /** Extra image sources (e.g. `https:` when the user allows remote images). */
  imgSrc?: string[];
}

/** Options for a panel or custom editor whose page comes from {@link webviewPageHtml}. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [
      vscode.Uri.joinPath(extensionUri, 'dist'),
      vscode.Uri.joinPath(extensionUri, 'media'),
    ],
  };
}

export function newNonce(): string {
  return randomBytes(18).toString('base64url');
}

export function webviewPageHtml(opts: WebviewPageOptions): string {
  const { webview, extensionUri, name } = opts;
  const nonce = newNonce();
  const asset = (...parts: string[]) =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...parts)).toString();
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data: ${(opts.imgSrc ?? []).join(' ')}`.trim(),
    // Vega and the codicon font set inline styles; no script can come from a style.
    `style-src ${webview.cspSource} 'unsafe-inline'`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "connect-src 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(opts.title)}</title>
<link rel="stylesheet" href="${asset('dist', 'codicons', 'codicon.css')}">
<link rel="stylesheet" href="${asset('media', 'webview.css')}">
<link rel="stylesheet" href="${asset('media', `${name}.css`)}">
</head>
<body>
<div id="root"></div>
<script nonce="${nonce}" src="${asset('dist', 'webview', `${name}.js`)}"></script>
</body>
</html>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
