// The profile commands as a user runs them (src/profiles/profileCommands.ts): what is written to
// settings (save, switch, remove) and to SecretStorage (or kept for the session only), what is asked
// first, and that a cancelled or refused flow writes nothing. A `vscode` stand-in answers the
// pickers and modal messages; a profile service in memory records every write.
import assert from 'node:assert/strict';
import type * as CommandsModule from '../../src/profiles/profileCommands';
import type * as SecretsModule from '../../src/profiles/profileSecrets';
import type { Profile } from '../../src/profiles/profileModel';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import { ScriptedPrompter } from '../../src/ui/prompter';
import { FakeProfiles, memoryLog, useProfileStandIn } from './profileStandIn';

const EU: Profile = {
  name: 'Prod EU',
  platformUrl: 'https://eu.example.com/api',
  agents: [],
  production: true,
};
const DEV: Profile = {
  name: 'Dev',
  platformUrl: 'https://dev.example.com/api',
  agents: [],
  environment: 'staging',
};

const ID = (what: string) => `dashboardPlatform.profiles.${what}`;

describe('profile commands (add, edit, switch, remove, tokens)', () => {
  const standIn = useProfileStandIn();
  const { sink } = standIn;
  let commands: typeof CommandsModule;
  let SecretStorageUnavailableError: typeof SecretsModule.SecretStorageUnavailableError;
  const savedEnv: Record<string, string | undefined> = {};

  before(() => {
    commands = standIn.load<typeof CommandsModule>('../../src/profiles/profileCommands');
    ({ SecretStorageUnavailableError } = standIn.load<typeof SecretsModule>(
      '../../src/profiles/profileSecrets',
    ));
    // The interactive Add lists deployments and tests the connection with the token the profile
    // would read; none from this machine's environment.
    for (const k of Object.keys(process.env).filter((k) => k.startsWith('DASHBOARD_PLATFORM_'))) {
      savedEnv[k] = process.env[k];
      delete process.env[k];
    }
  });
  after(() => Object.assign(process.env, savedEnv));

  /** Registers the commands over `profiles`; `run(what, ...args)` runs one as VS Code would. */
  function setUp(profiles: FakeProfiles) {
    const { log, lines } = memoryLog();
    commands.registerProfileCommands({ profiles, log } as never);
    const run = (what: string, ...args: unknown[]) => {
      const fn = sink.registered.get(ID(what));
      assert.ok(fn, `command ${what} registered`);
      return fn(...args) as Promise<unknown>;
    };
    const errors = () => sink.shown.filter((s) => s.kind === 'error').map((s) => s.message);
    return { run, lines, errors };
  }

  describe('Add Profile', () => {
    it('from arguments: saves the normalised profile, stores the typed secrets and activates it', async () => {
      const profiles = new FakeProfiles([]);
      const { run, lines, errors } = setUp(profiles);
      const r = await run('add', {
        name: ' Analytics ',
        platformUrl: 'https://acme.example.com/api/',
        platformToken: ' tok-1 ',
        aiApiKey: '  ',
        extra: 'kept',
      });
      assert.deepEqual(errors(), []);
      assert.deepEqual(r, { name: 'Analytics', secrets: { platformToken: 'secretStorage' } });
      assert.deepEqual(profiles.writes, [
        [
          'save',
          { name: 'Analytics', platformUrl: 'https://acme.example.com/api', agents: [], extra: 'kept' },
        ],
        ['setSecret', 'Analytics', 'platformToken', 'tok-1', false],
        ['switchTo', 'Analytics'],
      ]);
      assert.ok(
        lines.includes('info: Added profile "Analytics" (https://acme.example.com/api)'),
        lines.join('\n'),
      );
      // Driven by arguments, it tells nothing on screen.
      assert.deepEqual(sink.shown, []);
    });

    it('from arguments with activate: false saves without switching', async () => {
      const profiles = new FakeProfiles([]);
      const { run } = setUp(profiles);
      await run('add', { name: 'B', platformUrl: 'https://b.example.com/api', activate: false });
      assert.deepEqual(
        profiles.writes.map((w) => w[0]),
        ['save'],
      );
    });

    it('refuses a taken name or an invalid field, saying why, and writes nothing', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [
          { name: 'prod eu', platformUrl: 'https://x.example.com/api' },
          'A profile named "prod eu" already exists.',
        ],
        [
          { name: 'X', platformUrl: 'http://x.example.com/api' },
          'Invalid profile: platformUrl: http:// is refused for x.example.com',
        ],
        [
          { name: 'Sandbox', platformUrl: 'https://x.example.com/api' },
          'Invalid profile: name: "Sandbox" is the built-in',
        ],
        [{ name: '  ', platformUrl: 'https://x.example.com/api' }, 'Invalid profile: name: needs a name'],
      ];
      for (const [args, said] of cases) {
        sink.shown.length = 0;
        const profiles = new FakeProfiles([{ ...EU }]);
        const { run, errors } = setUp(profiles);
        assert.equal(await run('add', args), undefined);
        assert.equal(errors().length, 1, JSON.stringify(args));
        assert.ok(errors()[0]!.startsWith(said), `${errors()[0]} / ${said}`);
        assert.deepEqual(profiles.writes, [], JSON.stringify(args));
      }
    });

    it('asks the five steps, shows the connection test, and saves and activates on Save', async () => {
      const profiles = new FakeProfiles([{ ...EU }]);
      const { run, errors } = setUp(profiles);
      const prompter = new ScriptedPrompter([
        '  ',
        'Sandbox',
        'Prod EU',
        '!!!',
        'Analytics',
        'https://acme.example.com/api',
        '',
        'No default deployment',
        '$(check) Test the connection and save',
      ]);
      sink.prompter = prompter;
      sink.answers = ['Save'];
      const r = await run('add');
      assert.deepEqual(errors(), []);
      assert.deepEqual(prompter.refusals, [
        'Enter a name.',
        '"Sandbox" is the built-in profile; choose another name.',
        'A profile with this name exists.',
        'Use at least one letter or digit.',
      ]);
      assert.deepEqual(r, { name: 'Analytics', secrets: {} });
      assert.deepEqual(profiles.writes, [
        ['save', { name: 'Analytics', platformUrl: 'https://acme.example.com/api', agents: [] }],
        ['switchTo', 'Analytics'],
      ]);
      const review = sink.shown.find((s) => s.kind === 'info' && s.options?.modal);
      assert.deepEqual(review && { ...review, detail: review.options?.detail?.split('\n')[0] }, {
        kind: 'info',
        message: 'Profile "Analytics": connected.',
        options: review?.options,
        buttons: ['Save', 'Edit'],
        detail: '– Platform API: not checked: no platform token given',
      });
      assert.deepEqual(
        sink.shown.filter((s) => !s.options?.modal).map((s) => s.message),
        ['Profile "Analytics" added and active.'],
      );
      assert.deepEqual(
        sink.progress.map((p) => p.title),
        ['Listing deployments…', 'Testing the connection…'],
      );
    });

    it('Edit goes back through the steps with what was typed; Cancel at the review saves nothing', async () => {
      const profiles = new FakeProfiles([]);
      const { run, errors } = setUp(profiles);
      const prompter = new ScriptedPrompter([
        'First',
        'https://acme.example.com/api',
        '',
        'No default deployment',
        '$(check) Test the connection and save',
        // Back in the form after Edit: the name changed, the rest kept.
        'Second',
        'https://acme.example.com/api',
        '',
        'No default deployment',
        '$(check) Test the connection and save',
      ]);
      sink.prompter = prompter;
      sink.answers = ['Edit', undefined];
      assert.equal(await run('add'), undefined);
      assert.deepEqual(errors(), []);
      assert.deepEqual(profiles.writes, []);
      assert.deepEqual(
        sink.shown.filter((s) => s.options?.modal).map((s) => s.message),
        ['Profile "First": connected.', 'Profile "Second": connected.'],
      );
    });

    it('a form dismissed at any step writes nothing and shows no error', async () => {
      const profiles = new FakeProfiles([]);
      const { run, errors } = setUp(profiles);
      sink.prompter = new ScriptedPrompter(['Half', undefined]);
      assert.equal(await run('add'), undefined);
      assert.deepEqual(errors(), []);
      assert.deepEqual(profiles.writes, []);
      assert.deepEqual(sink.shown, []);
    });
  });

  describe('when SecretStorage cannot store a secret', () => {
    const failing = () => {
      const profiles = new FakeProfiles([{ ...EU }]);
      profiles.secretFailure = new SecretStorageUnavailableError('no keyring');
      return profiles;
    };

    it('asks before keeping it for the session only, and keeps it only on that answer', async () => {
      for (const [answer, kept] of [
        ['Keep for This Session Only', true],
        [undefined, false],
      ] as const) {
        sink.shown.length = 0;
        const profiles = failing();
        const { run, errors, lines } = setUp(profiles);
        sink.answers = [answer];
        const r = await run('setToken', { profile: 'Prod EU', kind: 'dataApiToken', value: 'd-1' });
        const question = sink.shown.find((s) => s.kind === 'warning');
        assert.deepEqual(question, {
          kind: 'warning',
          message: profiles.secretFailure!.message,
          options: {
            modal: true,
            detail:
              'Or set the environment variable DASHBOARD_PLATFORM_DATA_API_TOKEN before starting VS Code.',
          },
          buttons: ['Keep for This Session Only'],
        });
        if (kept) {
          assert.equal(r, 'session');
          assert.deepEqual(profiles.writes, [['setSessionSecret', 'Prod EU', 'dataApiToken', 'd-1']]);
          assert.ok(
            lines.includes('warn: The Data API token of "Prod EU" is kept in memory for this session only.'),
          );
          assert.deepEqual(errors(), []);
        } else {
          assert.equal(r, undefined);
          assert.deepEqual(profiles.writes, []);
          assert.deepEqual(errors(), [profiles.secretFailure!.message]);
        }
      }
    });

    it('asks once for several secrets; sessionFallback answers without asking', async () => {
      const profiles = failing();
      const { run } = setUp(profiles);
      sink.answers = ['Keep for This Session Only'];
      const r = await run('add', {
        name: 'New',
        platformUrl: 'https://n.example.com/api',
        platformToken: 'p',
        aiApiKey: 'k',
        activate: false,
      });
      assert.deepEqual(r, { name: 'New', secrets: { platformToken: 'session', aiApiKey: 'session' } });
      assert.equal(sink.shown.filter((s) => s.kind === 'warning').length, 1);

      sink.shown.length = 0;
      const quiet = failing();
      const q = setUp(quiet);
      assert.equal(
        await q.run('setToken', {
          kind: 'platformToken',
          profile: 'Prod EU',
          value: 'p',
          sessionFallback: true,
        }),
        'session',
      );
      assert.deepEqual(quiet.writes, [['setSessionSecret', 'Prod EU', 'platformToken', 'p']]);
      assert.equal(sink.shown.length, 0);

      const refused = failing();
      const f = setUp(refused);
      assert.equal(
        await f.run('setToken', {
          kind: 'platformToken',
          profile: 'Prod EU',
          value: 'p',
          sessionFallback: false,
        }),
        undefined,
      );
      assert.deepEqual(refused.writes, []);
      assert.deepEqual(
        sink.shown.map((s) => s.kind),
        ['error'],
      );
    });

    it('any other failure is reported as it is, without offering the session', async () => {
      const profiles = new FakeProfiles([{ ...EU }]);
      profiles.secretFailure = new Error('disk full');
      const { run, errors } = setUp(profiles);
      assert.equal(
        await run('setToken', { profile: 'Prod EU', kind: 'platformToken', value: 'x' }),
        undefined,
      );
      assert.deepEqual(errors(), ['disk full']);
      assert.deepEqual(profiles.writes, []);
    });
  });

  describe('Set Token', () => {
    it('from arguments: the named profile, else the active one; refuses no profile and an empty token', async () => {
      const profiles = new FakeProfiles([{ ...EU }, { ...DEV }]);
      profiles.activeName = 'Dev';
      const { run, errors } = setUp(profiles);
      assert.equal(await run('setToken', { kind: 'aiApiKey', value: 'k1' }), 'secretStorage');
      assert.equal(
        await run('setToken', { profile: 'Prod EU', kind: 'platformToken', value: 'p1' }),
        'secretStorage',
      );
      assert.deepEqual(profiles.writes, [
        ['setSecret', 'Dev', 'aiApiKey', 'k1', false],
        ['setSecret', 'Prod EU', 'platformToken', 'p1', false],
      ]);
      assert.equal(await run('setToken', { profile: 'Gone', kind: 'platformToken', value: 'p1' }), undefined);
      assert.equal(await run('setToken', { profile: 'Dev', kind: 'platformToken', value: '   ' }), undefined);
      profiles.activeName = undefined;
      assert.equal(await run('setToken', { kind: 'platformToken', value: 'p2' }), undefined);
      assert.deepEqual(errors(), [
        'Choose a profile first.',
        'The token is empty.',
        'Choose a profile first.',
      ]);
      assert.equal(profiles.writes.length, 2);
    });

    it('asks which secret of the active profile, refuses a blank token, stores it and says so', async () => {
      const profiles = new FakeProfiles([{ ...EU }]);
      profiles.activeName = 'Prod EU';
      const { run, errors } = setUp(profiles);
      sink.answers = ['AI API key', '  ', ' k-9 '];
      assert.equal(await run('setToken'), 'secretStorage');
      assert.deepEqual(errors(), []);
      assert.deepEqual(sink.quickPicks[0]?.placeHolder, 'Which secret of "Prod EU"?');
      assert.deepEqual(
        sink.quickPicks[0]?.items.map((i) => [i.label, i.description]),
        [
          ['platform API token', 'or DASHBOARD_PLATFORM_TOKEN_PROD_EU'],
          ['Data API token', 'or DASHBOARD_PLATFORM_DATA_API_TOKEN_PROD_EU'],
          ['AI API key', 'or DASHBOARD_PLATFORM_AI_API_KEY_PROD_EU'],
        ],
      );
      assert.deepEqual(sink.inputs, [
        {
          prompt: `AI API key for "Prod EU" (stored in VS Code's SecretStorage, never in settings)`,
          password: true,
          refusals: ['Paste the token.'],
        },
      ]);
      assert.deepEqual(profiles.writes, [['setSecret', 'Prod EU', 'aiApiKey', 'k-9', false]]);
      assert.deepEqual(
        sink.shown.map((s) => s.message),
        ['The AI API key of "Prod EU" is stored.'],
      );
    });

    it('with the sandbox active asks for the profile; says when the token is kept for the session only', async () => {
      const profiles = new FakeProfiles([{ ...EU }]);
      profiles.activeName = 'Sandbox';
      profiles.secretFailure = new SecretStorageUnavailableError('no keyring');
      const { run } = setUp(profiles);
      sink.answers = ['Prod EU', 'platform API token', 'tok', 'Keep for This Session Only'];
      assert.equal(await run('setToken'), 'session');
      assert.equal(sink.quickPicks[0]?.placeHolder, 'Profile to set a token for');
      assert.deepEqual(profiles.writes, [['setSessionSecret', 'Prod EU', 'platformToken', 'tok']]);
      assert.equal(
        sink.shown.at(-1)?.message,
        'The platform API token of "Prod EU" is kept for this session only.',
      );
    });

    it('cancelled at the secret or at the token writes nothing and shows no error', async () => {
      for (const answers of [[undefined], ['Data API token', undefined]]) {
        const profiles = new FakeProfiles([{ ...EU }]);
        profiles.activeName = 'Prod EU';
        const { run } = setUp(profiles);
        sink.shown.length = 0;
        sink.answers = answers;
        assert.equal(await run('setToken'), undefined);
        assert.deepEqual(profiles.writes, []);
        assert.deepEqual(sink.shown, []);
      }
    });
  });

  describe('Switch Profile', () => {
    it('lists every profile with what it is, the sandbox and Add Profile, and switches to the pick', async () => {
      const profiles = new FakeProfiles([
        { ...EU },
        { ...DEV },
        { name: 'Team', platformUrl: 'https://t.example.com/api', agents: [] },
      ]);
      profiles.activeName = 'Dev';
      profiles.workspace.add('Team');
      const { run } = setUp(profiles);
      sink.answers = ['Prod EU'];
      assert.equal(await run('switch'), 'Prod EU');
      assert.deepEqual(profiles.writes, [['switchTo', 'Prod EU']]);
      const pick = sink.quickPicks[0]!;
      assert.equal(pick.placeHolder, 'Switch Dashboard Platform profile');
      assert.deepEqual(
        pick.items.map((i) => [i.label, i.description, i.detail, i.iconPath?.id, i.kind]),
        [
          ['Prod EU', 'production', 'https://eu.example.com/api', 'warning', undefined],
          ['Dev', 'active · staging', 'https://dev.example.com/api', 'cloud', undefined],
          [
            'Team',
            'from workspace settings, not trusted yet',
            'https://t.example.com/api',
            'organization',
            undefined,
          ],
          ['Sandbox', '', 'Local sandbox with sample data, started on first use', 'beaker', undefined],
          ['', undefined, undefined, undefined, -1],
          ['$(add) Add Profile…', undefined, undefined, undefined, undefined],
        ],
      );
    });

    it('a trusted workspace profile says so; a name given switches without asking; cancel switches nothing', async () => {
      const profiles = new FakeProfiles([{ ...EU, production: undefined }]);
      profiles.workspace.add('Prod EU');
      profiles.trusted.add('Prod EU');
      const { run, errors } = setUp(profiles);
      sink.answers = [undefined];
      assert.equal(await run('switch'), undefined);
      assert.deepEqual(profiles.writes, []);
      assert.deepEqual(errors(), [], 'a dismissed picker is no error');
      assert.equal(sink.quickPicks[0]?.items[0]?.description, 'from workspace settings');
      assert.equal(sink.quickPicks[0]?.items[0]?.iconPath?.id, 'organization');
      assert.equal(await run('switch', 'Sandbox'), 'Sandbox');
      assert.equal(await run('switch', { name: 'Prod EU' }), 'Prod EU');
      assert.deepEqual(profiles.writes, [
        ['switchTo', 'Sandbox'],
        ['switchTo', 'Prod EU'],
      ]);
      assert.equal(sink.quickPicks.length, 1);
    });

    it('"Add Profile…" runs Add Profile and returns the new profile', async () => {
      const profiles = new FakeProfiles([]);
      const { run } = setUp(profiles);
      sink.answers = ['$(add) Add Profile…', 'Save'];
      sink.prompter = new ScriptedPrompter([
        'Added',
        'https://a.example.com/api',
        '',
        'No default deployment',
        '$(check) Test the connection and save',
      ]);
      assert.equal(await run('switch'), 'Added');
      assert.deepEqual(
        profiles.writes.map((w) => w[0]),
        ['save', 'switchTo'],
      );
    });
  });

  describe('Remove Profile and Clear Stored Secrets', () => {
    it('ask which stored profile (not the sandbox), confirm, then write; a refused confirmation writes nothing', async () => {
      const cases = [
        [
          'remove',
          'Profile to remove',
          'Remove profile "Dev" and its stored secrets?',
          'Remove',
          ['remove', 'Dev'],
        ],
        [
          'clearSecrets',
          'Clear the stored secrets of',
          'Delete the stored tokens of "Dev"?',
          'Delete',
          ['clearSecrets', 'Dev'],
        ],
      ] as const;
      for (const [what, placeHolder, question, button, write] of cases) {
        for (const confirmed of [true, false]) {
          const profiles = new FakeProfiles([{ ...EU }, { ...DEV }]);
          profiles.activeName = 'Dev';
          const { run, errors } = setUp(profiles);
          sink.shown.length = 0;
          sink.quickPicks.length = 0;
          sink.answers = ['Dev', confirmed ? button : undefined];
          await run(what);
          assert.equal(sink.quickPicks[0]?.placeHolder, placeHolder);
          assert.deepEqual(
            sink.quickPicks[0]?.items.map((i) => [i.label, i.description, i.detail]),
            [
              ['Prod EU', undefined, 'https://eu.example.com/api'],
              ['Dev', 'active', 'https://dev.example.com/api'],
            ],
          );
          assert.deepEqual(sink.shown, [
            { kind: 'warning', message: question, options: { modal: true }, buttons: [button] },
          ]);
          assert.deepEqual(profiles.writes, confirmed ? [write] : [], `${what} ${confirmed}`);
          assert.deepEqual(errors(), []);
        }
      }
    });

    it('a name given is not confirmed again; the sandbox or an unknown name is refused', async () => {
      const profiles = new FakeProfiles([{ ...EU }]);
      const { run, errors, lines } = setUp(profiles);
      await run('remove', 'Prod EU');
      await run('clearSecrets', { name: 'Prod EU' });
      assert.deepEqual(profiles.writes, [
        ['remove', 'Prod EU'],
        ['clearSecrets', 'Prod EU'],
      ]);
      assert.ok(lines.includes('info: Removed profile "Prod EU"'));
      assert.ok(lines.includes('info: Cleared the stored secrets of "Prod EU"'));
      await run('remove', 'Sandbox');
      await run('remove', { name: 'Gone' });
      assert.deepEqual(errors(), [
        'There is no stored profile named "Sandbox".',
        'There is no stored profile named "Gone".',
      ]);
      assert.equal(profiles.writes.length, 2);
    });

    it('with no stored profile says to add one first', async () => {
      const profiles = new FakeProfiles([]);
      const { run, errors } = setUp(profiles);
      await run('remove');
      assert.deepEqual(errors(), [
        'There are no profiles yet. Run "Dashboard Platform: Add Profile…" first.',
      ]);
      assert.deepEqual(sink.quickPicks, []);
    });
  });

  describe('Edit Profile', () => {
    it('from arguments: saves the changes under the old name, unknown fields kept', async () => {
      const profiles = new FakeProfiles([{ ...EU, extra: 1 } as Profile]);
      const { run, errors, lines } = setUp(profiles);
      assert.equal(
        await run('edit', { name: 'Prod EU', changes: { name: 'EU', environment: 'prod' } }),
        'EU',
      );
      assert.deepEqual(errors(), []);
      assert.deepEqual(profiles.writes, [
        [
          'save',
          {
            name: 'EU',
            platformUrl: 'https://eu.example.com/api',
            agents: [],
            production: true,
            environment: 'prod',
            extra: 1,
          },
          'Prod EU',
        ],
      ]);
      assert.ok(lines.includes('info: Edited profile "EU"'));
    });

    it('refuses the sandbox, an unknown name and an invalid change, writing nothing', async () => {
      const profiles = new FakeProfiles([{ ...EU }]);
      const { run, errors } = setUp(profiles);
      await run('edit', { name: 'Sandbox', changes: {} });
      await run('edit', 'Gone');
      await run('edit', { name: 'Prod EU', changes: { dataApiUrl: 'ftp://x.example.com' } });
      assert.deepEqual(profiles.writes, []);
      assert.equal(errors()[0], 'There is no stored profile named "Sandbox".');
      assert.equal(errors()[1], 'There is no stored profile named "Gone".');
      assert.match(errors()[2] ?? '', /^Invalid profile: dataApiUrl: /);
    });

    describe('against the sandbox (the deployments are listed for the default deployment step)', () => {
      let sb: SandboxHandle;
      before(async () => {
        sb = await startSandbox({ rows: 50, notifications: 0 });
      });
      after(() => sb.close());
      const local = (): Profile => ({ name: 'Local', platformUrl: sb.urls.platform, agents: [] });

      it('picks the profile, asks the form prefilled, keeps its own name, stores a new token', async () => {
        const profiles = new FakeProfiles([local(), { ...DEV }]);
        profiles.workspace.add('Dev');
        profiles.trusted.add('Dev');
        const { run, errors } = setUp(profiles);
        sink.answers = ['Local'];
        const prompter = new ScriptedPrompter([
          'local',
          sb.urls.platform,
          sb.tokens.admin,
          'No default deployment',
          '$(check) Save the changes',
        ]);
        sink.prompter = prompter;
        assert.equal(await run('edit'), 'local');
        assert.deepEqual(errors(), []);
        assert.deepEqual(prompter.refusals, []);
        assert.deepEqual(
          sink.quickPicks[0]?.items.map((i) => [i.label, i.description]),
          [
            ['Local', undefined],
            ['Dev', 'from workspace settings'],
          ],
        );
        assert.deepEqual(profiles.writes, [
          ['save', { name: 'local', platformUrl: sb.urls.platform, agents: [] }, 'Local'],
          ['setSecret', 'local', 'platformToken', sb.tokens.admin, false],
        ]);
        // The typed token listed the deployments (by name) and is redacted from then on.
        assert.deepEqual(profiles.remembered, [sb.tokens.admin]);
        assert.ok((prompter.offered.get('Edit Profile Local') ?? []).length > 1);
      });

      it('lists deployments with the stored token only while the URL keeps its origin', async () => {
        const profiles = new FakeProfiles([local()]);
        profiles.stored.set('Local/platformToken', sb.tokens.admin);
        const { run, errors } = setUp(profiles);
        sink.prompter = new ScriptedPrompter([
          'Local',
          `${sb.urls.platform}/`,
          '',
          'No default deployment',
          '$(check) Save the changes',
        ]);
        assert.equal(await run('edit', 'Local'), 'Local');
        assert.deepEqual(profiles.remembered, [sb.tokens.admin]);
        const other = sb.urls.platform.replace('127.0.0.1', 'localhost');
        sink.prompter = new ScriptedPrompter([
          'Local',
          other,
          '',
          'No default deployment',
          '$(check) Save the changes',
        ]);
        assert.equal(await run('edit', 'Local'), 'Local');
        assert.deepEqual(profiles.remembered, [sb.tokens.admin]);
        assert.deepEqual(errors(), []);
        assert.deepEqual(
          profiles.writes.map((w) => [w[0], (w[1] as Profile).platformUrl]),
          [
            ['save', sb.urls.platform],
            ['save', other],
          ],
        );
      });

      it('Add Profile with a token: the connection test passes, the token is stored', async () => {
        const profiles = new FakeProfiles([]);
        const { run, errors } = setUp(profiles);
        sink.prompter = new ScriptedPrompter([
          'Local',
          sb.urls.platform,
          sb.tokens.admin,
          'No default deployment',
          '$(check) Test the connection and save',
        ]);
        sink.answers = ['Save'];
        assert.deepEqual(await run('add'), { name: 'Local', secrets: { platformToken: 'secretStorage' } });
        assert.deepEqual(errors(), []);
        assert.equal(sink.shown[0]?.message, 'Profile "Local": connected.');
        assert.match(
          sink.shown[0]?.options?.detail ?? '',
          /^✓ Platform API: \d+ deployments? listed\n✓ Data API: /,
        );
        assert.deepEqual(
          profiles.writes.map((w) => w[0]),
          ['save', 'setSecret', 'switchTo'],
        );
      });
    });
  });
});
