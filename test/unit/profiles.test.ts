// Pure parts of connection profiles: parsing settings with zod, URL rules, env var names.
import assert from 'node:assert/strict';
import {
  dataApiUrlOf,
  defaultExternalId,
  jwtExpiry,
  effectiveColor,
  envSuffix,
  envVarNames,
  secretFromEnv,
  secretKey,
  sessionIdProblem,
  sessionIdentityOf,
  toSettingsValue,
  validateAgentUrl,
  validateUrl,
} from '../../src/profiles/profileModel';
import { parseProfiles } from '../../src/profiles/profileParse';

import { sandboxInfoLines, sandboxProfile } from '../../src/profiles/sandboxProfile';

const good = {
  name: 'Prod EU',
  platformUrl: 'https://acme.example.com/api/',
  dataApiUrl: 'https://acme.example.com/cubejs-api',
  agents: [{ label: 'Sales', url: 'https://ai.example.com/api/v1/public/acme/agents/42' }],
  defaultDeploymentId: 7,
  production: true,
  session: { externalId: 'u1', email: 'u1@example.com' },
};

describe('profile URLs', () => {
  it('accepts https and loopback http', () => {
    for (const u of [
      'https://acme.example.com/api',
      'http://localhost:4000/api',
      'http://127.0.0.1:1234/api',
      'http://127.3.2.1/api',
      'http://[::1]:8080/api',
    ]) {
      assert.equal(validateUrl(u), undefined, u);
    }
  });

  it('refuses http:// for other hosts with a clear message', () => {
    const m = validateUrl('http://acme.example.com/api');
    assert.match(m ?? '', /http:\/\/ is refused for acme\.example\.com/);
    assert.match(m ?? '', /https:\/\//);
    assert.ok(validateUrl('http://128.0.0.1/api'));
    assert.ok(validateUrl('http://localhost.evil.com/api'));
  });

  it('refuses garbage, other schemes and credentials in URLs', () => {
    assert.match(validateUrl('not a url') ?? '', /not a valid URL/);
    assert.match(validateUrl('ftp://x.example.com') ?? '', /Unsupported scheme/);
    assert.match(validateUrl('https://user:pw@x.example.com/api') ?? '', /credentials/);
    assert.match(validateUrl('  ') ?? '', /Enter/);
  });

  it('checks the AI agent path', () => {
    assert.equal(validateAgentUrl('https://ai.example.com/api/v1/public/acme/agents/42'), undefined);
    assert.match(validateAgentUrl('https://ai.example.com/api/v1/agents/42') ?? '', /agents\/\{agentId\}/);
  });

  it('derives the Data API URL from the platform URL', () => {
    assert.equal(
      dataApiUrlOf({ platformUrl: 'https://acme.example.com/api' }),
      'https://acme.example.com/cubejs-api',
    );
    assert.equal(
      dataApiUrlOf({ platformUrl: 'https://x/api', dataApiUrl: 'https://d/cubejs-api' }),
      'https://d/cubejs-api',
    );
  });
});

describe('parseProfiles', () => {
  it('parses and normalises a full profile, keeping unknown fields', () => {
    const { profiles, problems } = parseProfiles([{ ...good, extra: 1 }]);
    assert.deepEqual(problems, []);
    const p = profiles[0];
    assert.ok(p);
    assert.equal(p.platformUrl, 'https://acme.example.com/api');
    assert.equal(p.agents[0]?.label, 'Sales');
    assert.equal((p as Record<string, unknown>).extra, 1);
    assert.equal(effectiveColor(p), 'error');
  });

  it('skips bad entries with a sentence naming the profile and field', () => {
    const { profiles, problems } = parseProfiles([
      good,
      { name: 'Insecure', platformUrl: 'http://acme.example.com/api' },
      { platformUrl: 'https://x.example.com/api' },
      {
        name: 'Agentless',
        platformUrl: 'https://x.example.com/api',
        agents: [{ label: 'a', url: 'https://x/y' }],
      },
      { ...good, name: 'prod eu' },
      { name: 'sandbox', platformUrl: 'https://x.example.com/api' },
    ]);
    assert.deepEqual(
      profiles.map((p) => p.name),
      ['Prod EU'],
    );
    assert.equal(problems.length, 5);
    assert.match(problems[0] ?? '', /"Insecure".*platformUrl.*http:\/\/ is refused/);
    assert.match(problems[1] ?? '', /#3.*name/);
    assert.match(problems[2] ?? '', /"Agentless".*agents\.0\.url/);
    assert.match(problems[3] ?? '', /same name/);
    assert.match(problems[4] ?? '', /built-in/);
  });

  it('drops and reports secrets pasted into settings', () => {
    const { profiles, problems } = parseProfiles([{ ...good, token: 'pasted-1x', aiApiKey: 'pasted-2y' }]);
    assert.equal(profiles.length, 1);
    assert.doesNotMatch(JSON.stringify(profiles[0]), /pasted-/);
    assert.match(problems[0] ?? '', /token, aiApiKey ignored/);
  });

  it('treats a missing setting as no profiles and a non-array as a problem', () => {
    assert.deepEqual(parseProfiles(undefined), { profiles: [], problems: [] });
    assert.equal(parseProfiles({}).problems.length, 1);
  });

  it('writes back only non-secret fields', () => {
    const { profiles } = parseProfiles([good]);
    const value = toSettingsValue(profiles[0]!);
    assert.doesNotMatch(JSON.stringify(value), /token|apiKey/i);
    assert.equal(value.dataApiUrl, 'https://acme.example.com/cubejs-api');
  });
});

describe('environment variables', () => {
  it('maps profile names to UPPER_SNAKE suffixes', () => {
    assert.equal(envSuffix('Prod EU'), 'PROD_EU');
    assert.equal(envSuffix('my-tenant (staging)'), 'MY_TENANT_STAGING');
    assert.equal(envSuffix('Café 2'), 'CAFE_2');
  });

  it('uses the per-profile variable first, the generic one only for the active profile', () => {
    assert.deepEqual(envVarNames('platformToken', 'Prod EU', true), [
      'DASHBOARD_PLATFORM_TOKEN_PROD_EU',
      'DASHBOARD_PLATFORM_TOKEN',
    ]);
    assert.deepEqual(envVarNames('aiApiKey', 'Prod EU', false), ['DASHBOARD_PLATFORM_AI_API_KEY_PROD_EU']);
    const env = {
      DASHBOARD_PLATFORM_TOKEN: 'generic',
      DASHBOARD_PLATFORM_DATA_API_TOKEN_PROD_EU: 'specific ',
    };
    assert.deepEqual(secretFromEnv('platformToken', 'Prod EU', true, env), {
      value: 'generic',
      variable: 'DASHBOARD_PLATFORM_TOKEN',
    });
    assert.equal(secretFromEnv('platformToken', 'Prod EU', false, env), undefined);
    assert.equal(secretFromEnv('dataApiToken', 'Prod EU', false, env)?.value, 'specific');
  });

  it('keys secrets per profile and kind', () => {
    assert.notEqual(secretKey('a', 'platformToken'), secretKey('b', 'platformToken'));
    assert.notEqual(secretKey('a', 'platformToken'), secretKey('a', 'aiApiKey'));
  });
});

describe('sandbox profile and tokens', () => {
  const handle = {
    port: 4321,
    urls: {
      platform: 'http://127.0.0.1:4321/api',
      dataApi: 'http://127.0.0.1:4321/cubejs-api',
      ai: [{ name: 'Analyst', url: 'http://127.0.0.1:4321/ai/api/v1/public/sandbox/agents/a1' }],
    },
    tokens: { admin: 'admin-secret', member: 'member-secret', dataApi: 'data-secret', aiApiKey: 'ai-secret' },
    close: async () => undefined,
  };

  it('describes the running sandbox without its tokens', () => {
    const p = sandboxProfile(handle);
    assert.equal(p.name, 'Sandbox');
    assert.equal(p.agents[0]?.url, handle.urls.ai[0]?.url);
    const lines = sandboxInfoLines(handle).join('\n');
    assert.match(lines, /__sandbox\/faults/);
    assert.doesNotMatch(lines, /secret/);
  });

  it('reads a JWT expiry', () => {
    const payload = Buffer.from(JSON.stringify({ exp: 2_000_000_000 })).toString('base64url');
    assert.equal(jwtExpiry(`eyJhbGciOiJIUzI1NiJ9.${payload}.sig`), 2_000_000_000_000);
    assert.equal(jwtExpiry('opaque'), undefined);
  });
});

describe('AI session identity', () => {
  it('defaults to a lowercase external id for this OS user and machine', () => {
    assert.equal(defaultExternalId('Jane Doe', 'ABCDEF0123456789ff'), 'vscode-jane-doe-abcdef012345');
    assert.equal(defaultExternalId('', 'm1'), 'vscode-user-m1');
    assert.equal(defaultExternalId('Ünïcode Üser', 'x'), 'vscode-unicode-user-x');
  });

  it('sends the internalId, else the externalId, else the default; names the setting when one breaks a rule', () => {
    const p = (session?: Record<string, string>) => ({ name: 'Prod', session });
    assert.deepEqual(sessionIdentityOf(p(), 'vscode-a-b'), { externalId: 'vscode-a-b' });
    assert.deepEqual(sessionIdentityOf(p({ externalId: 'ann', email: 'a@b.c' }), 'd'), {
      externalId: 'ann',
      email: 'a@b.c',
    });
    assert.deepEqual(sessionIdentityOf(p({ externalId: 'ann', internalId: 'Ann@Corp.com' }), 'd'), {
      internalId: 'Ann@Corp.com',
    });
    assert.throws(() => sessionIdentityOf(p({ externalId: 'Ann' }), 'd'), /lowercase.*session\.externalId/);
    assert.throws(() => sessionIdentityOf(p({ internalId: ' ann ' }), 'd'), /spaces.*session\.internalId/);
    assert.equal(sessionIdProblem('externalId', 'ann'), undefined);
    assert.equal(sessionIdProblem('internalId', 'Ann@corp.com'), undefined, 'usernames keep their case');
  });

  it('keeps the identity fields of a profile from settings', () => {
    const { profiles, problems } = parseProfiles([
      { name: 'P', platformUrl: 'https://t.example.com/api', session: { internalId: 'ann@corp.com' } },
    ]);
    assert.deepEqual(problems, []);
    assert.equal(profiles[0]!.session?.internalId, 'ann@corp.com');
    assert.equal(
      profiles[0]!.dataApiUrl,
      undefined,
      'no Data API URL: each deployment is queried on its own host',
    );
  });
});
