// The zod-free parser of stored profiles (activation loads no zod) must read every entry exactly as
// ProfileSchema does: same verdict, same first problem's path, same output, on hand-picked and on
// random entries.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseProfileEntry } from '../../src/profiles/profileParse';
import { ProfileSchema } from '../../src/profiles/profileSchema';

function same(entry: unknown): void {
  const z = ProfileSchema.safeParse(entry);
  const ours = parseProfileEntry(entry);
  const shown = JSON.stringify(entry);
  assert.equal(ours.ok, z.success, `verdict for ${shown}: ${ours.ok ? 'ok' : JSON.stringify(ours.issue)}`);
  if (z.success && ours.ok) assert.deepEqual(ours.value, z.data, `output for ${shown}`);
  if (!z.success && !ours.ok) assert.deepEqual(ours.issue.path, z.error.issues[0]!.path, `path for ${shown}`);
}

const url = fc.constantFrom(
  'https://acme.example.com/api/',
  ' https://acme.example.com/api ',
  'http://127.0.0.1:4000/api',
  'http://acme.example.com/api',
  'ftp://x.example.com',
  'https://u:p@x.example.com',
  'not a url',
  '',
  'https://ai.example.com/api/v1/public/acme/agents/42',
  'https://ai.example.com/api/v1/agents/42',
);
const anyValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.boolean(),
  fc.string(),
  fc.double(),
);
// Mostly valid fields with an occasional bad one, so that every field's rules are reached.
const mostly = <T, U>(valid: fc.Arbitrary<T>, other: fc.Arbitrary<U>) =>
  fc.oneof({ arbitrary: valid, weight: 5 }, { arbitrary: other, weight: 1 });
const agent = mostly(
  fc.record(
    {
      label: mostly(fc.constant(' Sales '), fc.oneof(fc.string(), fc.constant('  '), anyValue)),
      url: mostly(
        fc.constant('https://ai.example.com/api/v1/public/acme/agents/42'),
        fc.oneof(url, anyValue),
      ),
    },
    { requiredKeys: [] },
  ),
  anyValue,
);
const goodUrl = fc.constantFrom(
  'https://acme.example.com/api/',
  ' https://acme.example.com/api ',
  'http://127.0.0.1:4000/api',
);
const entry = fc.record(
  {
    name: mostly(
      fc.constantFrom('Prod', ' Prod EU '),
      fc.oneof(fc.constantFrom('sandbox', ' SANDBOX', '', '   ', 'x'.repeat(64), 'x'.repeat(65)), anyValue),
    ),
    platformUrl: mostly(goodUrl, fc.oneof(url, anyValue)),
    dataApiUrl: mostly(fc.oneof(goodUrl, fc.constant(undefined)), fc.oneof(url, anyValue)),
    agents: mostly(fc.array(agent, { maxLength: 3 }), anyValue),
    defaultDeploymentId: mostly(
      fc.constantFrom(1, 7, undefined),
      fc.oneof(fc.constantFrom(0, -3, 1.5, NaN, Infinity, 2 ** 60), anyValue),
    ),
    production: mostly(fc.constantFrom(true, false, undefined), anyValue),
    environment: mostly(
      fc.constantFrom(' prod ', undefined, ' ' + 'y'.repeat(32) + ' '),
      fc.oneof(fc.constantFrom('x'.repeat(33)), anyValue),
    ),
    color: mostly(
      fc.constantFrom('none', 'warning', 'error', undefined),
      fc.oneof(fc.constant('red'), anyValue),
    ),
    session: mostly(
      fc.record(
        {
          externalId: fc.oneof(fc.string(), anyValue),
          internalId: anyValue,
          email: anyValue,
          extra: anyValue,
        },
        { requiredKeys: [] },
      ),
      anyValue,
    ),
    extra: anyValue,
  },
  { requiredKeys: [] },
);

describe('parseProfileEntry (zod-free) reads profiles as ProfileSchema does', () => {
  it('on hand-picked entries', () => {
    const good = {
      name: ' Prod EU ',
      platformUrl: 'https://acme.example.com/api/',
      dataApiUrl: 'https://acme.example.com/cubejs-api',
      agents: [{ label: ' Sales ', url: 'https://ai.example.com/api/v1/public/acme/agents/42/', x: 1 }],
      defaultDeploymentId: 7,
      production: true,
      environment: ' prod ',
      color: 'warning',
      session: { externalId: 'u1', email: 'u1@example.com', extra: true },
      unknownField: { kept: 1 },
    };
    const r = parseProfileEntry(good);
    assert.ok(r.ok);
    assert.equal(r.value.name, 'Prod EU');
    assert.equal(r.value.platformUrl, 'https://acme.example.com/api');
    assert.equal(r.value.agents[0]!.label, 'Sales');
    assert.deepEqual((r.value as Record<string, unknown>).unknownField, { kept: 1 });
    for (const e of [
      good,
      { name: 'A', platformUrl: 'https://a.example.com' },
      { name: 'A' },
      {},
      null,
      [],
      'text',
      { name: 'A', platformUrl: 'https://a.example.com', agents: null },
      { name: 'A', platformUrl: 'https://a.example.com', agents: [{ label: 'x', url: 'https://x/y' }] },
      { name: 'A', platformUrl: 'https://a.example.com', defaultDeploymentId: 1.5 },
      { name: 'A', platformUrl: 'https://a.example.com', session: null },
      { name: 'Sandbox', platformUrl: 'https://a.example.com' },
    ])
      same(e);
  });

  it('on 3,000 random entries', () => {
    fc.assert(
      fc.property(entry, (e) => same(e)),
      { numRuns: 3000 },
    );
  });
});
