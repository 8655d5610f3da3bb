// The edits the dashboard editor's page asks for, applied to a publish input (vscode-free). Every
// other field is kept as it is.
import type { PublishDashboardInput } from '../api/schemas/platform';
import type { WebviewToHost } from '../shared/dashboardEditorProtocol';

export function applyEditorEdit(
  input: PublishDashboardInput,
  edit: Exclude<WebviewToHost, { type: 'ready' }>,
): PublishDashboardInput {
  const next = structuredClone(input);
  if (edit.type === 'setTitle') {
    next.title = edit.title;
    next.config = { ...(next.config ?? {}), title: edit.title };
    return next;
  }
  const widget = next.config?.widgets?.find((w) => w.id === edit.id);
  if (!widget) throw new Error(`The dashboard has no widget "${edit.id}".`);
  if (edit.breakpoint === null) {
    widget.position = { ...widget.position, x: edit.x, y: edit.y };
  } else {
    const layouts = { ...(widget.responsiveLayouts ?? {}) };
    const current = layouts[edit.breakpoint] ?? widget.position;
    layouts[edit.breakpoint] = { ...current, x: edit.x, y: edit.y };
    widget.responsiveLayouts = layouts;
  }
  return next;
}
