// The chat transcript as a set of small views keyed by message id. Each host operation touches
// only the element it names: a delta appends to the last block of its message, a tool call fills
// one card.
import { toCsv, type HostToWebview, type ToolResult } from '../../src/shared/chatProtocol';
import { rollupBadgeText } from '../../src/shared/notebookOutput';
import { drawChart, parseSpec, rowsToValues } from './chart';
import { renderMarkdown } from '../shared/markdown';
import { el as elementOf } from '../renderer/dom';

export interface TranscriptActions {
  openInNotebook(sql: string): void;
  copy(text: string, what: 'sql' | 'csv'): void;
}

type Op<T extends HostToWebview['type']> = Extract<HostToWebview, { type: T }>;

const MAX_TABLE_ROWS = 100;

/** An element of this page's document (the renderer's helper, bound to it). */
function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  return elementOf(document, tag, className, text);
}

function icon(name: string): HTMLElement {
  return el('span', `codicon codicon-${name}`);
}

/** A block holds about this many characters before the streamed text moves on to a new one. */
const BLOCK_CHARS = 2048;

/**
 * The streamed text of one message as a run of blocks, cut after a newline once a block holds
 * BLOCK_CHARS: appending a delta touches only the last block, so its cost does not grow with the
 * message (one growing text node cost more per delta the longer the answer). Under `pre-wrap` a
 * block ending in a newline draws exactly the lines the same text draws in one node, so the cut is
 * invisible. A line longer than a block goes on in a new text node of the same block (adjacent
 * text nodes draw as one line).
 */
class StreamedText {
  private node: Text | undefined;
  private block: HTMLElement | undefined;
  private nodeChars = 0;
  private blockChars = 0;
  /**
   * Characters streamed so far. The text itself is not kept beside the DOM: a string grown by
   * every delta made garbage per delta that the collector paid for in proportion to the answer.
   */
  length = 0;
  /** The text as it was when the final answer took the blocks' place (see keep()). */
  private kept: string | undefined;

  constructor(private readonly container: HTMLElement) {}

  /** The whole text, read from the blocks (only a full replacement compares it). */
  get text(): string {
    return this.kept ?? this.container.textContent ?? '';
  }

  /** Remembers the text before the container's children are replaced by something else. */
  keep(): void {
    this.kept = this.text;
  }

  append(delta: string): void {
    this.length += delta.length;
    if (this.kept !== undefined) this.kept += delta;
    let nl = delta.indexOf('\n');
    // Most deltas hold no newline: written whole, no piece made.
    if (nl < 0) {
      this.write(delta);
      return;
    }
    for (let i = 0; i < delta.length; nl = delta.indexOf('\n', i)) {
      const end = nl < 0 ? delta.length : nl + 1;
      this.write(i === 0 && end === delta.length ? delta : delta.slice(i, end));
      i = end;
      if (nl >= 0 && this.blockChars >= BLOCK_CHARS) this.block = undefined;
    }
  }

  replace(text: string): void {
    this.container.replaceChildren();
    this.block = undefined;
    this.length = 0;
    this.kept = undefined;
    this.append(text);
  }

  private write(piece: string): void {
    if (!this.block) {
      this.block = el('div', 'stream-block');
      this.container.append(this.block);
      this.node = undefined;
      this.blockChars = 0;
    }
    if (!this.node || this.nodeChars >= BLOCK_CHARS) {
      this.node = document.createTextNode(piece);
      this.block.append(this.node);
      this.nodeChars = piece.length;
    } else {
      this.node.appendData(piece);
      this.nodeChars += piece.length;
    }
    this.blockChars += piece.length;
  }
}

class AssistantView {
  readonly root = el('div', 'msg assistant');
  private readonly thinkingBlock = el('details', 'thinking');
  private readonly thinkingText = document.createTextNode('');
  private readonly body = el('div', 'content streaming');
  private readonly streamed = new StreamedText(this.body);
  /** What the page shows now: a delta changes the classes and visibility only when they change. */
  private inProcess: boolean | undefined;
  private bodyHidden: boolean | undefined;

  constructor() {
    const summary = el('summary');
    summary.append(icon('lightbulb'), ' Thinking');
    const pre = el('pre');
    pre.append(this.thinkingText);
    this.thinkingBlock.append(summary, pre);
    this.thinkingBlock.hidden = true;
    this.root.append(this.thinkingBlock, this.body);
  }

  update(op: Op<'assistantText'>): void {
    if (op.thinking !== undefined && op.thinking !== this.thinkingText.data) {
      this.thinkingText.data = op.thinking;
      this.thinkingBlock.hidden = op.thinking.length === 0;
    }
    if (op.text !== undefined) {
      if (this.streamed.text !== op.text) this.streamed.replace(op.text);
    } else if (op.delta) {
      this.streamed.append(op.delta);
    }
    if (op.inProcess !== this.inProcess) {
      this.inProcess = op.inProcess;
      this.root.classList.toggle('in-process', op.inProcess);
    }
    const hidden = this.streamed.length === 0;
    if (hidden !== this.bodyHidden) {
      this.bodyHidden = hidden;
      this.body.hidden = hidden;
    }
  }

  finish(markdown: string, allowRemoteImages: boolean): void {
    this.streamed.keep();
    this.body.classList.remove('streaming');
    this.body.classList.add('final', 'markdown');
    this.body.replaceChildren(renderMarkdown(markdown, window, { allowRemoteImages }));
    this.body.hidden = this.bodyHidden = false;
    this.root.classList.remove('in-process');
    this.inProcess = false;
  }
}

export class Transcript {
  private readonly assistants = new Map<string, AssistantView>();
  private readonly tools = new Map<string, HTMLElement>();
  private readonly users = new Set<string>();
  allowRemoteImages = false;

  constructor(
    private readonly container: HTMLElement,
    private readonly actions: TranscriptActions,
  ) {}

  clear(): void {
    this.assistants.clear();
    this.tools.clear();
    this.users.clear();
    this.container.replaceChildren();
  }

  userMessage(op: Op<'userMessage'>): void {
    if (this.users.has(op.id)) return;
    this.users.add(op.id);
    const node = el('div', 'msg user');
    node.append(el('div', 'content', op.text));
    this.append(node);
  }

  assistantText(op: Op<'assistantText'>): void {
    this.assistant(op.id).update(op);
  }

  final(op: Op<'final'>): void {
    this.assistant(op.id).finish(op.markdown, this.allowRemoteImages);
  }

  toolCall(op: Op<'toolCall'>): void {
    let card = this.tools.get(op.id);
    if (!card) {
      const created = el('details', 'tool');
      // Once the user folds or unfolds a card, later updates leave it as they chose.
      created.addEventListener('toggle', () => (created.dataset.toggled = '1'), { once: true });
      card = created;
      this.tools.set(op.id, card);
      this.append(card);
    }
    card.replaceChildren(...this.toolCard(op));
    // SQL results (table and chart) are what the user came for: show them unfolded.
    if (op.result?.data?.length && !card.dataset.toggled) card.setAttribute('open', '');
  }

  notice(
    kind: 'suspended' | 'aborted' | 'error',
    text: string,
    action?: { label: string; run(): void },
  ): void {
    const node = el('div', `notice ${kind}`);
    node.append(
      icon(kind === 'error' ? 'error' : kind === 'aborted' ? 'debug-stop' : 'debug-pause'),
      ` ${text}`,
    );
    if (action) {
      const button = el('button', 'secondary', action.label);
      button.addEventListener('click', () => {
        button.disabled = true;
        action.run();
      });
      node.append(' ', button);
    }
    this.append(node);
  }

  private assistant(id: string): AssistantView {
    let view = this.assistants.get(id);
    if (!view) {
      view = new AssistantView();
      this.assistants.set(id, view);
      this.append(view.root);
    }
    return view;
  }

  private append(node: HTMLElement): void {
    const nearBottom =
      this.container.scrollHeight - this.container.scrollTop - this.container.clientHeight < 40;
    this.container.append(node);
    if (nearBottom) node.scrollIntoView({ block: 'end' });
  }

  private toolCard(op: Op<'toolCall'>): HTMLElement[] {
    const summary = el('summary');
    const short = op.sql ?? (typeof op.input === 'string' ? op.input : JSON.stringify(op.input ?? ''));
    summary.append(
      icon('tools'),
      ' ',
      el('span', 'tool-name', op.name),
      ' ',
      el('code', 'tool-input', clip(short, 90)),
    );
    if (!op.result && op.resultText === undefined)
      summary.append(' ', el('span', 'codicon codicon-loading codicon-modifier-spin'));
    const body = el('div', 'tool-body');
    if (op.sql) {
      body.append(el('pre', 'sql', op.sql));
    } else if (op.input !== undefined) {
      body.append(el('pre', 'input', JSON.stringify(op.input, null, 2)));
    }
    const result = op.result;
    if (result?.error) {
      body.append(el('div', 'tool-error', result.error));
    } else if (result?.schema && result.data) {
      body.append(...this.resultViews(result, op.sql));
    } else if (op.resultText !== undefined) {
      body.append(el('pre', 'result', clip(op.resultText, 4000)));
    }
    return [summary, body];
  }

  private resultViews(result: ToolResult, sql: string | undefined): HTMLElement[] {
    const columns = (result.schema ?? []).map((c) => c.name);
    const rows = result.data ?? [];
    const out: HTMLElement[] = [];
    const total = result.totalRows ?? rows.length;
    const count = el('div', 'row-count', `${Math.min(rows.length, MAX_TABLE_ROWS)} of ${total} rows`);
    const meta = el('div', 'result-meta');
    meta.append(count);
    // Served from a rollup: say which, and how old its data is (as the notebook does).
    for (const r of result.rollups ?? []) {
      const badge = el('span', 'rollup', `Rollup ${rollupBadgeText(r, Date.now())}`);
      badge.setAttribute('role', 'status');
      badge.title =
        `Answered from the pre-aggregation ${r.id}` +
        (r.builtAt ? `, built ${new Date(r.builtAt).toLocaleString()}` : '') +
        '. Its data is as fresh as its last build.';
      meta.append(badge);
    }
    out.push(meta);

    const spec = parseSpec(result.vegaSpec);
    if (spec) {
      const chart = el('div', 'chart');
      out.push(chart);
      drawChart(chart, spec, rowsToValues(columns, rows)).catch((e: unknown) => {
        chart.replaceChildren(el('div', 'tool-error', `The chart could not be drawn: ${String(e)}`));
      });
    }

    const table = el('table', 'result');
    const head = el('tr');
    for (const c of columns) head.append(el('th', undefined, c));
    table.append(el('thead'), el('tbody'));
    table.tHead!.append(head);
    for (const row of rows.slice(0, MAX_TABLE_ROWS)) {
      const tr = el('tr');
      for (const v of row) tr.append(el('td', undefined, v == null ? '' : String(v)));
      table.tBodies[0]!.append(tr);
    }
    const wrap = el('div', 'table-wrap');
    wrap.append(table);
    out.push(wrap);

    const actions = el('div', 'tool-actions');
    if (sql) {
      actions.append(
        button('notebook', 'Open in notebook', () => this.actions.openInNotebook(sql)),
        button('copy', 'Copy SQL', () => this.actions.copy(sql, 'sql')),
      );
    }
    actions.append(
      button('table', 'Copy table as CSV', () => this.actions.copy(toCsv(columns, rows), 'csv')),
    );
    out.push(actions);
    return out;
  }
}

function button(iconName: string, label: string, run: () => void): HTMLButtonElement {
  const b = el('button', 'secondary');
  b.append(icon(iconName), ` ${label}`);
  b.addEventListener('click', run);
  return b;
}

function clip(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
