// Ids the sandbox hands out to created objects never repeat a seeded one: a created notification
// that shared a seeded id was the one listed while its twin was the one paused.
import assert from 'node:assert/strict';
import { seedPlatform } from '../../../src/sandbox/platform/seed';

describe('sandbox seed ids', () => {
  it('gives created objects ids no seeded notification has', () => {
    const data = seedPlatform(42, 500);
    const seeded = new Set([...data.notifications.values()].flat().map((n) => n.id));
    assert.ok(seeded.size >= 500);
    const created = Array.from({ length: 1000 }, () => data.nextId());
    assert.deepEqual(
      created.filter((id) => seeded.has(id)),
      [],
    );
    assert.equal(new Set(created).size, created.length);
  });
});
