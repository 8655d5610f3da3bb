// The sandbox's own HTML pages (the embed page, the OAuth sign-in page): text escaped, and a CSP
// that allows nothing but inline styles.
import type { ServerResponse } from 'node:http';

export const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Answers a whole page: `title` is escaped here; `style` and `body` are HTML the caller escaped. */
export function sendHtml(
  res: ServerResponse,
  status: number,
  title: string,
  style: string,
  body: string,
): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  });
  res.end(
    `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title>` +
      `<style>${style}</style></head><body>${body}</body></html>`,
  );
}
