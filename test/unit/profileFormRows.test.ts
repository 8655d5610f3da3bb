// The words of Add/Edit Profile's one-page form (src/profiles/profileForm.ts): each question's
// prompt and whether it is masked, the review's rows with what each says, the AI session identity
// (which field, its rule, the machine default), and what the form returns for each change: only
// valid input saved, what was not touched kept.
import assert from 'node:assert/strict';
import { askProfileForm, type ProfileFormDeps } from '../../src/profiles/profileForm';
import type { Profile } from '../../src/profiles/profileModel';
import { ScriptedPrompter, type InputQuestion } from '../../src/ui/prompter';

/** A scripted user that also records each text question as it was asked. */
class Recorder extends ScriptedPrompter {
  readonly questions: {
    title: string;
    prompt?: string;
    password?: boolean;
    value?: string;
    placeHolder?: string;
  }[] = [];
  override input(q: InputQuestion): Promise<string> {
    this.questions.push({
      title: q.title,
      prompt: q.prompt,
      password: q.password,
      value: q.value,
      placeHolder: q.placeHolder,
    });
    return super.input(q);
  }
}

const DEPLOYMENTS = [
  { id: 3, name: 'Sales EU', detail: 'https://sales.example.com' },
  { id: 8, name: 'Marketing' },
];

function deps(answers: (string | undefined)[]) {
  const prompter = new Recorder(answers);
  const d: ProfileFormDeps = {
    prompter,
    nameProblem: (n) => (n ? undefined : 'Enter a name.'),
    machineExternalId: 'me-host',
    listDeployments: async () => ({ items: DEPLOYMENTS, truncated: false }),
  };
  return { d, prompter };
}

const AGENT = 'https://ai.example.com/api/v1/public/acme/agents/42';
const AGENT2 = 'https://ai.example.com/api/v1/public/acme/agents/43';

describe('Add/Edit Profile form: the words and the rows', () => {
  it('Add: each question’s prompt and masking, the review rows, the identity asked as internal user', async () => {
    const { d, prompter } = deps([
      '  ', // refused: the name is trimmed before it is checked
      'Analytics',
      'https://acme.example.com/api',
      'tok',
      'Marketing',
      'Data API token',
      ' dtok ',
      'AI agent URL',
      'https://ai.example.com/api/v1/agents/42', // refused: not an agent path
      AGENT,
      'AI session identity',
      'Internal user (username)',
      ' ', // refused: a username is needed
      ' ann@example.com ',
      'AI API key',
      'key',
      'confirm',
    ]);
    const r = await askProfileForm(d);
    assert.deepEqual(
      prompter.questions.map((q) => [q.title, q.prompt, q.password, q.value]),
      [
        ['Add Profile', 'Profile name: how the status bar and pickers name this connection', undefined, ''],
        [
          'Add Profile',
          'Platform API base URL: your tenant host (or custom domain) followed by /api',
          undefined,
          '',
        ],
        [
          'Add Profile',
          "platform API token (kept in VS Code's SecretStorage, sent only to this URL's host; leave empty to use DASHBOARD_PLATFORM_TOKEN or set it later)",
          true,
          '',
        ],
        [
          'Add Profile: Data API token',
          'Data API token (optional: leave empty to mint one from the platform token)',
          true,
          '',
        ],
        [
          'Add Profile: AI agent URL',
          'AI agent URL (optional; more can be added in settings). Leave empty for none.',
          undefined,
          '',
        ],
        [
          'Add Profile: AI session identity',
          'Username of an existing user of the tenant (often an e-mail address)',
          undefined,
          '',
        ],
        ['Add Profile: AI API key', 'AI API key (optional)', true, ''],
      ],
    );
    assert.equal(prompter.refusals.length, 3);
    assert.equal(prompter.refusals[0], 'Enter a name.');
    assert.match(prompter.refusals[1]!, /agents\/\{agentId\}/);
    assert.equal(prompter.refusals[2], 'Enter the username.');
    assert.deepEqual(
      prompter.questions.map((q) => q.placeHolder),
      [
        'Analytics EU',
        'https://mytenant.example.com/api',
        undefined,
        undefined,
        'https://ai.example.com/api/v1/public/{account}/agents/{agentId}',
        undefined,
        undefined,
      ],
    );
    // The review's rows as last shown, with what each says.
    assert.deepEqual(prompter.rows.get('Add Profile'), [
      {
        label: '$(check) Test the connection and save',
        description: 'Analytics · acme.example.com',
        detail:
          'Default deployment: Marketing · Development · Nothing is saved before the test; its result is shown first',
      },
      { label: 'Environment', description: 'Development', detail: undefined },
      { label: 'Data API URL', description: 'each deployment’s own (recommended)', detail: undefined },
      { label: 'Data API token', description: 'set (hidden)', detail: undefined },
      { label: 'AI agent URL', description: AGENT, detail: undefined },
      { label: 'AI session identity', description: 'internal user ann@example.com', detail: undefined },
      { label: 'AI API key', description: 'set (hidden)', detail: undefined },
    ]);
    assert.deepEqual(prompter.rows.get('Add Profile: AI session identity'), [
      {
        label: 'External user id',
        description: 'default: me-host',
        detail: 'Chats run as an external user with this id (lowercase).',
      },
      {
        label: 'Internal user (username)',
        description: '',
        detail: 'Chats run as an existing user of the tenant, with that user’s permissions.',
      },
    ]);
    assert.deepEqual(r, {
      input: {
        name: 'Analytics',
        platformUrl: 'https://acme.example.com/api',
        dataApiUrl: undefined,
        agents: [{ label: 'Agent', url: AGENT }],
        session: { internalId: 'ann@example.com' },
        defaultDeploymentId: 8,
        production: undefined,
        color: undefined,
        environment: undefined,
      },
      secrets: { platformToken: 'tok', dataApiToken: 'dtok', aiApiKey: 'key' },
    });
  });

  it('Add: the review before any change says what is not set; staging is yellow; no agent, no key', async () => {
    const { d, prompter } = deps([
      'Stage',
      'https://acme.example.com/api',
      '',
      'No default deployment',
      'Environment',
      'Staging',
      'AI agent URL',
      AGENT,
      'AI API key',
      'key',
      'AI agent URL',
      '',
      'confirm',
    ]);
    const r = await askProfileForm(d);
    assert.deepEqual(
      prompter.rows.get('Add Profile')?.map((x) => [x.label, x.description]),
      [
        ['$(check) Test the connection and save', 'Stage · acme.example.com'],
        ['Environment', 'Staging'],
        ['Data API URL', 'each deployment’s own (recommended)'],
        ['Data API token', 'minted from the platform token when needed'],
        ['AI agent URL', 'none'],
      ],
    );
    assert.equal(
      prompter.rows.get('Add Profile')?.[0]?.detail,
      'Default deployment: none (commands ask) · Staging · Nothing is saved before the test; its result is shown first',
    );
    assert.deepEqual(
      prompter.rows.get('Add Profile: environment')?.map((x) => [x.label, x.description]),
      [
        ['Development', undefined],
        ['Staging', 'yellow status bar'],
        ['Production', 'red status bar, writes confirmed'],
      ],
    );
    // The key typed for an agent then removed is not kept.
    assert.deepEqual(r.secrets, { platformToken: undefined, dataApiToken: undefined, aiApiKey: undefined });
    assert.equal(r.input.color, 'warning');
    assert.equal(r.input.environment, 'staging');
    assert.equal(r.input.production, undefined);
    assert.deepEqual(r.input.agents, []);
    assert.equal(r.input.session, undefined);
  });

  const current = {
    name: 'Prod EU',
    platformUrl: 'https://acme.example.com/api',
    dataApiUrl: 'https://gw.example.com/cubejs-api',
    agents: [
      { label: 'Sales', url: AGENT, extra: 1 },
      { label: 'Ops', url: AGENT2 },
    ],
    defaultDeploymentId: 3,
    environment: 'staging',
    session: { externalId: 'u1', email: 'u1@example.com' },
    custom: 'kept',
  } as Profile;

  it('Edit: prompts say an empty secret keeps the current one; the rows say what is kept', async () => {
    const { d, prompter } = deps([
      'Prod EU',
      'https://acme.example.com/api',
      '',
      'Sales EU',
      'Data API token',
      '',
      'AI API key',
      '',
      'Data API URL',
      '',
      'confirm',
    ]);
    const r = await askProfileForm(d, current);
    assert.equal(
      prompter.questions[2]?.prompt,
      "platform API token (kept in VS Code's SecretStorage, sent only to this URL's host; leave empty to keep the current one)",
    );
    assert.deepEqual(
      prompter.questions.slice(3).map((q) => q.prompt),
      [
        'Data API token (optional: leave empty to keep the current one)',
        'AI API key (leave empty to keep the current one)',
        'Leave empty: each deployment is queried on the host it publishes. Set it only to send every query to one Data API, e.g. through a gateway.',
      ],
    );
    assert.equal(prompter.questions[5]?.value, 'https://gw.example.com/cubejs-api');
    assert.deepEqual(prompter.rows.get('Edit Profile Prod EU'), [
      {
        label: '$(check) Save the changes',
        description: 'Prod EU · acme.example.com',
        detail: 'Default deployment: Sales EU · Staging',
      },
      { label: 'Environment', description: 'Staging', detail: undefined },
      { label: 'Data API URL', description: 'each deployment’s own (recommended)', detail: undefined },
      { label: 'Data API token', description: 'kept as it is', detail: undefined },
      { label: 'AI agent URL', description: AGENT, detail: undefined },
      { label: 'AI session identity', description: 'external id u1', detail: undefined },
      { label: 'AI API key', description: 'kept as it is', detail: undefined },
    ]);
    // Unknown fields, the other agents and the session are kept; the Data API override cleared.
    assert.deepEqual(r.input, {
      ...current,
      dataApiUrl: undefined,
      defaultDeploymentId: 3,
      production: undefined,
      color: 'warning',
      environment: 'staging',
    });
    assert.deepEqual(r.secrets, { platformToken: undefined, dataApiToken: undefined, aiApiKey: undefined });
  });

  it('Edit: a new agent URL replaces the first agent’s, keeping its label; the external id is checked', async () => {
    const { d, prompter } = deps([
      'Prod EU',
      'https://acme.example.com/api',
      '',
      'Sales EU',
      'AI agent URL',
      'https://ai.example.com/api/v1/public/acme/agents/44',
      'AI session identity',
      'External user id',
      'Upper', // refused: lowercase only
      ' lower ',
      'confirm',
    ]);
    const r = await askProfileForm(d, current);
    assert.deepEqual(prompter.refusals, ['The externalId must be lowercase.']);
    assert.equal(
      prompter.questions.find((q) => q.title.endsWith('AI session identity'))?.prompt,
      'External user id (lowercase; leave empty for the default me-host)',
    );
    assert.equal(prompter.questions.find((q) => q.title.endsWith('AI session identity'))?.value, 'u1');
    assert.deepEqual(r.input.agents, [
      { label: 'Sales', url: 'https://ai.example.com/api/v1/public/acme/agents/44', extra: 1 },
      { label: 'Ops', url: AGENT2 },
    ]);
    assert.deepEqual(r.input.session, { externalId: 'lower', email: 'u1@example.com' });
  });

  it('Edit: removing the agent URL drops the first agent and keeps the session; an empty external id is the machine’s', async () => {
    const removed = await askProfileForm(
      deps(['Prod EU', 'https://acme.example.com/api', '', 'Sales EU', 'AI agent URL', '', 'confirm']).d,
      current,
    );
    assert.deepEqual(removed.input.agents, [{ label: 'Ops', url: AGENT2 }]);
    assert.deepEqual(removed.input.session, current.session);

    const { d, prompter } = deps([
      'Prod EU',
      'https://acme.example.com/api',
      '',
      'Sales EU',
      'AI session identity',
      'External user id',
      '',
      'confirm',
    ]);
    const r = await askProfileForm(d, { ...current, session: { externalId: 'u1' } } as Profile);
    assert.equal(r.input.session, undefined);
    assert.equal(
      prompter.rows.get('Edit Profile Prod EU')?.find((x) => x.label === 'AI session identity')?.description,
      "external id me-host (this machine's default)",
    );
  });
});
