// A virtualized results table: only the rows in view (plus a small margin) are in the DOM, so 100,000
// rows scroll as smoothly as 100. Sort by clicking a header; copy a cell (click + Ctrl/Cmd+C),
// a row (row number click) or everything ("Copy").
import type { ResultPayload } from '../../src/shared/notebookOutput';
import { columnFormatter, rowsToTsv, sortedOrder } from './format';
import { el } from './dom';

export const ROW_HEIGHT = 22;
export const VIEW_HEIGHT = 360;
const OVERSCAN = 8;

export interface TableHandle {
  el: HTMLElement;
  /** Re-renders the rows that are in view. */
  renderWindow(): void;
  sort(column: number, dir?: 1 | -1): void;
  /** Number of row elements in the DOM (tests). */
  renderedRows(): number;
  selectedText(): string;
}

export function createTable(doc: Document, p: ResultPayload, copy: (text: string) => void): TableHandle {
  const root = el(doc, 'div', 'dp-table');
  const head = el(doc, 'div', 'dp-head');
  const scroller = el(doc, 'div', 'dp-scroll');
  scroller.tabIndex = 0;
  scroller.style.height = `${Math.min(VIEW_HEIGHT, (p.rows.length + 1) * ROW_HEIGHT + 4)}px`;
  scroller.style.overflow = 'auto';
  scroller.style.position = 'relative';
  const spacer = doc.createElement('div');
  spacer.style.height = `${p.rows.length * ROW_HEIGHT}px`;
  spacer.style.position = 'relative';
  const body = el(doc, 'div', 'dp-body');
  body.style.position = 'absolute';
  body.style.left = '0';
  body.style.right = '0';
  spacer.appendChild(body);
  scroller.appendChild(spacer);

  const template = `40px ${p.columns.map(() => 'minmax(100px, 1fr)').join(' ')}`;
  // One formatter per column: numbers keep the same decimals down the column.
  const formatters = p.columns.map((c, i) =>
    columnFormatter(
      c,
      p.rows.map((r) => r[i]),
    ),
  );
  head.style.display = 'grid';
  head.style.gridTemplateColumns = template;
  let order = p.rows.map((_, i) => i);
  let sortCol = -1;
  let sortDir: 1 | -1 = 1;
  let selected: { row: number; col: number } | undefined;

  const headers: HTMLElement[] = [];
  head.appendChild(doc.createElement('div')).textContent = '#';
  p.columns.forEach((c, i) => {
    const h = el(doc, 'div', `dp-th dp-${c.kind}`);
    h.title = `${c.name}${c.type ? ` · ${c.type}` : ''}${c.format ? ` · ${c.format}` : ''}${c.specifier ? ` (${c.specifier})` : ''}\nClick to sort`;
    h.textContent = c.title ?? c.name;
    h.setAttribute('role', 'columnheader');
    h.addEventListener('click', () => handle.sort(i, sortCol === i ? (-sortDir as 1 | -1) : 1));
    headers.push(h);
    head.appendChild(h);
  });

  const renderWindow = () => {
    const top = scroller.scrollTop;
    const height = scroller.clientHeight || VIEW_HEIGHT;
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(order.length, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    body.style.top = `${first * ROW_HEIGHT}px`;
    const frag = doc.createDocumentFragment();
    for (let i = first; i < last; i++) {
      const ri = order[i]!;
      const row = p.rows[ri]!;
      const tr = el(doc, 'div', 'dp-tr');
      tr.style.display = 'grid';
      tr.style.gridTemplateColumns = template;
      tr.style.height = `${ROW_HEIGHT}px`;
      const num = el(doc, 'div', 'dp-rownum');
      num.textContent = String(ri + 1);
      num.title = 'Click to copy the row';
      num.addEventListener('click', () => copy(rowsToTsv(p.columns, [row], false)));
      tr.appendChild(num);
      p.columns.forEach((c, ci) => {
        const td = el(doc, 'div', `dp-td dp-${c.kind}`);
        td.textContent = formatters[ci]!(row[ci]);
        if (selected && selected.row === ri && selected.col === ci) td.classList.add('dp-selected');
        td.addEventListener('click', () => {
          selected = { row: ri, col: ci };
          renderWindow();
        });
        td.addEventListener('dblclick', () => copy(handle.selectedText()));
        tr.appendChild(td);
      });
      frag.appendChild(tr);
    }
    body.replaceChildren(frag);
  };

  let frame = 0;
  scroller.addEventListener('scroll', () => {
    if (frame) return;
    const raf = doc.defaultView?.requestAnimationFrame ?? ((f: FrameRequestCallback) => setTimeout(f, 16));
    frame = raf(() => {
      frame = 0;
      renderWindow();
    }) as number;
  });
  scroller.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === 'c' && selected) {
      e.preventDefault();
      copy(handle.selectedText());
    }
  });

  root.append(head, scroller);
  const handle: TableHandle = {
    el: root,
    renderWindow,
    sort(column, dir = 1) {
      sortCol = column;
      sortDir = dir;
      order = sortedOrder(p.rows, column, dir, p.columns[column]?.kind === 'number');
      headers.forEach((h, i) => {
        h.dataset.sort = i === column ? (dir === 1 ? 'asc' : 'desc') : '';
        h.setAttribute('aria-sort', i === column ? (dir === 1 ? 'ascending' : 'descending') : 'none');
      });
      renderWindow();
    },
    renderedRows: () => body.childElementCount,
    selectedText: () => {
      if (!selected) return '';
      const v = p.rows[selected.row]?.[selected.col];
      return v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    },
  };
  renderWindow();
  return handle;
}
