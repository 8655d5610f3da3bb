// The rules a profile from settings goes through before any request or secret: the exact sentence
// for each refused entry, URL rules, the Data API URL derived from the platform URL, environment
// variable names, the AI session identity, and the origins a secret is bound to.
import * as assert from 'node:assert/strict';
import {
  dataApiUrlOf,
  defaultExternalId,
  effectiveColor,
  envVarNames,
  jwtExpiry,
  sessionIdentityOf,
  toSettingsValue,
  type Profile,
} from '../../src/profiles/profileModel';
import { parseProfiles } from '../../src/profiles/profileParse';
import { normalizeUrl, validateAgentUrl, validateUrl } from '../../src/profiles/profileRules';
import { ProfileSchema } from '../../src/profiles/profileSchema';
import {
  bindingOrigins,
  hostOf,
  originOf,
  scopedProfiles,
  targetOrigin,
  trustKey,
} from '../../src/profiles/secretBinding';

const URL_OK = 'https://acme.example.com/api';
const AGENT = 'https://ai.example.com/api/v1/public/acme/agents/1';

/** The one problem parseProfiles reports for a single entry. */
function problemOf(entry: Record<string, unknown> | unknown): string {
  const r = parseProfiles([entry]);
  assert.equal(r.profiles.length, 0, JSON.stringify(entry));
  assert.equal(r.problems.length, 1);
  return r.problems[0]!;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('profiles: the rules of a profile, exactly', () => {
  describe('parseProfiles', () => {
    it('names the field and the rule of each refused entry', () => {
      assert.equal(
        problemOf({ name: '  ', platformUrl: URL_OK }),
        'Profile "  " is ignored: name: needs a name',
      );
      assert.equal(
        problemOf({ name: 'P', platformUrl: URL_OK, agents: [{ label: ' ', url: AGENT }] }),
        'Profile "P" is ignored: agents.0.label: needs a label',
      );
      assert.equal(
        problemOf({ name: 'P', platformUrl: '' }),
        'Profile "P" is ignored: platformUrl: Enter the platform URL.',
      );
      assert.equal(
        problemOf({ name: 'P', platformUrl: URL_OK, dataApiUrl: ' ' }),
        'Profile "P" is ignored: dataApiUrl: Enter the Data API URL.',
      );
      assert.equal(
        problemOf({ name: 'P', platformUrl: URL_OK, defaultDeploymentId: Infinity }),
        'Profile "P" is ignored: defaultDeploymentId: expected a number, got number',
      );
      assert.equal(
        problemOf({ name: 'P', platformUrl: URL_OK, defaultDeploymentId: 0 }),
        'Profile "P" is ignored: defaultDeploymentId: expected a positive number',
      );
      assert.equal(
        problemOf({ name: 'P', platformUrl: URL_OK, session: 'me' }),
        'Profile "P" is ignored: session: expected an object, got string',
      );
      assert.equal(problemOf(null), 'Profile #1 is ignored: (entry): expected an object, got null');
      assert.equal(problemOf('P'), 'Profile #1 is ignored: (entry): expected an object, got string');
    });

    it('no setting is no profile and no problem; a setting that is not a list says so', () => {
      assert.deepEqual(parseProfiles(null), { profiles: [], problems: [] });
      assert.deepEqual(parseProfiles(undefined), { profiles: [], problems: [] });
      assert.deepEqual(parseProfiles({ name: 'P' }), {
        profiles: [],
        problems: ['dashboardPlatform.profiles must be an array of profiles.'],
      });
    });

    it('names compare as lower case: "ß" and "SS" are two profiles, "Prod" and "prod" one', () => {
      const r = parseProfiles([
        { name: 'ß', platformUrl: URL_OK },
        { name: 'SS', platformUrl: URL_OK },
        { name: 'Prod', platformUrl: URL_OK },
        { name: 'prod', platformUrl: URL_OK },
      ]);
      assert.deepEqual(
        r.profiles.map((p) => p.name),
        ['ß', 'SS', 'Prod'],
      );
      assert.deepEqual(r.problems, ['Profile "prod" is ignored: another profile has the same name.']);
    });
  });

  describe('URL rules', () => {
    it('says what is missing or wrong, naming the field', () => {
      assert.equal(validateUrl(''), 'Enter the URL.');
      assert.equal(validateUrl('   ', 'platform URL'), 'Enter the platform URL.');
      assert.equal(
        validateUrl('  not a url  '),
        '"not a url" is not a valid URL. Enter a full URL such as https://example.com/api.',
      );
      assert.equal(
        validateUrl('https://user@acme.example.com/api', 'platform URL'),
        'Do not put credentials in the platform URL; tokens are stored separately.',
      );
      assert.equal(
        validateUrl('https://:pw@acme.example.com/api'),
        'Do not put credentials in the URL; tokens are stored separately.',
      );
      assert.equal(validateAgentUrl(''), 'Enter the AI agent URL.');
      assert.equal(validateUrl(` ${URL_OK} `), undefined);
    });

    it('normalises by trimming and dropping every trailing slash', () => {
      assert.equal(normalizeUrl('  https://acme.example.com/api//  '), 'https://acme.example.com/api');
    });

    it('the zod schema gives the same sentence for a refused URL', () => {
      const r = ProfileSchema.safeParse({ name: 'P', platformUrl: 'http://evil.example.com/api' });
      assert.equal(r.success, false);
      assert.equal(r.error!.issues[0]!.code, 'custom');
      assert.equal(r.error!.issues[0]!.message, validateUrl('http://evil.example.com/api', 'platform URL'));
    });
  });

  describe('profile model', () => {
    it('writes back no undefined field; the colour defaults from production', () => {
      const p = { name: 'P', platformUrl: URL_OK, agents: [], dataApiUrl: undefined } as Profile;
      assert.deepEqual(Object.keys(toSettingsValue(p)), ['name', 'platformUrl', 'agents']);
      assert.equal(effectiveColor({}), 'none');
      assert.equal(effectiveColor({ production: true }), 'error');
    });

    it('derives the Data API URL by replacing only a trailing /api', () => {
      assert.equal(
        dataApiUrlOf({ platformUrl: 'https://h.example.com/api/tenant/api' }),
        'https://h.example.com/api/tenant/cubejs-api',
      );
    });

    it('a name without letters or digits has no profile-specific variable', () => {
      assert.deepEqual(envVarNames('platformToken', '!!!', true), ['DASHBOARD_PLATFORM_TOKEN']);
      assert.deepEqual(envVarNames('aiApiKey', 'My Prod (EU)', false), [
        'DASHBOARD_PLATFORM_AI_API_KEY_MY_PROD_EU',
      ]);
    });

    it('reads a JWT expiry only when it is a number', () => {
      assert.equal(jwtExpiry(`h.${b64({ exp: 1700000000 })}.s`), 1_700_000_000_000);
      assert.equal(jwtExpiry(`h.${b64({ exp: '1700000000' })}.s`), undefined);
    });

    it('the default external id is lowercase words joined by single dashes, without empty parts', () => {
      assert.equal(defaultExternalId('.Jane  Doe.', 'AB-CD-12'), 'vscode-jane-doe-abcd12');
      assert.equal(defaultExternalId('Jane', '---'), 'vscode-jane');
    });

    it('the AI session identity: internalId before externalId, an empty one skipped, email trimmed', () => {
      assert.deepEqual(sessionIdentityOf(undefined, 'fb'), { externalId: 'fb' });
      assert.deepEqual(sessionIdentityOf({ name: 'P', session: { email: '  ' } }, 'fb'), {
        externalId: 'fb',
      });
      assert.deepEqual(
        sessionIdentityOf(
          { name: 'P', session: { internalId: '', externalId: 'x', email: ' a@b.c ' } },
          'fb',
        ),
        { externalId: 'x', email: 'a@b.c' },
      );
      assert.throws(
        () => sessionIdentityOf({ name: 'P', session: { internalId: ' x' } }, 'fb'),
        (e: Error) =>
          e.message ===
          'The internalId may not start or end with spaces. Fix the AI session identity of profile "P" (setting dashboardPlatform.profiles → session.internalId, or "Dashboard Platform: Edit Profile…").',
      );
    });
  });

  describe('secret binding', () => {
    it('an origin only from a URL that has one; a host read from an origin, else the text as it is', () => {
      assert.equal(originOf('file:///etc/passwd'), undefined);
      assert.equal(hostOf('https://acme.example.com:8443'), 'acme.example.com:8443');
      assert.equal(hostOf('not a url'), 'not a url');
    });

    it('a Data API token has no origin when the platform URL is unreadable, whatever the agents', () => {
      const p = { platformUrl: 'nope', agents: [{ label: 'A', url: AGENT }] };
      assert.equal(targetOrigin(p, 'dataApiToken'), undefined);
      assert.deepEqual(bindingOrigins(p, 'platformToken'), []);
    });

    it('an AI API key without agents goes to the platform host; unreadable agent URLs are left out', () => {
      const none = { platformUrl: URL_OK, agents: [] };
      assert.equal(targetOrigin(none, 'aiApiKey'), 'https://acme.example.com');
      assert.deepEqual(bindingOrigins(none, 'aiApiKey'), ['https://acme.example.com']);
      const some = {
        platformUrl: URL_OK,
        agents: [
          { label: 'X', url: 'nope' },
          { label: 'A', url: AGENT },
        ],
      };
      assert.deepEqual(bindingOrigins(some, 'aiApiKey'), ['https://ai.example.com']);
    });

    it('without settings there are no profiles; the workspace is ignored when not allowed', () => {
      assert.deepEqual(scopedProfiles(undefined, true), {
        profiles: [],
        workspaceNames: new Set(),
        shadowed: new Map(),
        problems: [],
      });
      const r = scopedProfiles(
        { globalValue: [{ name: 'P', platformUrl: URL_OK }], workspaceValue: [{}] },
        false,
      );
      assert.deepEqual(
        r.profiles.map((p) => p.name),
        ['P'],
      );
      assert.deepEqual(r.problems, []);
    });

    it('a trust key is workspace, lower-case profile name and origin', () => {
      assert.equal(
        trustKey('file:///repo', 'Prod', 'https://a.example.com'),
        'file:///repo|prod|https://a.example.com',
      );
    });
  });
});
