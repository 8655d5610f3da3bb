// Every webview page comes from webviewPageHtml: a strict Content Security Policy with a fresh nonce
// per page, scripts only from the extension's dist/webview, no network, frames, objects, forms or
// base URL, and the title escaped.
import * as assert from 'node:assert/strict';
import type * as HtmlModule from '../../../src/ui/webviewHtml';
import { useCoreStandIn } from './coreStandIn';

describe('core: webview pages under a strict CSP', () => {
  const stand = useCoreStandIn();
  let html: typeof HtmlModule;
  before(() => {
    html = stand.load('../../../src/ui/webviewHtml');
  });

  const webview = {
    cspSource: 'vscode-resource:',
    asWebviewUri: (u: { toString(): string }) => ({ toString: () => `webview(${u.toString()})` }),
  };
  const ext = { scheme: 'file', path: '/ext', toString: () => 'file:///ext' };
  const page = (o: Partial<HtmlModule.WebviewPageOptions> = {}) =>
    html.webviewPageHtml({
      webview: webview as never,
      extensionUri: ext as never,
      name: 'results',
      title: 'Results',
      ...o,
    });

  it('the policy: nothing by default, scripts by nonce only, styles and fonts from the extension, no network', () => {
    const text = page();
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(text)?.[1];
    assert.ok(csp, text);
    const nonce = /script-src 'nonce-([A-Za-z0-9_-]+)'/.exec(csp)?.[1];
    assert.ok(nonce && nonce.length === 24, csp);
    assert.deepEqual(csp.split('; '), [
      "default-src 'none'",
      'img-src vscode-resource: data:',
      "style-src vscode-resource: 'unsafe-inline'",
      'font-src vscode-resource:',
      `script-src 'nonce-${nonce}'`,
      "connect-src 'none'",
      "frame-src 'none'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ]);
    // The one script carries the nonce and comes from dist/webview/<name>.js.
    const scripts = [...text.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    assert.deepEqual(scripts, [` nonce="${nonce}" src="webview(file:///ext/dist/webview/results.js)"`]);
    const styles = [...text.matchAll(/<link rel="stylesheet" href="([^"]*)">/g)].map((m) => m[1]);
    assert.deepEqual(styles, [
      'webview(file:///ext/dist/codicons/codicon.css)',
      'webview(file:///ext/media/webview.css)',
      'webview(file:///ext/media/results.css)',
    ]);
    assert.match(text, /^<!DOCTYPE html>\n<html lang="en">/);
    assert.match(text, /<div id="root"><\/div>/);
  });

  it('a fresh nonce per page; remote images only when asked; the title escaped', () => {
    const nonces = new Set(
      Array.from({ length: 5 }, () => /'nonce-([^']+)'/.exec(page())![1]).concat([html.newNonce()]),
    );
    assert.equal(nonces.size, 6);
    const withImages = page({ imgSrc: ['https:', 'blob:'], title: `<img src=x onerror="a('b')">&` });
    assert.match(withImages, /img-src vscode-resource: data: https: blob:;/);
    assert.match(withImages, /<title>&#60;img src=x onerror=&#34;a\(&#39;b&#39;\)&#34;&#62;&#38;<\/title>/);
    assert.equal(html.escapeHtml(`<>&"'x`), '&#60;&#62;&#38;&#34;&#39;x');
  });

  it('the options: scripts on, local resources only from dist and media', () => {
    const o = html.webviewOptions(ext as never);
    assert.equal(o.enableScripts, true);
    assert.deepEqual(
      o.localResourceRoots?.map((u) => u.toString()),
      ['file:///ext/dist', 'file:///ext/media'],
    );
  });
});
