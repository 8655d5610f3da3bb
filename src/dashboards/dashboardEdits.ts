// The edits the dashboard editor's page asks for, applied to the text of a `*.dashboard.json`
// (vscode-free). Each edit becomes a few JSON-path modifications made with jsonc-parser, so only the
// values that change are rewritten: the rest of the file keeps its formatting, key order and any
// field the editor does not know. The host turns the result into one minimal text replacement.
import { applyEdits, modify, type FormattingOptions, type JSONPath } from 'jsonc-parser';
import type { PublishDashboardInput } from '../api/schemas/platform';
import type { EditorBreakpoint, EditorEdit } from '../shared/dashboardEditorProtocol';
import { EDITOR_BREAKPOINTS } from '../shared/dashboardEditorProtocol';
import { gridSpec, type GridBox } from '../shared/dashboardGrid';
import { parseDashboardFile } from './dashboardFile';
import { locate } from '../shared/jsonLocate';

const isPrimitive = (v: unknown): boolean =>
  v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

interface Op {
  path: JSONPath;
  /** undefined removes the value. */
  value: unknown;
  insert?: boolean;
}

export interface EditResult {
  text: string;
  /** The widget to select in the page (after an add or a duplicate). */
  select?: string;
}

type Rec = Record<string, unknown>;
type WidgetLike = {
  id: string;
  position: GridBox & Rec;
  responsiveLayouts?: Partial<Record<EditorBreakpoint, GridBox & Rec>> & Rec;
} & Rec;

/** Applies one editor edit to the text. Throws (with what to fix) when the text is invalid. */
export function editDashboardText(
  text: string,
  edit: EditorEdit,
  /** The text's publish input when the caller has parsed it already. */
  parsedInput?: PublishDashboardInput,
): EditResult {
  let input = parsedInput;
  if (!input) {
    const parsed = parseDashboardFile(text);
    // A file whose only problems are values (a theme colour that is not CSS) stays editable: the
    // user fixes that value here like any other.
    if (!parsed.ok && !parsed.input) {
      const p = parsed.problems[0]!;
      throw new Error(
        `Fix the problems in the file before editing it here (line ${p.line + 1}: ${p.message}).`,
      );
    }
    input = parsed.input!;
  }
  const { ops, select } = operations(input, edit);
  const formattingOptions = formattingOf(text);
  const structural = (from: string, op: Op) =>
    applyEdits(
      from,
      modify(from, op.path, op.value, { formattingOptions, isArrayInsertion: op.insert === true }),
    );
  const applyAll = (last: boolean) => {
    let out = text;
    const placed: Op[] = [];
    for (const op of ops) {
      // A number, string or boolean that is already there is replaced in place (one scan of the
      // text); anything structural goes through jsonc-parser, which parses the whole text.
      const at = !op.insert && isPrimitive(op.value) ? locate(out, op.path, { last }) : undefined;
      const first = at ? out.charCodeAt(at.offset) : 0;
      if (at && first !== 0x7b && first !== 0x5b) {
        out = out.slice(0, at.offset) + JSON.stringify(op.value) + out.slice(at.offset + at.length);
        placed.push(op);
      } else {
        out = structural(out, op);
      }
    }
    return { out, placed };
  };
  const attempt = applyAll(false);
  let out = attempt.out;
  const placed = attempt.placed;
  // A duplicate key later in an object wins over the first one, replaced in place: redo the edit
  // on the last ones (a slower scan of whole objects), which JSON.parse reads.
  if (placed.length > 0) {
    const result: unknown = JSON.parse(out);
    if (placed.some((op) => getAt(result, op.path) !== op.value)) out = applyAll(true).out;
  }
  return select === undefined ? { text: out } : { text: out, select };
}

/** The one replacement that turns `before` into `after` (common prefix and suffix kept). */
export function minimalReplacement(
  before: string,
  after: string,
): { offset: number; length: number; text: string } | undefined {
  if (before === after) return undefined;
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (
    end < max - start &&
    before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)
  )
    end++;
  return { offset: start, length: before.length - start - end, text: after.slice(start, after.length - end) };
}

/** The file's own indentation and line ending, so inserted JSON looks like the rest. */
function formattingOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)["{[\]}]/.exec(text)?.[1];
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent ? indent.length : 2, eol };
}

function getAt(root: unknown, path: JSONPath): unknown {
  let v: unknown = root;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[p];
  }
  return v;
}

/**
 * Removal of `path`, widened to the highest ancestor the removal would leave empty (never shorter
 * than `minLength` segments), so removing the last theme colour of a group drops the group too.
 */
function removal(root: unknown, path: JSONPath, minLength: number): Op[] {
  if (getAt(root, path) === undefined) return [];
  let p = path;
  while (p.length > minLength) {
    const parent = getAt(root, p.slice(0, -1));
    if (parent && typeof parent === 'object' && !Array.isArray(parent) && Object.keys(parent).length === 1) {
      p = p.slice(0, -1);
    } else break;
  }
  return [{ path: p, value: undefined }];
}

function set(root: unknown, path: JSONPath, value: unknown, minLength = path.length): Op[] {
  if (value === undefined) return removal(root, path, minLength);
  return JSON.stringify(getAt(root, path)) === JSON.stringify(value) ? [] : [{ path, value }];
}

function widgetsOf(input: PublishDashboardInput): WidgetLike[] {
  return (input.config?.widgets ?? []) as WidgetLike[];
}

function widgetIndex(input: PublishDashboardInput, id: string): number {
  const i = widgetsOf(input).findIndex((w) => w.id === id);
  if (i < 0) throw new Error(`The dashboard has no widget "${id}".`);
  return i;
}

function colsAt(input: PublishDashboardInput, bp: EditorBreakpoint): number {
  return gridSpec(input.config?.layout, bp, 10_000).cols;
}

/** The row under the lowest widget, on the main positions (null) or at one breakpoint. */
function bottom(input: PublishDashboardInput, bp: EditorBreakpoint | null): number {
  let b = 0;
  for (const w of widgetsOf(input)) {
    const box = (bp && w.responsiveLayouts?.[bp]) || w.position;
    if (box) b = Math.max(b, box.y + box.h);
  }
  return b;
}

function uniqueId(input: PublishDashboardInput, base: string): string {
  const taken = new Set(widgetsOf(input).map((w) => w.id));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Breakpoints at which some widget has its own layout (a new widget gets one there too). */
function responsiveBreakpoints(input: PublishDashboardInput): EditorBreakpoint[] {
  return EDITOR_BREAKPOINTS.filter((b) => widgetsOf(input).some((w) => w.responsiveLayouts?.[b]));
}

/** Sets fields of a widget's config ('' or null removes one), keeping the others. */
function configValues(input: PublishDashboardInput, id: string, values: Record<string, unknown>): Op[] {
  const i = widgetIndex(input, id);
  const config = widgetsOf(input)[i]!.config;
  const kept = Object.entries(values).map(([k, v]) => [k, v === '' || v === null ? undefined : v] as const);
  // A widget without a config object (absent or null) gets one holding just these values.
  if (!config || typeof config !== 'object' || Array.isArray(config)) {
    const fresh = Object.fromEntries(kept.filter(([, v]) => v !== undefined));
    return Object.keys(fresh).length === 0
      ? []
      : [{ path: ['config', 'widgets', i, 'config'], value: fresh }];
  }
  return kept.flatMap(([k, v]) => set(input, ['config', 'widgets', i, 'config', k], v, 5));
}

function operations(input: PublishDashboardInput, edit: EditorEdit): { ops: Op[]; select?: string } {
  const hasConfig = input.config !== undefined;
  const text = (v: string) => (v === '' ? undefined : v);
  switch (edit.type) {
    case 'setTitle':
    case 'setDescription': {
      const key = edit.type === 'setTitle' ? 'title' : 'description';
      const value = text(edit.type === 'setTitle' ? edit.title : edit.description);
      return {
        ops: [...set(input, [key], value), ...(hasConfig ? set(input, ['config', key], value) : [])],
      };
    }
    case 'setAllowEmbed':
      return { ops: set(input, ['allowEmbed'], edit.allowEmbed) };
    case 'setTheme':
      return { ops: set(input, ['config', 'theme', ...edit.path], edit.value ?? undefined, 3) };
    case 'setRowHeight':
      return { ops: set(input, ['config', 'layout', 'rowHeight'], edit.value ?? undefined, 3) };
    case 'setSpacing':
      return { ops: set(input, ['config', 'layout', edit.field], edit.value ?? undefined, 3) };
    case 'setBreakpointValue':
      return {
        ops: set(input, ['config', 'layout', edit.field, edit.breakpoint], edit.value ?? undefined, 3),
      };
    case 'moveWidget':
    case 'resizeWidget': {
      const i = widgetIndex(input, edit.id);
      const w = widgetsOf(input)[i]!;
      const change = edit.type === 'moveWidget' ? { x: edit.x, y: edit.y } : { w: edit.w, h: edit.h };
      const base: JSONPath = ['config', 'widgets', i];
      if (edit.breakpoint !== null && !w.responsiveLayouts?.[edit.breakpoint]) {
        return {
          ops: [
            {
              path: [...base, 'responsiveLayouts', edit.breakpoint],
              value: { ...w.position, ...change },
            },
          ],
        };
      }
      const at: JSONPath =
        edit.breakpoint === null ? [...base, 'position'] : [...base, 'responsiveLayouts', edit.breakpoint];
      return { ops: Object.entries(change).flatMap(([k, v]) => set(input, [...at, k], v)) };
    }
    case 'setResponsive': {
      const i = widgetIndex(input, edit.id);
      const w = widgetsOf(input)[i]!;
      const path: JSONPath = ['config', 'widgets', i, 'responsiveLayouts', edit.breakpoint];
      if (!edit.enabled) return { ops: removal(input, path, 4) };
      if (w.responsiveLayouts?.[edit.breakpoint]) return { ops: [] };
      const cols = colsAt(input, edit.breakpoint);
      const width = Math.min(w.position.w, cols);
      return {
        ops: [
          {
            path,
            value: { ...w.position, w: width, x: Math.min(w.position.x, Math.max(0, cols - width)) },
          },
        ],
      };
    }
    case 'addWidget': {
      const id = uniqueId(input, edit.widgetType.toLowerCase().replace(/[^a-z0-9]+/g, '-') || 'widget');
      const rowHeight = gridSpec(input.config?.layout, 'lg', 10_000).rowHeight;
      const h = Math.max(1, Math.round(240 / rowHeight));
      const w = Math.min(6, colsAt(input, 'lg'));
      const widget: Rec = { id, type: edit.widgetType, position: { h, w, x: 0, y: bottom(input, null) } };
      const responsive = responsiveBreakpoints(input);
      if (responsive.length > 0) {
        widget.responsiveLayouts = Object.fromEntries(
          responsive.map((b) => [b, { h, w: Math.min(w, colsAt(input, b)), x: 0, y: bottom(input, b) }]),
        );
      }
      widget.config = {};
      const n = widgetsOf(input).length;
      return {
        ops: input.config?.widgets
          ? [{ path: ['config', 'widgets', n], value: widget, insert: true }]
          : [{ path: ['config', 'widgets'], value: [widget] }],
        select: id,
      };
    }
    case 'duplicateWidget': {
      const i = widgetIndex(input, edit.id);
      const copy = structuredClone(widgetsOf(input)[i]!);
      copy.id = uniqueId(input, `${edit.id}-copy`);
      copy.position = { ...copy.position, y: bottom(input, null) };
      if (copy.responsiveLayouts) {
        for (const b of EDITOR_BREAKPOINTS) {
          const box = copy.responsiveLayouts[b];
          if (box) copy.responsiveLayouts[b] = { ...box, y: bottom(input, b) };
        }
      }
      return { ops: [{ path: ['config', 'widgets', i + 1], value: copy, insert: true }], select: copy.id };
    }
    case 'deleteWidget':
      return { ops: [{ path: ['config', 'widgets', widgetIndex(input, edit.id)], value: undefined }] };
    case 'setWidgetType':
      return {
        ops: set(input, ['config', 'widgets', widgetIndex(input, edit.id), 'type'], text(edit.widgetType)),
      };
    case 'setWidgetConfig':
      return { ops: set(input, ['config', 'widgets', widgetIndex(input, edit.id), 'config'], edit.config) };
    case 'setWidgetConfigValue':
      return { ops: configValues(input, edit.id, { [edit.key]: edit.value }) };
    case 'setWidgetReport':
      return {
        ops: configValues(input, edit.id, {
          reportId: edit.reportId,
          ...(edit.title !== undefined ? { title: edit.title } : {}),
        }),
      };
  }
}
