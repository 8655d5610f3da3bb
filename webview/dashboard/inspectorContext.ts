// What the dashboard editor's inspector tabs share: the tab names, the context each tab renders
// from (state, view choices and how to send edits), a titled section and the list of widgets.
import type {
  EditorBreakpoint,
  EditorHistoryEntry,
  EditorProblem,
  EditorReport,
  WebviewToHost,
} from '../../src/shared/dashboardEditorProtocol';
import { h, rec, type Rec } from './dom';
import { previewWidgets, widgetTitle } from './grid';

export const TABS = ['widget', 'dashboard', 'theme', 'layout', 'history'] as const;
export type Tab = (typeof TABS)[number];
export const TAB_LABELS: Record<Tab, string> = {
  widget: 'Widget',
  dashboard: 'Dashboard',
  theme: 'Theme',
  layout: 'Layout',
  history: 'History',
};

export interface InspectorContext {
  input: Rec;
  breakpoint: EditorBreakpoint;
  selected: string | undefined;
  editable: boolean;
  history: EditorHistoryEntry[];
  /** The file's problems (those with a path mark their field). */
  problems: EditorProblem[];
  /** The widgets' reports by id (names from the server). */
  reports: Record<string, EditorReport>;
  /** The choices of the theme's fixed-set fields, by path under the theme. */
  themeChoices: Record<string, string[]>;
  tab: Tab;
  /** Unapplied config JSON per widget id (kept across re-renders). */
  drafts: Map<string, string>;
  post(message: WebviewToHost): void;
  /** Persists the drafts with the page's view state. */
  saveDrafts(): void;
  select(id: string | undefined): void;
  setTab(tab: Tab): void;
}

export function section(title: string, ...children: HTMLElement[]): HTMLElement {
  return h('section', {}, h('h3', { textContent: title }), ...children);
}

export function widgetList(ctx: InspectorContext): HTMLElement {
  const widgets = previewWidgets(rec(ctx.input.config), ctx.breakpoint);
  if (widgets.length === 0)
    return h('p', { className: 'hint', textContent: 'The dashboard has no widgets.' });
  const list = h('ul', { className: 'wlist' });
  for (const w of widgets) {
    const b = h('button', {
      type: 'button',
      className: 'link',
      textContent: `${widgetTitle(w, ctx.reports)} (${w.type ?? 'widget'})`,
    });
    b.dataset.key = `list:${w.id}`;
    b.addEventListener('click', () => {
      ctx.select(w.id);
      ctx.setTab('widget');
    });
    list.append(h('li', {}, b));
  }
  return list;
}

/** The message of the problem at `path` (a JSON path in the file), if there is one. */
export function problemAt(ctx: InspectorContext, path: readonly (string | number)[]): string | undefined {
  const key = JSON.stringify(path);
  return ctx.problems.find((p) => p.path && JSON.stringify(p.path) === key)?.message;
}
