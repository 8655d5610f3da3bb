// The app config as readable tree rows: published fields by name in reading order, booleans and
// nulls in words, deprecated schemes and unknown enum values marked, unknown fields kept.
import * as assert from 'node:assert/strict';
import { appConfigRows, NOT_PUBLISHED, type ConfigRow } from '../../../src/explorer/admin/appConfigRows';
import { seedPlatform } from '../../../src/sandbox/platform/seed';

const find = (rows: ConfigRow[] | undefined, ...labels: string[]): ConfigRow => {
  let r: ConfigRow | undefined;
  let list = rows;
  for (const l of labels) {
    r = list?.find((x) => x.label === l);
    assert.ok(r, `${labels.join(' › ')}: no "${l}" in ${list?.map((x) => x.label).join(', ')}`);
    list = r.children;
  }
  return r!;
};

describe('app config rows', () => {
  const config = seedPlatform().appConfig;
  const rows = appConfigRows(config);

  it('names every published section in reading order', () => {
    assert.deepEqual(
      rows.map((r) => r.label),
      [
        'Theme',
        'Apply theme globally',
        'Creator mode',
        'Embedding',
        'Time zone settings',
        'Sheets UI',
        'Restrict data download',
        'Sheets agent chat',
      ],
    );
  });

  it('shows values in words: yes/no, not set, colours as sent', () => {
    assert.equal(find(rows, 'Apply theme globally').value, 'yes');
    assert.equal(find(rows, 'Restrict data download').value, 'no');
    assert.equal(find(rows, 'Embedding', 'AI widgets').value, 'not set');
    assert.equal(find(rows, 'Theme', 'Palette', 'Accent', 'Colour').value, '#4f46e5');
    assert.equal(
      find(rows, 'Theme', 'Palette', 'Semantic colours', 'Success', 'Colour').value,
      'rgb(22 163 74)',
    );
    assert.equal(find(rows, 'Theme', 'Typography').value, 'not set');
  });

  it('lists creator mode localized titles as locale: title', () => {
    const titles = find(rows, 'Creator mode', 'Localized titles');
    assert.equal(titles.value, '2');
    assert.deepEqual(
      titles.children?.map((t) => [t.label, t.value]),
      [
        ['de', 'Analytik'],
        ['fr-FR', 'Analytique'],
      ],
    );
  });

  it('keeps the deprecated light and dark schemes, marked deprecated', () => {
    for (const l of ['Light scheme', 'Dark scheme']) {
      const s = find(rows, 'Theme', l);
      assert.match(s.note ?? '', /deprecated: use palette and logoUrl/);
      assert.ok(find(rows, 'Theme', l, 'Accent colour').value?.startsWith('#'));
    }
  });

  it('keeps and marks fields the published schema does not name, at any depth', () => {
    const extra = appConfigRows({
      ...config,
      brandNewFlag: true,
      creatorMode: { showGeneratedSql: false, futureOption: { a: 1 } },
    });
    const top = find(extra, 'brandNewFlag');
    assert.equal(top.value, 'yes');
    assert.equal(top.note, NOT_PUBLISHED);
    const nested = find(extra, 'Creator mode', 'futureOption');
    assert.equal(nested.note, NOT_PUBLISHED);
    assert.deepEqual(nested.raw, { a: 1 });
    assert.equal(
      extra[extra.length - 1]!.label,
      'brandNewFlag',
      'unknown fields come after the published ones',
    );
  });

  it('shows an unknown enum value as sent and marks it', () => {
    const r = appConfigRows({ appTheme: { palette: { surfaceMode: 'glass' } } });
    const mode = find(r, 'Theme', 'Palette', 'Surface mode');
    assert.equal(mode.value, 'glass');
    assert.match(mode.note ?? '', /not a published value \(neutral, tinted\)/);
    assert.equal(find(appConfigRows(config), 'Theme', 'Palette', 'Surface mode').note, undefined);
  });

  it('names typography fonts and their body and heading references', () => {
    const r = appConfigRows({
      appTheme: {
        typography: {
          fonts: [{ id: 'f1', url: 'https://fonts.example/inter.woff2', format: 'woff2', name: 'Inter' }],
          body: { fontRef: 'f1', fontWeight: 400 },
          heading: { fontRef: 'f1', fontWeight: 700 },
        },
      },
    });
    const fonts = find(r, 'Theme', 'Typography', 'Fonts');
    assert.equal(fonts.value, '1');
    assert.deepEqual(
      fonts.children?.map((f) => [f.label, f.value]),
      [['Inter', 'woff2 https://fonts.example/inter.woff2']],
    );
    assert.equal(find(r, 'Theme', 'Typography', 'Heading', 'Weight').value, '700');
  });

  it('reads an empty config as no rows rather than failing', () => {
    assert.deepEqual(appConfigRows({}), []);
  });
});
