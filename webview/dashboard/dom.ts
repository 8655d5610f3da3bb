// Small DOM helpers for the dashboard editor's page: element creation, labelled form fields whose
// focus survives a re-render (by `data-key`), and value readers for the untyped publish input.
export type Rec = Record<string, unknown>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const el = Object.assign(document.createElement(tag), props);
  el.append(...children);
  return el;
}

export function icon(name: string): HTMLSpanElement {
  const s = h('span', { className: `codicon codicon-${name}` });
  s.setAttribute('aria-hidden', 'true');
  return s;
}

export function button(
  label: string,
  onClick: () => void,
  opts: { icon?: string; title?: string; secondary?: boolean; key?: string } = {},
): HTMLButtonElement {
  const b = h('button', {
    type: 'button',
    title: opts.title ?? label,
    className: opts.secondary ? 'secondary' : '',
  });
  if (opts.icon) b.append(icon(opts.icon));
  if (label) b.append(h('span', { textContent: label }));
  else b.setAttribute('aria-label', opts.title ?? '');
  if (opts.key) b.dataset.key = opts.key;
  b.addEventListener('click', onClick);
  return b;
}

export const rec = (v: unknown): Rec => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : {});
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

export function getPath(root: unknown, path: readonly string[]): unknown {
  let v: unknown = root;
  for (const p of path) v = rec(v)[p];
  return v;
}

/** A row of the inspector: a label and its control(s). */
export function field(label: string, ...controls: HTMLElement[]): HTMLDivElement {
  const id = controls[0]?.id || `f-${Math.random().toString(36).slice(2)}`;
  if (controls[0] && !controls[0].id) controls[0].id = id;
  const l = h('label', { textContent: label, htmlFor: id });
  return h('div', { className: 'field' }, l, h('div', { className: 'controls' }, ...controls));
}

/** A text input that sends its value when it changes (Enter or leaving the field). */
export function textInput(
  key: string,
  value: string,
  onChange: (v: string) => void,
  placeholder = '',
): HTMLInputElement {
  const i = h('input', { type: 'text', value, placeholder });
  i.dataset.key = key;
  i.addEventListener('change', () => onChange(i.value));
  return i;
}

/**
 * A number input; an empty value sends null (the field is removed and the default applies). Invalid
 * numbers are refused in place with the reason.
 */
export function numberInput(
  key: string,
  value: number | undefined,
  onChange: (v: number | null) => void,
  opts: { min?: number; step?: number; placeholder?: string; integer?: boolean } = {},
): HTMLInputElement {
  const i = h('input', { type: 'number', value: value === undefined ? '' : String(value) });
  i.dataset.key = key;
  if (opts.min !== undefined) i.min = String(opts.min);
  i.step = String(opts.step ?? 1);
  if (opts.placeholder) i.placeholder = opts.placeholder;
  i.addEventListener('change', () => {
    const raw = i.value.trim();
    if (raw === '') return onChange(null);
    const n = Number(raw);
    const bad =
      !Number.isFinite(n) ||
      (opts.min !== undefined && n < opts.min) ||
      (opts.integer && !Number.isInteger(n));
    i.setCustomValidity(
      bad
        ? `Enter ${opts.integer ? 'a whole number' : 'a number'}${opts.min !== undefined ? ` of at least ${opts.min}` : ''}.`
        : '',
    );
    if (bad) {
      i.reportValidity();
      return;
    }
    onChange(n);
  });
  return i;
}

/** `#rgb` / `#rrggbb` as `#rrggbb` for a colour input, or undefined for other CSS colours. */
export function hexColour(v: string | undefined): string | undefined {
  if (!v) return undefined;
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(v.trim());
  if (!m) return undefined;
  const hex = m[1]!;
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`.toLowerCase();
}

interface FocusMark {
  key: string;
  start: number | null;
  end: number | null;
}

/** Remembers which keyed control has focus (and its selection) before a re-render. */
export function markFocus(): FocusMark | undefined {
  const el = document.activeElement as HTMLElement | null;
  const key = el?.dataset?.key;
  if (!key) return undefined;
  const input = el as HTMLInputElement;
  let start: number | null = null;
  let end: number | null = null;
  try {
    start = input.selectionStart ?? null;
    end = input.selectionEnd ?? null;
  } catch {
    // number and colour inputs have no selection
  }
  return { key, start, end };
}

export function restoreFocus(mark: FocusMark | undefined): void {
  if (!mark) return;
  const el = [...document.querySelectorAll<HTMLElement>('[data-key]')].find(
    (e) => e.dataset.key === mark.key,
  );
  if (!el) return;
  el.focus({ preventScroll: true });
  if (mark.start !== null && 'setSelectionRange' in el) {
    try {
      (el as HTMLInputElement).setSelectionRange(mark.start, mark.end ?? mark.start);
    } catch {
      // not a text control any more
    }
  }
}

/**
 * Marks a field's control invalid and shows why under it. The value stays as the user typed it (the
 * file holds it too), so nothing snaps back; the message drops the path the file's problem starts
 * with (the field's label names it).
 */
export function markInvalid(fieldEl: HTMLElement, control: HTMLElement, message: string): void {
  fieldEl.classList.add('invalid');
  control.setAttribute('aria-invalid', 'true');
  const id = `${control.id || `c-${Math.random().toString(36).slice(2)}`}-error`;
  const text = message.replace(/^[\w.[\]]+: /, '');
  fieldEl.append(h('div', { className: 'field-error', id, textContent: text }));
  control.setAttribute('aria-describedby', id);
}
