// The one catch per command (commandRunner.ts) and the extension's log (log.ts): what the user is
// shown when a command fails (the message, redacted; "Show Logs", and "Check" for a write whose
// outcome is unknown, never a "try again"), silence on cancellation, and every line of the log
// redacted before it reaches the output channel.
import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import { forgetSecrets } from '../../../src/api/log';
import type * as RunnerModule from '../../../src/commandRunner';
import type * as LogModule from '../../../src/log';
import { useCoreStandIn } from './coreStandIn';

const SECRET = 'tok-9b1f6c2e7d4a5s8q';

/** A LogOutputChannel that keeps its lines by level. */
function channel() {
  const lines: string[] = [];
  const at =
    (level: string) =>
    (m: string): void =>
      void lines.push(`${level} ${m}`);
  return {
    lines,
    shown: [] as unknown[][],
    name: 'Dashboard Platform',
    logLevel: 2,
    onDidChangeLogLevel: 'event',
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    append: at('append'),
    appendLine: at('appendLine'),
    replace: at('replace'),
    clear() {
      lines.push('clear');
    },
    show(...a: unknown[]) {
      this.shown.push(a);
    },
    hide() {
      lines.push('hide');
    },
    dispose() {
      lines.push('dispose');
    },
  };
}

describe('core: a failed command is shown once, redacted, with what the user can do next', () => {
  const stand = useCoreStandIn();
  let runner: typeof RunnerModule;
  let log: typeof LogModule;
  before(() => {
    runner = stand.load('../../../src/commandRunner');
    log = stand.load('../../../src/log');
  });
  beforeEach(() => {
    forgetSecrets();
    new log.KnownSecrets().add(SECRET);
  });
  after(() => forgetSecrets());
  const settle = () => new Promise((r) => setImmediate(r));

  it("runCommand returns the handler's result and shows nothing when it succeeds", async () => {
    stand.reset();
    const c = channel();
    assert.equal(await runner.runCommand({ log: c as never }, async () => 42, 'Count'), 42);
    assert.deepEqual(c.lines, []);
    assert.deepEqual(stand.sink().errors, []);
  });

  it('a failure: logged as "<what> failed: …", shown with Show Logs, the secret redacted everywhere', async () => {
    const s = stand.reset();
    s.answer = 'Show Logs';
    const c = log.createRedactingLog(channel() as never);
    const inner = channel();
    const wrapped = log.createRedactingLog(inner as never);
    const got = await runner.runCommand(
      { log: wrapped },
      () => {
        throw new Error(`token ${SECRET} refused`);
      },
      'Publish Dashboard',
    );
    assert.equal(got, undefined);
    await settle();
    assert.equal(s.errors.length, 1);
    assert.equal(s.errors[0]!.message, 'token [REDACTED] refused');
    assert.deepEqual(s.errors[0]!.actions, ['Show Logs']);
    assert.equal(inner.lines[0], 'error Publish Dashboard failed: token [REDACTED] refused');
    assert.match(inner.lines[1]!, /^trace Error: token \[REDACTED\] refused\n\s+at /);
    assert.equal(inner.lines.length, 2);
    assert.deepEqual(inner.shown, [[true]], '"Show Logs" opens the log, keeping focus where it was');
    assert.ok(!JSON.stringify(s).includes(SECRET));
    assert.equal(c.name, 'Dashboard Platform');
  });

  it('an ApiError is shown as its own sentence, without a stack; the default subject is "Command"', async () => {
    const s = stand.reset();
    const inner = channel();
    runner.reportError({ log: inner as never }, new ApiError('notFound', 'The report 12 no longer exists.'));
    await settle();
    assert.deepEqual(s.errors, [{ message: 'The report 12 no longer exists.', actions: ['Show Logs'] }]);
    assert.deepEqual(inner.lines, ['error Command failed: The report 12 no longer exists.']);
    assert.deepEqual(inner.shown, [], 'the log opens only when asked');
  });

  it('an unknown outcome offers Check (running the check command with its arguments), never a retry', async () => {
    const s = stand.reset();
    s.answer = 'Check';
    const inner = channel();
    const e = new ApiError('unknownOutcome', 'The dashboard may or may not have been published.', {
      check: {
        hint: 'Open the workbook to see.',
        command: 'dashboardPlatform.openWorkbook',
        args: [{ workbookId: 7 }],
      },
    });
    runner.reportError({ log: inner as never }, e, 'Publish');
    await settle();
    assert.deepEqual(s.errors[0]!.actions, ['Check', 'Show Logs']);
    assert.deepEqual(s.commands, [{ id: 'dashboardPlatform.openWorkbook', args: [{ workbookId: 7 }] }]);
    assert.deepEqual(inner.shown, []);
    // "Show Logs" on the same error opens the log and runs no check; a check without arguments runs bare.
    const sLogs = stand.reset();
    sLogs.answer = 'Show Logs';
    const logs = channel();
    runner.reportError({ log: logs as never }, e, 'Publish');
    await settle();
    assert.deepEqual(sLogs.commands, []);
    assert.deepEqual(logs.shown, [[true]]);
    const bare = stand.reset();
    bare.answer = 'Check';
    runner.reportError(
      { log: channel() as never },
      new ApiError('unknownOutcome', 'Unknown.', {
        check: { hint: 'h', command: 'dashboardPlatform.refresh' },
      }),
    );
    await settle();
    assert.deepEqual(bare.commands, [{ id: 'dashboardPlatform.refresh', args: [] }]);
    // Without a check command only the log is offered.
    const s2 = stand.reset();
    s2.answer = 'Check';
    runner.reportError({ log: channel() as never }, new ApiError('unknownOutcome', 'Unknown.'), 'Publish');
    await settle();
    assert.deepEqual(s2.errors[0]!.actions, ['Show Logs']);
    assert.deepEqual(s2.commands, []);
    // A check on another kind of error is not offered.
    const s3 = stand.reset();
    runner.reportError(
      { log: channel() as never },
      new ApiError('server', 'Failed.', { check: { hint: 'x', command: 'x' } }),
    );
    await settle();
    assert.deepEqual(s3.errors[0]!.actions, ['Show Logs']);
  });

  it('a cancellation (by class, by name, or an ApiError of kind cancelled) is only a debug line', async () => {
    const named = (name: string) => Object.assign(new Error('x'), { name });
    const cancels: unknown[] = [
      new log.UserCancelled(),
      new ApiError('cancelled', 'Cancelled.'),
      named('UserCancelled'),
      named('AbortError'),
      named('Canceled'),
      named('CancellationError'),
    ];
    for (const e of cancels) {
      const s = stand.reset();
      const inner = channel();
      runner.reportError({ log: inner as never }, e, 'Sync');
      await settle();
      assert.deepEqual(s.errors, [], String((e as Error).name));
      assert.deepEqual(inner.lines, ['debug Sync cancelled']);
    }
    for (const e of [named('TypeError'), new ApiError('server', 'x'), 'Cancelled', undefined])
      assert.equal(log.isCancellation(e), false, String(e));
  });

  it('errorMessage: an ApiError as is, an Error by message (else name), anything else as text, redacted', () => {
    assert.equal(log.errorMessage(new ApiError('server', 'Server said no.')), 'Server said no.');
    assert.equal(log.errorMessage(new Error(`bad ${SECRET}`)), 'bad [REDACTED]');
    assert.equal(log.errorMessage(Object.assign(new Error(''), { name: 'RangeError' })), 'RangeError');
    assert.equal(log.errorMessage(`plain ${SECRET}`), 'plain [REDACTED]');
    assert.equal(log.errorMessage(404), '404');
  });

  it('registerCommand runs the handler with its arguments through the same catch, titled by the command', async () => {
    const s = stand.reset();
    const inner = channel();
    const seen: unknown[][] = [];
    runner.registerCommand(
      { log: inner as never },
      { id: 'dp.test', title: 'Test Things' } as never,
      ((...a: unknown[]) => {
        seen.push(a);
        if (a[0] === 'fail') throw new Error('broken');
        return 'ok';
      }) as never,
    );
    const fn = (
      s as unknown as { registered: Map<string, (...a: unknown[]) => Promise<unknown>> }
    ).registered.get('dp.test')!;
    assert.equal(await fn('a', 1), 'ok');
    assert.equal(await fn('fail'), undefined);
    await settle();
    assert.deepEqual(seen, [['a', 1], ['fail']]);
    assert.equal(inner.lines[0], 'error Test Things failed: broken');
    assert.deepEqual(s.errors[0]!.message, 'broken');
  });
});

describe('core: the log redacts every line before the channel', () => {
  const stand = useCoreStandIn();
  let log: typeof LogModule;
  before(() => {
    log = stand.load('../../../src/log');
  });
  beforeEach(() => forgetSecrets());
  after(() => forgetSecrets());

  it('every level, append, appendLine and replace redact; arguments are described and redacted too', () => {
    const inner = channel();
    const known = new log.KnownSecrets();
    const l = log.createRedactingLog(inner as never, known);
    l.addSecret(SECRET);
    assert.ok(known.list().includes(SECRET));
    const circular: Record<string, unknown> = { a: 1 };
    circular['self'] = circular;
    l.trace(`t ${SECRET}`);
    l.debug(`d ${SECRET}`, { token: SECRET });
    l.info(`i ${SECRET}`, `s ${SECRET}`);
    l.warn(`w ${SECRET}`, 5);
    l.error(Object.assign(new Error(`e ${SECRET}`), { requestId: 'req-1' }), circular);
    l.error(new TypeError('plain'));
    l.append(`a ${SECRET}`);
    l.appendLine(`l ${SECRET}`);
    l.replace(`r ${SECRET}`);
    l.clear();
    l.hide();
    l.show(true);
    l.show(2 as never, false);
    l.show();
    l.dispose();
    assert.deepEqual(inner.lines, [
      'trace t [REDACTED]',
      'debug d [REDACTED] {"token":"[REDACTED]"}',
      'info i [REDACTED] s [REDACTED]',
      'warn w [REDACTED] 5',
      'error Error: e [REDACTED] (request id req-1) [object Object]',
      'error TypeError: plain',
      'append a [REDACTED]',
      'appendLine l [REDACTED]',
      'replace r [REDACTED]',
      'clear',
      'hide',
      'dispose',
    ]);
    assert.deepEqual(inner.shown, [[true], [2, false], [undefined]]);
    assert.equal(l.redact(`x ${SECRET}`), 'x [REDACTED]');
    assert.equal(log.redactText(`y ${SECRET}`), 'y [REDACTED]');
    assert.equal(l.logLevel, 2);
    assert.equal(l.onDidChangeLogLevel, 'event');
    known.delete(SECRET);
    assert.ok(!known.list().includes(SECRET));
    assert.equal(l.redact(`x ${SECRET}`), `x ${SECRET}`);
  });

  it('apiLogger passes each level to the same level of the log', () => {
    const inner = channel();
    const a = log.apiLogger(inner as never);
    a.trace?.('1');
    a.debug('2');
    a.info('3');
    a.warn('4');
    a.error('5');
    assert.deepEqual(inner.lines, ['trace 1', 'debug 2', 'info 3', 'warn 4', 'error 5']);
  });
});
