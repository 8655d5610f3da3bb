// A mocha reporter for `npm test` (scripts/test-all.mjs): the usual spec output, plus a JSON summary
// (--reporter-option summary=FILE) that counts skipped (pending) tests and says why each skipped
// suite skipped. A suite that skips itself prints one line `skipped: <why>` before this.skip()
// (test/contract/openapiDocs.ts does); the reporter ties that line to the suite printing it.
/* eslint-disable @typescript-eslint/no-require-imports, no-undef -- a CommonJS mocha reporter */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

const {
  EVENT_SUITE_BEGIN,
  EVENT_SUITE_END,
  EVENT_TEST_PASS,
  EVENT_TEST_FAIL,
  EVENT_TEST_PENDING,
  EVENT_RUN_END,
} = Mocha.Runner.constants;

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const file = options?.reporterOption?.summary;
    const stack = [];
    const reasons = new Map(); // suite -> why it skipped
    const summary = { passed: 0, failed: 0, pending: 0, skipped: [] };
    const groups = new Map(); // reason -> { reason, tests, suites:Set }

    // The `skipped: <why>` lines suites print go through stdout: note them for the running suite.
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (chunk, ...rest) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      for (const m of text.matchAll(/^\s*skipped: (.+)$/gm)) {
        const suite = stack.at(-1);
        if (suite && !reasons.has(suite)) reasons.set(suite, m[1].trim());
      }
      return write(chunk, ...rest);
    };

    runner.on(EVENT_SUITE_BEGIN, (s) => stack.push(s));
    runner.on(EVENT_SUITE_END, () => stack.pop());
    runner.on(EVENT_TEST_PASS, () => summary.passed++);
    runner.on(EVENT_TEST_FAIL, () => summary.failed++);
    runner.on(EVENT_TEST_PENDING, (test) => {
      summary.pending++;
      let reason;
      for (let s = test.parent; s && !reason; s = s.parent) reason = reasons.get(s);
      // Without a printed reason: it.skip / xit, or a skip that did not say why.
      reason ??= 'marked as skipped (it.skip / this.skip() without a reason)';
      let g = groups.get(reason);
      if (!g) groups.set(reason, (g = { reason, tests: 0, suites: new Set() }));
      g.tests++;
      let top = test.parent;
      while (top?.parent && !top.parent.root) top = top.parent;
      g.suites.add(top?.title || test.fullTitle());
    });
    runner.once(EVENT_RUN_END, () => {
      process.stdout.write = write;
      if (!file) return;
      summary.skipped = [...groups.values()].map((g) => ({ ...g, suites: [...g.suites] }));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(summary, null, 2));
    });
  }
}

module.exports = SummaryReporter;
