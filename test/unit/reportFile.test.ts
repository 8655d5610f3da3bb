// Reports as code, the file side: what a report file sends (its declared fields only), what a pull
// writes (the server's report fields, the file's other fields kept in place), what each side
// would change (the diff's list), and how a push's answer reads as created, updated or unchanged.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  formatReportFile,
  mintPublicId,
  parseReportFile,
  pullChanges,
  pushChanges,
  reportFileFromServer,
  reportFileName,
  upsertOutcome,
} from '../../src/dashboards/reportFile';
import { draftOf } from '../../src/dashboards/dashboardFile';

const SERVER = {
  id: 9,
  publicId: 'RevByMonth01',
  name: 'Revenue by month',
  title: null,
  sqlQuery: 'SELECT 1',
  folderId: 4,
  createdAt: '2026-11-01',
  updatedAt: '2026-11-02',
  canEdit: true,
};

describe('report files (reports as code)', () => {
  it('sends the declared fields only; the others stay in the file and are named', () => {
    const parsed = parseReportFile(
      JSON.stringify({ publicId: 'RevByMonth01', name: 'R', sqlQuery: 'SELECT 1', owner: 'ann', notes: [1] }),
    );
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.file.body, { publicId: 'RevByMonth01', name: 'R', sqlQuery: 'SELECT 1' });
    assert.deepEqual(parsed.file.unknown, ['owner', 'notes']);
    assert.equal(parsed.file.publicId, 'RevByMonth01');
  });

  it('says what is wrong with a file that cannot be pushed', () => {
    const bad = (text: string) => {
      const p = parseReportFile(text);
      return p.ok ? '' : p.message;
    };
    assert.match(bad('{"name": '), /not valid JSON/);
    assert.match(bad('[1]'), /one JSON object/);
    assert.match(bad('{"publicId": "abc"}'), /"abc" is not a public id: it must be 12 letters or digits/);
    assert.match(bad('{"publicId": "RevByMonth0!"}'), /not a public id/);
    const none = parseReportFile('{"name": "R"}');
    assert.ok(none.ok && none.file.publicId === undefined, 'no publicId yet: Push offers to mint one');
  });

  it('a pull writes the report’s fields and keeps the file’s own fields where they were', () => {
    const existing = {
      owner: 'ann',
      publicId: 'RevByMonth01',
      name: 'Old',
      title: 'Old title',
      sqlQuery: 'SELECT 0',
    };
    const next = reportFileFromServer(SERVER, existing);
    assert.deepEqual(next, {
      owner: 'ann',
      publicId: 'RevByMonth01',
      name: 'Revenue by month',
      sqlQuery: 'SELECT 1',
    });
    assert.deepEqual(Object.keys(next), ['owner', 'publicId', 'name', 'sqlQuery'], 'order kept');
    assert.equal('folderId' in next, false, 'the folder is per deployment: not pulled');
    assert.deepEqual(pullChanges(existing, next).sort(), ['name', 'sqlQuery', 'title']);
    assert.equal(formatReportFile(next).endsWith('}\n'), true);
  });

  it('a push changes only the fields the file sends that differ (null and missing are the same)', () => {
    const body = {
      publicId: 'RevByMonth01',
      name: 'Revenue by month',
      title: null,
      sqlQuery: 'SELECT 2',
      source: 'D3' as const,
    };
    assert.deepEqual(pushChanges(body, SERVER), ['sqlQuery']);
    assert.deepEqual(pushChanges({ ...body, sqlQuery: 'SELECT 1' }, SERVER), [], 'nothing to push');
    assert.deepEqual(
      pushChanges({ meta: { a: 1, b: 2 } }, { meta: { b: 2, a: 1 } }),
      [],
      'key order ignored',
    );
  });

  it('reads the push’s answer: created, updated or unchanged', () => {
    assert.equal(upsertOutcome(undefined, { id: 9, updatedAt: 'b' }), 'created');
    assert.equal(upsertOutcome({ id: 9, updatedAt: 'a' }, { id: 9, updatedAt: 'b' }), 'updated');
    assert.equal(upsertOutcome({ id: 9, updatedAt: 'a' }, { id: 9, updatedAt: 'a' }), 'unchanged');
    assert.equal(
      upsertOutcome({ id: 9, updatedAt: 'a' }, { id: 10, updatedAt: 'a' }),
      'created',
      'another report',
    );
  });

  it('mints public ids of 12 letters or digits', () => {
    const ids = new Set(Array.from({ length: 50 }, () => mintPublicId(randomBytes)));
    assert.equal(ids.size, 50);
    for (const id of ids) assert.match(id, /^[0-9A-Za-z]{12}$/);
    assert.equal(
      mintPublicId((n) => new Uint8Array(n).fill(255).map((_, i) => (i < 4 ? 255 : 61))),
      'zzzzzzzzzzzz',
    );
    assert.equal(reportFileName('Revenue / Month'), 'revenue-month.report.json');
  });

  it('a dashboard draft is the file’s config with its title and description', () => {
    assert.deepEqual(
      draftOf({ workbookId: 1, title: 'T', description: null, config: { title: 'Old', widgets: [] } }),
      { title: 'T', description: null, widgets: [] },
    );
    assert.deepEqual(draftOf({ workbookId: 1 }), {});
  });
});
