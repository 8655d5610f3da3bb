// Writes read back: what a write sends must be what a later read of the same resource says,
// through the real clients and the sandbox. A client that drops a field from what it sends, or a
// route that ignores one, fails here even when each side's shape is valid on its own.
import * as assert from 'node:assert/strict';
import { PlatformClient } from '../../../src/api';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';

/** The hour and minute of a five-field cron expression. */
function cronTime(cron: string | undefined): { minute: string; hour: string } {
  const [minute = '', hour = ''] = String(cron ?? '')
    .trim()
    .split(/\s+/);
  return { minute, hour };
}

describe('writes read back (clients against the sandbox)', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let platform: PlatformClient;

  before(async () => {
    sb = await startSandbox({ rows: 100 });
    platform = new PlatformClient({
      baseUrl: sb.urls.platform,
      token: async () => sb.tokens.admin,
      retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 },
    });
  });
  after(async () => {
    await platform.close();
    await sb.close();
  });

  it('a notification update keeps every field it sends: hour, minute, isEnabled, timezone, format', async () => {
    const n = (await platform.listNotifications(1, { first: 1 })).items[0]!;
    const before = await platform.getNotification(1, n.id);
    const hour = cronTime(before.cronExpression).hour === '9' ? 10 : 9;
    const isEnabled = before.isEnabled === false;
    const format = before.notificationFormat === 'pdf' ? 'png' : 'pdf';
    const answered = await platform.updateNotification(1, n.id, {
      scheduleType: 'DAILY',
      hour,
      minute: 15,
      isEnabled,
      timezone: 'Europe/Berlin',
      notificationFormat: format,
    });
    for (const seen of [answered, await platform.getNotification(1, n.id)]) {
      assert.deepEqual(
        cronTime(seen.cronExpression),
        { minute: '15', hour: String(hour) },
        'the schedule sent',
      );
      assert.equal(seen.isEnabled, isEnabled, 'isEnabled as sent');
      assert.equal(seen.timezone, 'Europe/Berlin', 'timezone as sent');
      assert.equal(seen.notificationFormat, format, 'format as sent');
    }
  });

  it('pausing and resuming (isEnabled alone) reads back, and leaves the schedule as it was', async () => {
    const n = (await platform.listNotifications(1, { first: 1 })).items[0]!;
    const before = await platform.getNotification(1, n.id);
    for (const isEnabled of [false, true]) {
      await platform.updateNotification(1, n.id, { isEnabled });
      const seen = await platform.getNotification(1, n.id);
      assert.equal(seen.isEnabled, isEnabled);
      assert.equal(seen.cronExpression, before.cronExpression, 'the schedule is untouched');
    }
  });

  it('a folder rename and a report update read back', async () => {
    const folder = await platform.createFolder(1, { name: 'Read back' });
    await platform.renameFolder(1, folder.id, { name: 'Read back, renamed' });
    const folders = (await platform.listFolders(1, { first: 200 })).items;
    assert.equal(folders.find((f) => f.id === folder.id)?.name, 'Read back, renamed');
    await platform.deleteFolder(1, folder.id);
    const report = (await platform.listReports(1, { first: 1 })).items[0]!;
    await platform.updateReport(1, report.id, { name: `${report.name} (read back)` });
    assert.equal((await platform.getReport(1, report.id)).name, `${report.name} (read back)`);
  });
});
