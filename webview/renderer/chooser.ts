// The chart chooser above a result's chart: type, x, the measures on y (each its own series) and an
// optional series column. Every change redraws the chart and is reported (to be saved with the cell).
import { CHART_TYPES, type ChartChoice, type ResultColumn } from '../../src/shared/notebookOutput';

export interface Chooser {
  el: HTMLElement;
  set(choice: ChartChoice): void;
}

export function createChooser(
  doc: Document,
  columns: readonly ResultColumn[],
  initial: ChartChoice,
  onChange: (choice: ChartChoice) => void,
): Chooser {
  let choice = { ...initial, y: [...initial.y] };
  const el = doc.createElement('div');
  el.className = 'dp-chooser';
  const label = (text: string, control: HTMLElement) => {
    const l = doc.createElement('label');
    l.append(`${text} `, control);
    return l;
  };
  const select = (key: string, options: [string, string][], value: string) => {
    const s = doc.createElement('select');
    s.dataset.key = key;
    for (const [v, t] of options) {
      const o = doc.createElement('option');
      o.value = v;
      o.textContent = t;
      s.append(o);
    }
    s.value = value;
    return s;
  };
  const title = (c: ResultColumn) => c.title ?? c.name;
  const typeSel = select(
    'type',
    CHART_TYPES.map((t) => [t, t[0]!.toUpperCase() + t.slice(1)]),
    choice.type,
  );
  const xSel = select(
    'x',
    columns.map((c) => [c.name, title(c)]),
    choice.x,
  );
  const seriesSel = select(
    'series',
    [
      ['', 'None'],
      ...columns.filter((c) => c.kind !== 'number').map((c): [string, string] => [c.name, title(c)]),
    ],
    choice.series ?? '',
  );
  const ys = doc.createElement('span');
  ys.className = 'dp-ys';
  ys.setAttribute('role', 'group');
  ys.setAttribute('aria-label', 'Measures on y');
  const boxes = columns
    .filter((c) => c.kind === 'number')
    .map((c) => {
      const box = doc.createElement('input');
      box.type = 'checkbox';
      box.value = c.name;
      box.dataset.key = `y:${c.name}`;
      const l = doc.createElement('label');
      l.append(box, ` ${title(c)}`);
      ys.append(l);
      return box;
    });
  const sync = () => {
    typeSel.value = choice.type;
    xSel.value = choice.x;
    seriesSel.value = choice.series ?? '';
    for (const b of boxes) {
      b.checked = choice.y.includes(b.value);
      b.disabled = b.value === choice.x;
    }
  };
  const changed = () => {
    const y = boxes.filter((b) => b.checked && b.value !== xSel.value).map((b) => b.value);
    if (y.length === 0) {
      // At least one measure: put the last one back rather than draw an empty chart.
      sync();
      return;
    }
    choice = {
      type: typeSel.value as ChartChoice['type'],
      x: xSel.value,
      y,
      ...(seriesSel.value && seriesSel.value !== xSel.value ? { series: seriesSel.value } : {}),
    };
    sync();
    onChange(choice);
  };
  for (const c of [typeSel, xSel, seriesSel, ...boxes]) c.addEventListener('change', changed);
  el.append(label('Type', typeSel), label('X', xSel), label('Y', ys), label('Series', seriesSel));
  sync();
  return {
    el,
    set(next) {
      choice = { ...next, y: [...next.y] };
      sync();
    },
  };
}
