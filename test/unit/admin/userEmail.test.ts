// The Create User box refuses exactly what the create-user row refuses, so a user is told at the
// first step, in a sentence, rather than by the call after the next step with the schema's words.
import * as assert from 'node:assert/strict';
import { CreateUserInputSchema, emailProblem } from '../../../src/api/platform/admin/users';

describe('Create User: the e-mail box follows the row', () => {
  const refusedByRow = ['a@b.c', 'x@1.2.3.4', 'a..b@example.com', 'no-at-sign', '', '   '];
  const acceptedByRow = ['new.person@example.com', '  padded@example.org  ', 'a+tag@sub.example.co'];

  it('refuses in the box what the row refuses, with a sentence saying what to type', () => {
    for (const typed of refusedByRow) {
      assert.equal(
        CreateUserInputSchema.shape.email.safeParse(typed.trim()).success,
        false,
        `the row refuses "${typed}"`,
      );
      assert.equal(emailProblem(typed), 'Enter an e-mail address, like name@example.com.', typed);
    }
  });

  it('lets through what the row accepts (trimmed, as it is sent)', () => {
    for (const typed of acceptedByRow) assert.equal(emailProblem(typed), undefined, typed);
  });
});
