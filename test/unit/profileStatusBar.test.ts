// The profile status bar item (src/profiles/statusBar.ts): its text, colour, tooltip and command for
// each state (no profile, the sandbox, a staging or production profile, a workspace profile trusted
// or not), and that it follows the profile service's changes. Loaded under a `vscode` stand-in.
import assert from 'node:assert/strict';
import type * as StatusBarModule from '../../src/profiles/statusBar';
import type { Profile } from '../../src/profiles/profileModel';
import { FakeProfiles, useProfileStandIn } from './profileStandIn';

describe('profile status bar', () => {
  const standIn = useProfileStandIn();
  const { sink } = standIn;
  let ProfileStatusBar: typeof StatusBarModule.ProfileStatusBar;
  before(() => {
    ({ ProfileStatusBar } = standIn.load<typeof StatusBarModule>('../../src/profiles/statusBar'));
  });

  const show = (profiles: FakeProfiles) => {
    const bar = new ProfileStatusBar(profiles as never);
    const item = sink.items.at(-1)!;
    const md = typeof item.tooltip === 'object' ? item.tooltip : undefined;
    return { bar, item, md };
  };

  it('is a left item named for the profile, that switches profile on click, shown at once', () => {
    const { item } = show(new FakeProfiles([]));
    assert.deepEqual(
      [item.id, item.alignment, item.priority, item.name, item.command, item.shown],
      [
        'dashboardPlatform.profile',
        1,
        50,
        'Dashboard Platform Profile',
        'dashboardPlatform.profiles.switch',
        true,
      ],
    );
  });

  const EU: Profile = {
    name: 'EU',
    platformUrl: 'https://eu.example.com/api',
    agents: [{ label: 'Sales', url: 'https://ai.example.com/api/v1/public/acme/agents/4' }],
    defaultDeploymentId: 7,
  };
  const cases: {
    what: string;
    profile?: Profile;
    sandboxRunning?: boolean;
    workspace?: 'trusted' | 'untrusted' | 'shadowing';
    text: string;
    color?: string;
    tooltip: string[];
  }[] = [
    {
      what: 'no profile',
      text: '$(plug) Dashboard Platform: no profile',
      tooltip: ['No Dashboard Platform profile is active. Click to add one or use the Sandbox.'],
    },
    {
      what: 'the sandbox not started yet',
      profile: { name: 'Sandbox', platformUrl: 'http://127.0.0.1:1/api', agents: [] },
      text: '$(beaker) Sandbox',
      tooltip: [
        'Dashboard Platform profile: Sandbox',
        'Local sandbox (starts on first use)',
        'Click to switch profile.',
      ],
    },
    {
      what: 'the sandbox running (its own Data API hosts, never an override)',
      profile: {
        name: 'Sandbox',
        platformUrl: 'http://127.0.0.1:4000/api',
        dataApiUrl: 'http://127.0.0.1:4000/cubejs-api',
        agents: [],
      },
      sandboxRunning: true,
      workspace: 'untrusted',
      text: '$(beaker) Sandbox',
      tooltip: [
        'Dashboard Platform profile: Sandbox',
        'Platform: http://127.0.0.1:4000/api',
        'Data API: each deployment’s own host',
        'Click to switch profile.',
      ],
    },
    {
      what: 'a profile of the user with an agent and a default deployment',
      profile: EU,
      text: '$(cloud) EU',
      tooltip: [
        'Dashboard Platform profile: EU',
        'Platform: https://eu.example.com/api',
        'Data API: each deployment’s own host',
        'AI agent "Sales": https://ai.example.com/api/v1/public/acme/agents/4',
        'Default deployment: 7',
        'Click to switch profile.',
      ],
    },
    {
      what: 'a production profile with a Data API override',
      profile: {
        name: 'Prod',
        platformUrl: 'https://p.example.com/api',
        dataApiUrl: 'https://d.example.com/cubejs-api',
        agents: [],
        production: true,
      },
      text: '$(warning) Prod (production)',
      color: 'statusBarItem.errorBackground',
      tooltip: [
        'Dashboard Platform profile: Prod (production)',
        'Platform: https://p.example.com/api',
        'Data API: https://d.example.com/cubejs-api (override)',
        'Click to switch profile.',
      ],
    },
    {
      what: 'a staging profile of the workspace, not trusted',
      profile: {
        name: 'Team',
        platformUrl: 'https://t.example.com/api',
        agents: [],
        environment: 'staging',
        color: 'warning',
      },
      workspace: 'untrusted',
      text: '$(cloud) Team (staging)',
      color: 'statusBarItem.warningBackground',
      tooltip: [
        'Dashboard Platform profile: Team',
        'Platform: https://t.example.com/api',
        'Data API: each deployment’s own host',
        "Defined in this workspace's settings, not yours.",
        'Not trusted yet: you are asked before any token is sent for it.',
        'Click to switch profile.',
      ],
    },
    {
      what: 'a workspace profile hiding the user’s own, trusted',
      profile: {
        name: 'Team',
        platformUrl: 'https://t.example.com/api',
        agents: [],
        environment: 'prod',
        production: true,
        color: 'none',
      },
      workspace: 'shadowing',
      text: '$(warning) Team (prod)',
      tooltip: [
        'Dashboard Platform profile: Team (production)',
        'Platform: https://t.example.com/api',
        'Data API: each deployment’s own host',
        "Defined in this workspace's settings (it hides your own profile of the same name here; your tokens are never sent for it).",
        'Trusted in this workspace.',
        'Click to switch profile.',
      ],
    },
  ];

  it('shows the text, colour and tooltip of each state', () => {
    for (const c of cases) {
      const sandbox = c.profile?.name === 'Sandbox' ? c.profile : undefined;
      const profiles = new FakeProfiles(c.profile && !sandbox ? [c.profile] : [], sandbox);
      profiles.activeName = c.profile?.name;
      if (c.sandboxRunning) profiles.sandbox.current = {};
      if (c.workspace && c.profile) profiles.workspace.add(c.profile.name);
      if (c.workspace && c.workspace !== 'untrusted' && c.profile) profiles.trusted.add(c.profile.name);
      if (c.workspace === 'shadowing' && c.profile) profiles.shadowing.add(c.profile.name);
      const { bar, item } = show(profiles);
      assert.equal(item.text, c.text, c.what);
      assert.equal(bar.text, c.text, c.what);
      assert.equal(item.backgroundColor?.id, c.color, c.what);
      assert.equal(bar.tooltipText, c.tooltip.join('\n'), c.what);
    }
  });

  it('writes the tooltip as untrusted markdown, the title bold and every character escaped', () => {
    const profiles = new FakeProfiles([
      { name: 'A_b*[x]', platformUrl: 'https://a-b.example.com/api', agents: [], production: true },
    ]);
    profiles.activeName = 'A_b*[x]';
    const { md } = show(profiles);
    assert.equal(md?.isTrusted, false);
    assert.equal(md?.supportThemeIcons, true);
    assert.equal(
      md?.value,
      [
        '**Dashboard Platform profile: A\\_b\\*\\[x\\] \\(production\\)** $(warning)',
        'Platform: https://a\\-b\\.example\\.com/api',
        'Data API: each deployment’s own host',
        'Click to switch profile\\.',
        '',
      ].join('\n\n'),
    );
    // With no profile the tooltip is the plain sentence and the colour is cleared.
    profiles.activeName = undefined;
    const { item } = show(profiles);
    assert.equal(
      item.tooltip,
      'No Dashboard Platform profile is active. Click to add one or use the Sandbox.',
    );
    assert.equal(item.backgroundColor, undefined);
  });

  it('follows the active profile, the list and the secrets (trust), and stops after dispose', () => {
    const profiles = new FakeProfiles([{ name: 'W', platformUrl: 'https://w.example.com/api', agents: [] }]);
    profiles.workspace.add('W');
    const { bar, item } = show(profiles);
    assert.equal(item.text, '$(plug) Dashboard Platform: no profile');
    profiles.activeName = 'W';
    profiles.fire('active');
    assert.equal(item.text, '$(cloud) W');
    profiles.profiles[0] = { ...profiles.profiles[0]!, production: true };
    profiles.fire('list');
    assert.equal(item.text, '$(warning) W (production)');
    assert.match(bar.tooltipText, /Not trusted yet/);
    profiles.trusted.add('W');
    profiles.fire('secrets');
    assert.match(bar.tooltipText, /Trusted in this workspace\./);
    bar.dispose();
    assert.equal(item.disposed, true);
    profiles.activeName = undefined;
    profiles.fire('active');
    profiles.fire('list');
    profiles.fire('secrets');
    assert.equal(item.text, '$(warning) W (production)');
  });
});
