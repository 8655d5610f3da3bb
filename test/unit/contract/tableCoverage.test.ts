// The contract suite reads the operation tables: every declared row (src/api/platform/*) must have
// a contract case calling its published operation, so a row added without one fails here rather
// than going unchecked against the documents.
import * as assert from 'node:assert/strict';
import '../../../src/api';
import { declaredOperations } from '../../../src/api/platform/operation';
import { BUILD_OPERATIONS } from './buildOperations';
import { CLIENT_OPERATIONS } from './clientOperations';

describe('contract cases cover the operation tables', () => {
  it('every table row has a contract case for its published operation', () => {
    const cased = new Set([...CLIENT_OPERATIONS, ...BUILD_OPERATIONS].map((c) => c.operation));
    const missing = declaredOperations()
      .map(({ name, op }) => ({
        name,
        key: `${op.method} ${/^\/(scim|build)\//.test(op.path) ? '' : '/api'}${op.path}`,
      }))
      .filter(({ key }) => !cased.has(key))
      .map(({ name, key }) => `${name} (${key})`);
    assert.deepEqual(missing, [], 'rows without a contract case');
  });
});
