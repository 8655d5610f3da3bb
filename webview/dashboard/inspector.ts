// The dashboard editor's side panel, in tabs: the selected widget, the dashboard (description,
// embedding), the theme, the layout and this file's publish history (see widgetTab.ts and
// dashboardTabs.ts). Every change is a message to the host; nothing is edited here.
import { h } from './dom';
import { dashboardTab, historyTab, layoutTab, themeTab } from './dashboardTabs';
import { TAB_LABELS, TABS, type InspectorContext, type Tab } from './inspectorContext';
import { widgetTab } from './widgetTab';

export { TABS, type InspectorContext, type Tab } from './inspectorContext';

export function renderInspector(host: HTMLElement, ctx: InspectorContext): void {
  const tabs = h('div', { className: 'tabs' });
  tabs.setAttribute('role', 'tablist');
  tabs.setAttribute('aria-label', 'Inspector');
  const panel = h('div', { className: 'tabpanel' });
  panel.setAttribute('role', 'tabpanel');
  for (const t of TABS) {
    const b = h('button', { type: 'button', textContent: TAB_LABELS[t], className: 'tab' });
    b.setAttribute('role', 'tab');
    b.setAttribute('aria-selected', String(t === ctx.tab));
    b.tabIndex = t === ctx.tab ? 0 : -1;
    b.dataset.key = `tab:${t}`;
    b.dataset.tab = t;
    b.addEventListener('click', () => ctx.setTab(t));
    b.addEventListener('keydown', (e) => {
      const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
      if (!d) return;
      e.preventDefault();
      ctx.setTab(TABS[(TABS.indexOf(t) + d + TABS.length) % TABS.length]!);
    });
    tabs.append(b);
  }
  const body = h('fieldset', { className: 'form', disabled: !ctx.editable });
  const renderers: Record<Tab, (c: InspectorContext) => HTMLElement[]> = {
    widget: widgetTab,
    dashboard: dashboardTab,
    theme: themeTab,
    layout: layoutTab,
    history: historyTab,
  };
  body.append(...renderers[ctx.tab](ctx));
  panel.append(ctx.tab === 'history' ? h('div', {}, ...body.childNodes) : body);
  host.replaceChildren(tabs, panel);
}
