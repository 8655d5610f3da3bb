// Markdown from the AI agent is data, not markup: it is parsed by marked and then sanitized by
// DOMPurify (HTML profile only: no SVG, no MathML) before any of it reaches the DOM.
import createDOMPurify, { type Config } from 'dompurify';
import { marked } from 'marked';

export interface MarkdownOptions {
  allowRemoteImages: boolean;
}

type Purifier = ReturnType<typeof createDOMPurify>;
const purifiers = new WeakMap<object, Purifier>();
let remoteImagesAllowed = false;

function purifierFor(win: Window & typeof globalThis): Purifier {
  let purify = purifiers.get(win);
  if (!purify) {
    purify = createDOMPurify(win);
    purify.addHook('afterSanitizeAttributes', (node) => {
      const el = node as Element;
      if (el.tagName === 'A') {
        el.setAttribute('rel', 'noopener noreferrer');
        el.removeAttribute('target');
      }
      if (el.tagName === 'IMG') {
        const src = el.getAttribute('src') ?? '';
        // Only images the user allowed, and never anything but http(s) (no data: SVG documents).
        if (!remoteImagesAllowed || !/^https:\/\//i.test(src)) {
          const alt = el.getAttribute('alt');
          el.replaceWith(win.document.createTextNode(alt ? `[image: ${alt}]` : '[image]'));
        }
      }
    });
    purifiers.set(win, purify);
  }
  return purify;
}

const SANITIZE_CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    'style',
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'option',
    'iframe',
    'frame',
    'object',
    'embed',
    'link',
    'meta',
    'base',
    'video',
    'audio',
    'source',
    'dialog',
  ],
  FORBID_ATTR: ['style', 'srcset', 'formaction', 'action', 'background', 'ping'],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
  ALLOW_DATA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
};

/** Markdown to a sanitized fragment owned by `win.document`. */
export function renderMarkdown(
  markdown: string,
  win: Window & typeof globalThis,
  opts: MarkdownOptions,
): DocumentFragment {
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: false }) as string;
  return sanitizeHtml(html, win, opts);
}

export function sanitizeHtml(
  html: string,
  win: Window & typeof globalThis,
  opts: MarkdownOptions,
): DocumentFragment {
  const purify = purifierFor(win);
  remoteImagesAllowed = opts.allowRemoteImages;
  try {
    return purify.sanitize(html, SANITIZE_CONFIG);
  } finally {
    remoteImagesAllowed = false;
  }
}
