// The contract suite is generated from the operation tables: every declared row (src/api/platform/**)
// is a case of rows.contract.test.ts (through its client path against a stub of its published
// operation) and of rows.sandbox.test.ts (against the sandbox through the validating proxy) the
// moment it is declared. This checks the generation leaves no row out: a case per row, each with
// inputs synthesized from its schemas (the fullest and the least). The hand-kept cases
// (*Operations.ts, *Calls.ts, *Cases.ts) stay as extra semantic checks; a row needs none of its own.
import * as assert from 'node:assert/strict';
import '../../../src/api';
import { declaredOperations } from '../../../src/api/platform/operation';
import { inputsOf, rowCases } from './rowCases';

describe('contract cases cover the operation tables', () => {
  it('every table row is a generated contract case, with inputs made from its schemas', () => {
    const rows = declaredOperations().map(({ name }) => name);
    assert.ok(rows.length >= 100, `${rows.length} rows`);
    const cases = rowCases();
    assert.deepEqual(
      cases.map((c) => c.name),
      rows,
      'a generated case per declared row',
    );
    let n = 0;
    const unmade = cases
      .flatMap((c) =>
        [true, false].map((fullest) => ({
          c,
          fullest,
          inputs: inputsOf(c.op, { live: {}, fresh: () => ++n, fullest }),
        })),
      )
      .filter(({ inputs }) => inputs === undefined)
      .map(({ c, fullest }) => `${c.name} (${c.operation}): no ${fullest ? 'fullest' : 'least'} input`);
    assert.deepEqual(unmade, [], 'rows whose schemas no synthesized input satisfies');
  });
});
