// Server text is data, never markup. Labels and descriptions are plain strings in VS Code, but a
// newline or a control character still breaks the row, and tooltips built as MarkdownString would
// render links, images and command URIs: everything from the server goes through here first.

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
/**
 * Bidirectional formatting characters (embeddings, overrides, isolates, marks): invisible, they
 * reorder what follows, so a name could show as another ("Trojan Source"). Dropped, not replaced.
 */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * One line of plain text: control characters and newlines become spaces, bidirectional formatting
 * characters are dropped, long text is cut.
 */
export function plainText(value: unknown, max = 200): string {
  const s = value === undefined || value === null ? '' : String(value);
  const one = s.replace(BIDI, '').replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** `plainText` as a sentence inside a message: a full stop added only when it has no ending. */
export function plainSentence(value: unknown, max = 200): string {
  const t = plainText(value, max);
  return t === '' || /[.!?…]$/.test(t) ? t : `${t}.`;
}

/**
 * Escapes Markdown so the text renders literally inside a MarkdownString (which the explorer also
 * builds with `isTrusted: false` and `supportHtml: false`): every punctuation character Markdown or
 * HTML gives a meaning to gets a backslash.
 */
export function escapeMarkdown(value: unknown, max = 500): string {
  return plainText(value, max).replace(/[\\`*_{}[\]()#+\-.!|<>~&:"'=$%@^]/g, (c) => `\\${c}`);
}

/** `key: value` lines for a tooltip, each value escaped; undefined and empty values are skipped. */
export function tooltipLines(title: string, fields: [string, unknown][]): string {
  const lines = [`**${escapeMarkdown(title)}**`];
  for (const [k, v] of fields) {
    if (v === undefined || v === null || v === '') continue;
    lines.push(`${escapeMarkdown(k)}: ${escapeMarkdown(typeof v === 'object' ? JSON.stringify(v) : v)}`);
  }
  return lines.join('  \n');
}

/** The name a server object is known by, falling back to its id. */
export function displayName(item: Record<string, unknown>, ...keys: string[]): string {
  for (const k of [...keys, 'name', 'title']) {
    const v = item[k];
    if (typeof v === 'string' && v.trim() !== '') return plainText(v);
  }
  return `#${plainText(item['id'])}`;
}
