import assert from 'node:assert/strict';
import {
  displayName,
  escapeMarkdown,
  plainSentence,
  plainText,
  tooltipLines,
} from '../../src/explorer/labels';
import { describeReportQuery } from '../../src/explorer/reportQuery';

describe('explorer label escaping', () => {
  it('keeps labels on one line and cuts long text', () => {
    assert.equal(plainText('a\nb\r\n\tc\u0000d\u2028e'), 'a b c d e');
    assert.equal(plainText(undefined), '');
    // A right-to-left override would show "Revenue\u202Etxt.exe" as "Revenueexe.txt".
    assert.equal(plainText('Revenue\u202Etxt.exe'), 'Revenuetxt.exe');
    assert.equal(plainText('\u2067a\u2069 \u200Fb\u061C'), 'a b');
    assert.equal(plainText('x'.repeat(300), 10), `${'x'.repeat(9)}…`);
  });

  it('neutralises Markdown and HTML so server text renders literally', () => {
    const evil =
      '[click](command:workbench.action.quit) ![img](http://x/y.png) <img src=x onerror=alert(1)> **b** `c`';
    const escaped = escapeMarkdown(evil);
    for (const ch of ['[', ']', '(', ')', '<', '>', '*', '`', '!']) {
      assert.ok(!new RegExp(`(^|[^\\\\])\\${ch}`).test(escaped), `unescaped ${ch} in ${escaped}`);
    }
    assert.ok(!escaped.includes('\n'));
  });

  it('builds tooltips from escaped lines and skips empty fields', () => {
    const t = tooltipLines('Re*port', [
      ['id', 7],
      ['empty', ''],
      ['none', undefined],
      ['obj', { a: 1 }],
    ]);
    assert.ok(t.startsWith('**Re\\*port**'));
    assert.ok(t.includes('id: 7'));
    assert.ok(!t.includes('empty'));
    assert.ok(t.includes('\\{"a"\\:1\\}') || t.includes('\\{\\"a\\"\\:1\\}'));
  });

  it('names an object by name, title, or id', () => {
    assert.equal(displayName({ id: 3, name: 'Sales\nQ1' }), 'Sales Q1');
    assert.equal(displayName({ id: 3, title: 'T' }), 'T');
    assert.equal(displayName({ id: 3, name: '  ' }), '#3');
  });

  it('describes a reports query for the view description', () => {
    assert.equal(describeReportQuery({}), '');
    assert.equal(
      describeReportQuery({ search: 'rev\nenue', sortBy: 'name' }),
      'search "rev enue", sorted by name (A→Z)',
    );
    assert.equal(
      describeReportQuery({ sortBy: 'updatedAt', sortDirection: 'ASC' }),
      'sorted by updated (oldest first)',
    );
    assert.equal(describeReportQuery({ folderId: 4, externalWorkbookId: 'wb' }), 'folder 4, workbook wb');
  });

  it('makes server text one sentence of a message without doubling its full stop', () => {
    assert.equal(plainSentence('dbt compile failed.'), 'dbt compile failed.');
    assert.equal(plainSentence('dbt compile failed'), 'dbt compile failed.');
    assert.equal(plainSentence('really?\n'), 'really?');
    assert.equal(plainSentence(''), '');
    assert.equal(plainSentence('x'.repeat(300), 10), `${'x'.repeat(9)}…`);
  });
});
