// Provision Embed Users from File through EmbedUserProvisioning in plain Node with a recording
// client: the open dialog (dismissed: nothing read or sent), a file that holds no user to send
// (named, with why, nothing sent), the modal (how many users, how many requests, the entries left
// out), batches of 100 with the progress said, Cancel between batches (nothing more sent, the rest
// reported as not sent), a failed last batch, and the tenant taken from its row.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as ProvisioningModule from '../../../src/admin/embedUserProvisioning';
import {
  adminWorld,
  loadPrompter,
  recorder,
  ROOTS,
  standIn,
  treeNode,
  type AdminWorld,
} from './adminStandIn';

/* eslint-disable @typescript-eslint/no-require-imports */
const load = () => ({
  ...loadPrompter(),
  ...(require('../../../src/admin/embedUserProvisioning') as typeof ProvisioningModule),
});
/* eslint-enable @typescript-eslint/no-require-imports */

type Batch = { users: { externalId: string }[] };

interface Setup extends AdminWorld {
  /** The answer to each batch (its index and users); every user succeeds when not given. */
  answer?: (i: number, b: Batch) => unknown;
}

const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `u-${from + i}`);

describe('admin: Provision Embed Users from File', () => {
  let m: ReturnType<typeof load>;
  let restore: () => void;
  let dir: string;
  before(() => {
    ({ modules: m, restore } = standIn(load));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-provision-file-'));
  });
  after(() => {
    restore();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A file of `count` users u-0, u-1, … (JSON), or the text given. */
  function file(name: string, content: number | string): string {
    const p = path.join(dir, name);
    fs.writeFileSync(
      p,
      typeof content === 'number'
        ? JSON.stringify(ids(0, content).map((externalId) => ({ externalId })))
        : content,
    );
    return p;
  }

  function world(w: Setup = {}) {
    const calls: string[] = [];
    let batch = 0;
    const admin = {
      listEmbedTenants: async () => ({ items: [{ name: 'acme' }] }),
      ...recorder(calls, {
        provisionEmbedUsers: (_t: never, b: Batch) =>
          w.answer?.(batch++, b) ?? {
            succeeded: b.users.map((u) => ({ externalId: u.externalId })),
            failed: [],
          },
      }),
    };
    const x = adminWorld(m, { admin }, w);
    return { ...x, calls, cmds: new m.EmbedUserProvisioning(x.deps) };
  }
  /** The batches sent: how many users each, first and last external id. */
  const sent = (calls: string[]) =>
    calls.map((c) => {
      const b = JSON.parse(c.slice(c.indexOf(', ') + 2, -1)) as Batch;
      return `${c.slice(0, c.indexOf('('))} ${b.users.length} ${b.users[0]?.externalId}..${b.users.at(-1)?.externalId}`;
    });

  it('asks for the file in an open dialog; dismissed, nothing is read or sent', async () => {
    const x = world();
    await assert.rejects(x.cmds.provisionFromFile({ tenant: 'acme' }), { name: 'UserCancelled' });
    assert.deepEqual(x.shown.openDialogs, [
      {
        title: 'Provision Embed Users into acme',
        openLabel: 'Preview',
        canSelectMany: false,
        filters: { 'Users (CSV or JSON)': ['csv', 'json'] },
      },
    ]);
    assert.deepEqual(x.confirmations, []);
    assert.deepEqual(x.calls, []);
    // The file picked there is the one read and sent.
    const y = world();
    y.shown.openAs = file('picked.json', 2);
    const report = await y.cmds.provisionFromFile({ tenant: 'acme' });
    assert.equal(y.shown.openDialogs.length, 1);
    assert.equal(y.confirmations[0]?.split(' | ')[0], 'Provision 2 embed users from picked.json into acme?');
    assert.deepEqual(sent(y.calls), ['provisionEmbedUsers 2 u-0..u-1']);
    assert.equal(report.succeeded.length, 2);
  });

  it('a file with no user to send is refused by name, with why; nothing is asked or sent', async () => {
    const bad = (n: number) => Array.from({ length: n }, () => 'x,not-mail').join('\n');
    const cases: [string, string, RegExp][] = [
      [
        'empty.csv',
        ' \n',
        /^Error: empty\.csv is empty: it needs a CSV header row or a JSON list of users\.$/,
      ],
      ['broken.json', '[{"externalId": ', /^Error: broken\.json is not valid JSON \(.+\)\.$/],
      [
        'object.json',
        '{"people": []}',
        /^Error: object\.json holds no list of users: use \[ \{\.\.\.\}, \.\.\. \] or \{"users": \[ \.\.\. \]\}\.$/,
      ],
      ['header.csv', 'externalId,email\n', /^Error: header\.csv has no user that can be sent\.$/],
      [
        'three.csv',
        `externalId,email\n${bad(3)}`,
        /^Error: three\.csv has no user that can be sent: line 2: email: Not an e-mail address\.; line 3: email: Not an e-mail address\.; line 4: email: Not an e-mail address\.\.$/,
      ],
      [
        'four.csv',
        `externalId,email\n${bad(3)}\n,a@b.example`,
        /^Error: four\.csv has no user that can be sent: line 2: .+; line 3: .+; line 4: [^;]+\.$/,
      ],
    ];
    // A file that cannot be read: named, with the reason (the error keeps the system's as its cause).
    const gone = world();
    const e = await gone.cmds.provisionFromFile({ tenant: 'acme', file: path.join(dir, 'gone.csv') }).then(
      () => undefined,
      (err: Error) => err,
    );
    assert.match(String(e?.message), /^Cannot read gone\.csv: ENOENT/);
    assert.equal((e?.cause as { code?: string } | undefined)?.code, 'ENOENT');
    assert.deepEqual(gone.calls, []);
    for (const [name, text, error] of cases) {
      const x = world();
      await assert.rejects(x.cmds.provisionFromFile({ tenant: 'acme', file: file(name, text) }), error, name);
      assert.deepEqual(x.confirmations, [], name);
      assert.deepEqual(x.writes, [], name);
      assert.deepEqual(x.calls, [], name);
    }
  });

  it('the modal counts users and requests and names the entries left out (five at most); declined, nothing is sent', async () => {
    const entries = (good: number, bad: number) =>
      JSON.stringify([
        ...ids(0, good).map((externalId) => ({ externalId })),
        ...Array.from({ length: bad }, () => ({ externalId: '' })),
      ]);
    const left = (from: number, to: number) =>
      Array.from(
        { length: to - from },
        (_, i) => `entry ${from + i}: externalId: An external id is required.`,
      ).join('; ');
    const cases: [number, number, string][] = [
      [
        1,
        0,
        "Provision 1 embed user from f.json into acme? | Sent in 1 request of at most 100. Existing users (same external id) are updated; each user's result is reported. | Provision",
      ],
      [
        101,
        1,
        `Provision 101 embed users from f.json into acme? | Sent in 2 requests of at most 100. Existing users (same external id) are updated; each user's result is reported.\n1 entry cannot be sent and is left out: ${left(102, 103)}. | Provision`,
      ],
      [
        2,
        5,
        `Provision 2 embed users from f.json into acme? | Sent in 1 request of at most 100. Existing users (same external id) are updated; each user's result is reported.\n5 entries cannot be sent and are left out: ${left(3, 8)}. | Provision`,
      ],
      [
        2,
        6,
        `Provision 2 embed users from f.json into acme? | Sent in 1 request of at most 100. Existing users (same external id) are updated; each user's result is reported.\n6 entries cannot be sent and are left out: ${left(3, 8)}; …. | Provision`,
      ],
    ];
    for (const [good, bad, modal] of cases) {
      const no = world({ confirm: false });
      const f = file('f.json', entries(good, bad));
      await assert.rejects(no.cmds.provisionFromFile({ tenant: 'acme', file: f }), { name: 'UserCancelled' });
      assert.deepEqual(no.confirmations, [modal]);
      assert.deepEqual(no.writes, []);
      assert.deepEqual(no.calls, []);
    }
    // Confirmed: the production question names how many go where, and the left-out entries are in the report.
    const x = world();
    const report = await x.cmds.provisionFromFile({ tenant: 'acme', file: file('f.json', entries(101, 1)) });
    assert.deepEqual(x.writes, ['Provision 101 embed users into acme']);
    assert.deepEqual(report.notSent, [
      { where: 'entry 102', reason: 'externalId: An external id is required.' },
    ]);
    assert.deepEqual(x.shown.messages, [
      'warning: Provisioned 101 of 101 embed users in acme. 1 not sent: entry 102: externalId: An external id is required.',
    ]);
  });

  it('sends batches of 100 in order, saying how far it is; every user done is said in one notification', async () => {
    const x = world({
      // The first user of each batch is refused: the progress counts it as done too.
      answer: (_i, b) => ({
        succeeded: b.users.slice(1).map((u) => ({ externalId: u.externalId })),
        failed: [{ externalId: b.users[0]!.externalId, error: { status: 409, message: 'taken' } }],
      }),
    });
    const report = await x.cmds.provisionFromFile({ tenant: 'acme', file: file('many.json', 250) });
    assert.deepEqual(sent(x.calls), [
      'provisionEmbedUsers 100 u-0..u-99',
      'provisionEmbedUsers 100 u-100..u-199',
      'provisionEmbedUsers 50 u-200..u-249',
    ]);
    assert.deepEqual(x.shown.progress, [
      {
        title: 'Provisioning embed users into acme',
        cancellable: true,
        reports: [
          { message: '0 of 250', increment: 40 },
          { message: '100 of 250', increment: 40 },
          { message: '200 of 250', increment: 20 },
        ],
      },
    ]);
    assert.equal(report.succeeded.length, 247);
    assert.deepEqual(
      report.failed.map((f) => f.externalId),
      ['u-0', 'u-100', 'u-200'],
    );
    assert.deepEqual(report.unknown, []);
    assert.deepEqual(
      x.jsonShown.map((j) => `${j.key} ${j.name}`),
      ['embed-provisioning:acme provisioning-acme'],
    );
    assert.deepEqual(x.refreshed, [ROOTS.embedTenants]);
    assert.deepEqual(x.shown.messages, [
      'warning: Provisioned 247 of 250 embed users in acme. 3 failed: u-0 (taken), u-100 (taken), u-200 (taken).',
    ]);
    const all = world();
    await all.cmds.provisionFromFile({ tenant: 'acme', file: file('some.json', 3) });
    assert.deepEqual(all.shown.messages, ['info: Provisioned 3 of 3 embed users in acme.']);
  });

  it('Cancel between batches sends nothing more and reports the rest as not sent', async () => {
    // Cancelled while the first batch is on its way: it completes, the next two are not sent.
    const x = world({
      answer: (_i, b) => {
        x.shown.progressSource?.cancel();
        return { succeeded: b.users.map((u) => ({ externalId: u.externalId })), failed: [] };
      },
    });
    const report = await x.cmds.provisionFromFile({ tenant: 'acme', file: file('many.json', 250) });
    assert.deepEqual(sent(x.calls), ['provisionEmbedUsers 100 u-0..u-99']);
    assert.equal(report.succeeded.length, 100);
    assert.deepEqual(report.unknown, [{ externalIds: ids(100, 250), reason: 'not sent (cancelled)' }]);
    assert.deepEqual(x.shown.progress[0]?.reports, [{ message: '0 of 250', increment: 40 }]);
    assert.deepEqual(x.shown.messages, [
      'warning: Provisioned 100 of 250 embed users in acme. 150 not sent (cancelled).',
    ]);
    assert.deepEqual(
      x.jsonShown.map((j) => j.key),
      ['embed-provisioning:acme'],
    );
    // Cancelled before the first batch: nothing is sent, every user is reported as not sent.
    const early = world();
    early.shown.cancelProgress = true;
    const none = await early.cmds.provisionFromFile({ tenant: 'acme', file: file('few.json', 3) });
    assert.deepEqual(early.calls, []);
    assert.deepEqual(none.unknown, [{ externalIds: ids(0, 3), reason: 'not sent (cancelled)' }]);
    assert.deepEqual(early.shown.messages, [
      'warning: Provisioned 0 of 3 embed users in acme. 3 not sent (cancelled).',
    ]);
  });

  it('a failed last batch is an error saying its users’ outcome, with nothing said to be not sent', async () => {
    const x = world({
      answer: (i, b) => {
        if (i === 1) throw new Error('The connection dropped');
        return { succeeded: b.users.map((u) => ({ externalId: u.externalId })), failed: [] };
      },
    });
    await assert.rejects(
      x.cmds.provisionFromFile({ tenant: 'acme', file: file('two.json', 150) }),
      /^Error: Provisioned 100 of 150 embed users in acme\. 50 in a request that failed \(The connection dropped\)\.$/,
    );
    assert.deepEqual(sent(x.calls), [
      'provisionEmbedUsers 100 u-0..u-99',
      'provisionEmbedUsers 50 u-100..u-149',
    ]);
    assert.deepEqual((x.jsonShown[0]?.value as { unknown: unknown[] }).unknown, [
      { externalIds: ids(100, 150), reason: 'in a request that failed (The connection dropped)' },
    ]);
    assert.deepEqual(x.shown.messages, []);
  });

  it('on a tenant’s row: that tenant, no pick; its row is refreshed', async () => {
    const row = treeNode('embedTenant', { name: 'acme' }, undefined, treeNode('adminSection', undefined));
    const x = world();
    // Without a file given, the dialog asks (and is dismissed here).
    await assert.rejects(x.cmds.provisionFromFile(row), { name: 'UserCancelled' });
    assert.equal(x.questions.length, 0);
    assert.equal((x.shown.openDialogs[0] as { title: string }).title, 'Provision Embed Users into acme');
    const y = world();
    y.shown.openAs = file('row.json', 1);
    await y.cmds.provisionFromFile(row);
    assert.deepEqual(y.questions, []);
    assert.deepEqual(
      y.calls.map((c) => c.slice(0, c.indexOf(','))),
      ['provisionEmbedUsers("acme"'],
    );
    assert.deepEqual(y.refreshed, [row]);
  });
});
