// User attribute values as typed: each type's text becomes the value the published input allows,
// or a message saying what is wrong (the input box shows it while typing).
import * as assert from 'node:assert/strict';
import { attributeValueText, parseAttributeValue } from '../../../src/api/platform/admin/attributes';

describe('api/admin attributes: typed values', () => {
  it('reads numbers, refusing what is not a finite number', () => {
    assert.deepEqual(parseAttributeValue('number', ' 12.5 '), { value: 12.5 });
    assert.deepEqual(parseAttributeValue('number', '-3'), { value: -3 });
    for (const bad of ['', 'twelve', '1e999', 'NaN', '12,5'])
      assert.ok('error' in parseAttributeValue('number', bad), `"${bad}" refused`);
  });

  it('takes booleans only as the picked true / false', () => {
    assert.deepEqual(parseAttributeValue('boolean', 'true'), { value: true });
    assert.deepEqual(parseAttributeValue('boolean', 'false'), { value: false });
    assert.ok('error' in parseAttributeValue('boolean', 'yes'));
  });

  it('splits arrays on commas; a number array names the part that is not a number', () => {
    assert.deepEqual(parseAttributeValue('string_array', 'a, b ,,c'), { value: ['a', 'b', 'c'] });
    assert.deepEqual(parseAttributeValue('number_array', '1, 2.5'), { value: [1, 2.5] });
    const bad = parseAttributeValue('number_array', '1, two');
    assert.ok('error' in bad && /"two"/.test(bad.error));
  });

  it('keeps strings (and unknown types) as typed, and shows values as one line', () => {
    assert.deepEqual(parseAttributeValue('string', ' US '), { value: ' US ' });
    assert.deepEqual(parseAttributeValue('json', '{"a":1}'), { value: '{"a":1}' });
    assert.equal(attributeValueText(['a', 'b']), 'a, b');
    assert.equal(attributeValueText(false), 'false');
    assert.equal(attributeValueText(null), undefined);
  });
});
