// The notebook renderer (dist/renderer.js, an ES module loaded by VS Code in the notebook webview).
import { ERROR_MIME, type ErrorPayload, type ResultPayload } from '../../src/shared/notebookOutput';
import { buildSpec, drawChart } from './chart';
import { renderError, renderResult, STYLE } from './view';

interface OutputItem {
  id: string;
  mime: string;
  json(): unknown;
}

function copy(text: string): void {
  void navigator.clipboard?.writeText(text).catch(() => undefined);
}

export const activate = () => ({
  renderOutputItem(item: OutputItem, element: HTMLElement): void {
    const doc = element.ownerDocument;
    const style = doc.createElement('style');
    style.textContent = STYLE;
    if (item.mime === ERROR_MIME) {
      element.replaceChildren(style, renderError(doc, item.json() as ErrorPayload));
      return;
    }
    const p = item.json() as ResultPayload;
    const view = renderResult(doc, p, copy, async (el, payload) => {
      const fg = getComputedStyle(doc.body).getPropertyValue('--vscode-foreground').trim() || '#888';
      const spec = buildSpec(payload, fg);
      if (spec) await drawChart(el, spec);
    });
    element.replaceChildren(style, view.root);
    view.table.renderWindow();
    if (p.view === 'chart') void view.showChart();
  },
  disposeOutputItem(): void {},
});
