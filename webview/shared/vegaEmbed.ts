// Vega-Lite through vega-embed for every webview: expressions are evaluated by vega-interpreter
// (ast: true), so no page needs 'unsafe-eval' in its CSP, and data loading is disabled (the rows
// always come from the host).
import embed from 'vega-embed';
import { expressionInterpreter } from 'vega-interpreter';

export async function embedChart(el: HTMLElement, spec: Record<string, unknown>): Promise<void> {
  await embed(el, spec as never, {
    actions: false,
    renderer: 'svg',
    ast: true,
    expr: expressionInterpreter,
    defaultStyle: false,
    loader: {
      load: () => Promise.reject(new Error('Loading data is disabled.')),
      sanitize: () => Promise.reject(new Error('Loading data is disabled.')),
    } as never,
  });
}
