// The notebook renderer (dist/renderer.js, an ES module loaded by VS Code in the notebook webview).
// Charts follow the theme (drawn again when it changes); a chart choice is sent to the extension,
// which saves it in the cell's metadata, and a saved choice comes back when an output is shown again.
import {
  ERROR_MIME,
  type ChartChoice,
  type ErrorPayload,
  type ResultPayload,
} from '../../src/shared/notebookOutput';
import { chartColours, onThemeChange } from '../shared/chartTheme';
import { buildSpec, drawChart } from './chart';
import { renderError, renderResult, STYLE, type ResultView } from './view';

interface OutputItem {
  id: string;
  mime: string;
  json(): unknown;
}

interface RendererContext {
  postMessage?(message: unknown): void;
  onDidReceiveMessage?(listener: (message: unknown) => void): { dispose(): void };
}

/** Renderer ⇄ extension messages (see src/notebook/chartMessages.ts). */
type FromHost = { type: 'chart'; outputKey: string; chart: ChartChoice };

function copy(text: string): void {
  void navigator.clipboard?.writeText(text).catch(() => undefined);
}

export const activate = (ctx: RendererContext = {}) => {
  const views = new Map<string, { view: ResultView; outputKey?: string; stopTheme: () => void }>();
  ctx.onDidReceiveMessage?.((raw) => {
    const m = raw as FromHost;
    if (m?.type !== 'chart') return;
    for (const v of views.values()) if (v.outputKey === m.outputKey) void v.view.setChoice(m.chart);
  });
  return {
    renderOutputItem(item: OutputItem, element: HTMLElement): void {
      views.get(item.id)?.stopTheme();
      views.delete(item.id);
      const doc = element.ownerDocument;
      const style = doc.createElement('style');
      style.textContent = STYLE;
      if (item.mime === ERROR_MIME) {
        element.replaceChildren(style, renderError(doc, item.json() as ErrorPayload));
        return;
      }
      const p = item.json() as ResultPayload;
      const view = renderResult(
        doc,
        p,
        copy,
        async (el, payload, choice) => {
          const spec = buildSpec(payload, chartColours(doc), choice, el.clientWidth || 600);
          if (spec) await drawChart(el, spec);
        },
        (chart) => {
          if (p.outputKey) ctx.postMessage?.({ type: 'chart', outputKey: p.outputKey, chart });
        },
      );
      element.replaceChildren(style, view.root);
      view.table.renderWindow();
      if (p.view === 'chart') void view.showChart();
      const stopTheme = onThemeChange(doc, () => void view.redraw());
      views.set(item.id, { view, ...(p.outputKey ? { outputKey: p.outputKey } : {}), stopTheme });
      // Ask for a choice saved after this output was made (a re-render shows the payload as run).
      if (p.outputKey) ctx.postMessage?.({ type: 'hello', outputKey: p.outputKey });
    },
    disposeOutputItem(id?: string): void {
      const ids = id ? [id] : [...views.keys()];
      for (const k of ids) {
        views.get(k)?.stopTheme();
        views.delete(k);
      }
    },
  };
};
