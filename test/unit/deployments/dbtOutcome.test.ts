// The end of a followed dbt sync, as the user is told it. The status API answers FAILED for a run
// that was cancelled; before, a user who cancelled a sync read an error ("The dbt sync … failed:
// Cancelled on request.") beside Cancel's own message, and the log ended "── FAILED …". A FAILED
// is now the cancel it is only for a run this window asked to cancel; any other stays a failure.
import * as assert from 'node:assert/strict';
import { CancelRequests, dbtEnd } from '../../../src/deployments/dbtOutcome';

const CHANNEL = 'Dashboard Platform: dbt sync';
const NAME = '"Analytics"';

describe('dbt sync: how a followed run’s end is told', () => {
  it('a FAILED of a run cancelled here is a cancel: no error, the log ends saying cancelled', () => {
    const cancels = new CancelRequests();
    cancels.asked(1, '1000012');
    const end = dbtEnd(
      { status: 'FAILED', error: 'Cancelled on request.' },
      NAME,
      cancels.has(1, '1000012'),
      CHANNEL,
    );
    assert.equal(end.job.status, 'CANCELLED');
    assert.equal(end.line, '── CANCELLED: Cancelled on request. ──');
    assert.equal(end.error, undefined, 'Cancel dbt Sync says it once; the start stays quiet');
  });

  it('a FAILED nobody here asked for stays a failure, with the reason and where the log is', () => {
    const cancels = new CancelRequests();
    cancels.asked(1, '1000012');
    // Another run of the same deployment, and the same run id on another deployment.
    for (const [dep, id] of [
      [1, '1000013'],
      [2, '1000012'],
    ] as const) {
      const end = dbtEnd({ status: 'FAILED', error: 'dbt parse error' }, NAME, cancels.has(dep, id), CHANNEL);
      assert.equal(end.job.status, 'FAILED');
      assert.equal(end.line, '── FAILED: dbt parse error ──');
      assert.equal(
        end.error,
        `The dbt sync of ${NAME} failed: dbt parse error. Its log is in the "${CHANNEL}" output.`,
      );
    }
  });

  it('a cancel the service refused is withdrawn: the run’s later FAILED is a failure', () => {
    const cancels = new CancelRequests();
    cancels.asked(1, '7');
    cancels.refused(1, '7');
    const end = dbtEnd({ status: 'FAILED', error: 'boom' }, NAME, cancels.has(1, '7'), CHANNEL);
    assert.equal(end.job.status, 'FAILED');
    assert.match(end.error ?? '', /failed: boom/);
  });

  it('a run cancelled elsewhere is said to have been cancelled; a completed one is no error', () => {
    const other = dbtEnd({ status: 'CANCELLED' }, NAME, false, CHANNEL);
    assert.equal(other.line, '── CANCELLED ──');
    assert.match(other.error ?? '', /^The dbt sync of "Analytics" was cancelled: no reason given\./);
    const done = dbtEnd({ status: 'COMPLETED' }, NAME, false, CHANNEL);
    assert.deepEqual([done.line, done.error], ['── COMPLETED ──', undefined]);
  });
});
