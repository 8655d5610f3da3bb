// Add Profile's review (src/profiles/connectionReview.ts) against the sandbox over HTTP: what the
// user is shown before a profile is saved (what works, what fails and why), the buttons offered
// (Save, or Save Anyway when something failed; Edit), and what each answer means.
import assert from 'node:assert/strict';
import type * as ReviewModule from '../../src/profiles/connectionReview';
import { UserCancelled } from '../../src/log';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import { memoryLog, useProfileStandIn } from './profileStandIn';

describe('Add Profile connection review (sandbox)', () => {
  const standIn = useProfileStandIn();
  const { sink } = standIn;
  let review: typeof ReviewModule;
  let sb: SandboxHandle;
  before(async () => {
    review = standIn.load<typeof ReviewModule>('../../src/profiles/connectionReview');
    sb = await startSandbox({ rows: 50, notifications: 0 });
  });
  after(() => sb.close());

  const input = () => ({ name: 'Local', platformUrl: sb.urls.platform });

  it('a working connection: "connected", with Save and Edit; each answer says save, edit again or cancel', async () => {
    const outcomes: [string | undefined, boolean | 'cancelled'][] = [
      ['Save', true],
      ['Edit', false],
      [undefined, 'cancelled'],
    ];
    for (const [answer, outcome] of outcomes) {
      sink.shown.length = 0;
      sink.progress.length = 0;
      sink.answers = [answer];
      const got = await review
        .connectionReviewed(input(), { platformToken: sb.tokens.admin }, memoryLog().log as never)
        .catch((e: unknown) => (e instanceof UserCancelled ? 'cancelled' : e));
      assert.equal(got, outcome, String(answer));
      assert.deepEqual(sink.progress, [{ title: 'Testing the connection…', cancellable: true }]);
      assert.equal(sink.shown.length, 1);
      const shown = sink.shown[0]!;
      assert.equal(shown.message, 'Profile "Local": connected.');
      assert.equal(shown.options?.modal, true);
      assert.deepEqual(shown.buttons, ['Save', 'Edit']);
      const detail = (shown.options?.detail ?? '').split('\n');
      assert.equal(detail.length, 3);
      assert.match(detail[0]!, /^✓ Platform API: \d+ deployments? listed$/);
      assert.match(detail[1]!, /^✓ Data API: \d+ cubes? on deployment "/);
      assert.equal(detail[2], '– AI API: not checked: no agent URL');
    }
  });

  it('a refused token: "found problems", with Save Anyway (which saves) and Edit', async () => {
    for (const [answer, outcome] of [
      ['Save Anyway', true],
      ['Edit', false],
    ] as const) {
      sink.shown.length = 0;
      sink.answers = [answer];
      const got = await review.connectionReviewed(
        input(),
        { platformToken: 'not-a-token' },
        memoryLog().log as never,
      );
      assert.equal(got, outcome);
      const shown = sink.shown[0]!;
      assert.equal(shown.message, 'Profile "Local": the connection test found problems.');
      assert.deepEqual(shown.buttons, ['Save Anyway', 'Edit']);
      assert.match(
        shown.options?.detail ?? '',
        /^✗ Platform API: .+\n– Data API: not checked: the platform API failed\n/,
      );
    }
  });

  it('a token typed with spaces around is tested trimmed; an unreadable CA file setting is logged', async () => {
    sink.answers = ['Save'];
    sink.settings['dashboardPlatform.extraCaCertificates'] = '/nonexistent/dp-ca.pem';
    const { log, lines } = memoryLog();
    assert.equal(
      await review.connectionReviewed(input(), { platformToken: `  ${sb.tokens.admin} ` }, log as never),
      true,
    );
    assert.equal(sink.shown[0]?.message, 'Profile "Local": connected.');
    const warnings = lines.filter((l) => l.startsWith('warn:'));
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0]!,
      /^warn: dashboardPlatform\.extraCaCertificates: cannot read \/nonexistent\/dp-ca\.pem: ENOENT/,
    );
  });

  it('lists the deployments the token sees, by name, under progress', async () => {
    const r = await review.listDeployments(
      { name: 'Local', platformUrl: sb.urls.platform, token: sb.tokens.admin },
      memoryLog().log as never,
    );
    assert.deepEqual(sink.progress, [{ title: 'Listing deployments…', cancellable: true }]);
    assert.equal(r.truncated, false);
    assert.ok(r.items.length > 0);
    assert.deepEqual(
      r.items.map((d) => typeof d.id === 'number' && d.name.length > 0),
      r.items.map(() => true),
    );
    await assert.rejects(
      review.listDeployments(
        { name: 'Local', platformUrl: sb.urls.platform, token: 'nope' },
        memoryLog().log as never,
      ),
    );
  });
});
