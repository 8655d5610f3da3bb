// What the dashboard editor shows about a widget's report: the report's current name from the
// server, with the kind and preview of the published snapshot; bad snapshot items are skipped.
import { strict as assert } from 'node:assert';
import {
  mergeReports,
  reportFromListItem,
  reportsFromSnapshots,
  widgetReportIds,
} from '../../src/dashboards/widgetReports';

describe("dashboard editor: widgets' reports", () => {
  it('lists the report ids the widgets place, once each, skipping what is not an id', () => {
    const config = {
      widgets: [
        { config: { reportId: 10014 } },
        { config: { reportId: '10001' } },
        { config: { reportId: 10014 } },
        { config: { text: '## x' } },
        { config: null },
        { config: { reportId: -3 } },
      ],
    };
    assert.deepEqual(widgetReportIds(config), [10014, 10001]);
    assert.deepEqual(widgetReportIds(null), []);
  });

  it('names a report by its current name and keeps the snapshot preview', () => {
    const snapshots = reportsFromSnapshots({
      reportSnapshots: [
        {
          id: 1,
          reportId: 10014,
          versionNumber: 1,
          title: 'Orders (old name)',
          kind: 'vega',
          spec: '{"mark":"bar"}',
          sqlQuery: 'SELECT 1',
        },
        { id: 2, reportId: 10040, versionNumber: 1, title: null, name: 'churn-report', kind: 'table' },
        { id: 'bad' },
      ],
    });
    assert.deepEqual(snapshots['10040'], { title: 'churn-report', kind: 'table' });
    const live = {
      '10014': reportFromListItem({ name: 'Orders by Month', title: null }),
      '10066': reportFromListItem({ name: 'refunds', title: 'Refunds Trend' }),
    };
    assert.deepEqual(mergeReports(live, snapshots), {
      '10014': { title: 'Orders by Month', kind: 'vega', sql: 'SELECT 1', mark: 'bar' },
      '10040': { title: 'churn-report', kind: 'table' },
      '10066': { title: 'Refunds Trend' },
    });
  });
});
