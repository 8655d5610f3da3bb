// Add/Edit Profile's five counted steps with Back: the default deployment is picked by name from
// the deployments the typed URL and token list (never typed as an id), a listing that fails says
// why and lets the user go on, and the review's rows change optional settings in place.
import assert from 'node:assert/strict';
import { askProfileForm, tokenForListing, type ProfileFormDeps } from '../../src/profiles/profileForm';
import type { Profile } from '../../src/profiles/profileModel';
import { BACK, ScriptedPrompter, type Choice, type PickOptions } from '../../src/ui/prompter';
import { UserCancelled } from '../../src/log';

/** A scripted user that also records every pick: its title, step and the rows offered. */
class Recorder extends ScriptedPrompter {
  readonly picks: { title: string; step?: string; labels: string[]; details: (string | undefined)[] }[] = [];
  override pick<T>(title: string, choices: Choice<T>[], o?: string | PickOptions<T>): Promise<T> {
    const step = typeof o === 'object' && o.step ? `${o.step.step}/${o.step.totalSteps}` : undefined;
    this.picks.push({
      title,
      step,
      labels: choices.map((c) => c.label),
      details: choices.map((c) => c.detail),
    });
    return super.pick(title, choices, o);
  }
}

const DEPLOYMENTS = [
  { id: 3, name: 'Sales EU', detail: 'https://sales.example.com' },
  { id: 8, name: 'Marketing' },
];

function deps(
  answers: (string | undefined)[],
  list: ProfileFormDeps['listDeployments'] = async () => ({ items: DEPLOYMENTS, truncated: false }),
) {
  const prompter = new Recorder(answers);
  const calls: { name: string; platformUrl: string; token: string | undefined }[] = [];
  const d: ProfileFormDeps = {
    prompter,
    nameProblem: (n) => (n ? undefined : 'Enter a name.'),
    machineExternalId: 'me-host',
    listDeployments: async (q) => {
      calls.push(q);
      return list(q);
    },
  };
  return { d, prompter, calls };
}

const CONFIRM_ADD = '$(check) Test the connection and save';

describe('Add Profile form (five counted steps, deployment by name)', () => {
  it('asks name, URL, token, the default deployment from the listed names, then the review', async () => {
    const { d, prompter, calls } = deps([
      'Analytics EU',
      'https://acme.example.com/api',
      'tok-1',
      'Sales EU',
      CONFIRM_ADD,
    ]);
    const r = await askProfileForm(d);
    assert.deepEqual(prompter.asked, [
      'Add Profile (Step 1 of 5)',
      'Add Profile (Step 2 of 5)',
      'Add Profile (Step 3 of 5)',
      'Add Profile (Step 4 of 5)',
      'Add Profile (Step 5 of 5)',
    ]);
    // The deployments are listed with what was typed, and offered by name.
    assert.deepEqual(calls, [
      { name: 'Analytics EU', platformUrl: 'https://acme.example.com/api', token: 'tok-1' },
    ]);
    assert.deepEqual(prompter.picks[0]!.labels, ['Sales EU', 'Marketing', 'No default deployment']);
    // The review names the deployment chosen, not its id.
    assert.match(prompter.picks[1]!.details[0] ?? '', /Default deployment: Sales EU/);
    assert.equal(r.input.defaultDeploymentId, 3);
    assert.equal(r.input.name, 'Analytics EU');
    assert.equal(r.secrets.platformToken, 'tok-1');
    assert.equal(r.input.production, undefined);
    assert.equal(r.input.dataApiUrl, undefined);
  });

  it('goes Back with what was typed kept, and lists again with the corrected URL', async () => {
    const { d, calls } = deps([
      'Analytics EU',
      'https://wrong.example.com/api',
      'tok-1',
      BACK, // from the deployment picker to the token
      BACK, // to the URL
      'https://acme.example.com/api',
      'tok-1',
      'Marketing',
      CONFIRM_ADD,
    ]);
    const r = await askProfileForm(d);
    assert.deepEqual(
      calls.map((c) => c.platformUrl),
      ['https://wrong.example.com/api', 'https://acme.example.com/api'],
    );
    assert.equal(r.input.platformUrl, 'https://acme.example.com/api');
    assert.equal(r.input.defaultDeploymentId, 8);
  });

  it('says why the list failed, offers Try again, and goes on without a default', async () => {
    let fail = true;
    const { d, prompter, calls } = deps(
      [
        'Analytics EU',
        'https://acme.example.com/api',
        'bad',
        '$(refresh) Try again',
        'No default deployment',
        CONFIRM_ADD,
      ],
      async () => {
        if (fail) {
          fail = false;
          throw new Error('The platform refused the token (401): check it, or create a new one.');
        }
        return { items: DEPLOYMENTS, truncated: false };
      },
    );
    const r = await askProfileForm(d);
    assert.equal(calls.length, 2, 'Try again lists again');
    const first = prompter.picks[0]!;
    assert.deepEqual(first.labels, ['No default deployment', '$(refresh) Try again']);
    assert.match(first.details[1] ?? '', /refused the token \(401\)/);
    assert.deepEqual(prompter.picks[1]!.labels, ['Sales EU', 'Marketing', 'No default deployment']);
    assert.equal(r.input.defaultDeploymentId, undefined);
  });

  it('changes optional rows in the review and comes back to it (environment, Data API, agent)', async () => {
    const { d, prompter } = deps([
      'Prod',
      'https://acme.example.com/api',
      'tok',
      'Sales EU',
      'Environment',
      'Production',
      'Data API URL',
      'http://acme.example.com/cubejs-api', // refused: http to a remote host
      'https://gw.example.com/cubejs-api',
      'AI agent URL',
      'https://ai.example.com/api/v1/public/acme/agents/42',
      'AI API key',
      'key-1',
      CONFIRM_ADD,
    ]);
    const r = await askProfileForm(d);
    assert.equal(prompter.refusals.length, 1);
    assert.match(prompter.refusals[0]!, /http:\/\/ is refused/);
    assert.equal(r.input.production, true);
    assert.equal(r.input.color, 'error');
    assert.equal(r.input.environment, 'production');
    assert.equal(r.input.dataApiUrl, 'https://gw.example.com/cubejs-api');
    assert.deepEqual(r.input.agents, [
      { label: 'Agent', url: 'https://ai.example.com/api/v1/public/acme/agents/42' },
    ]);
    assert.equal(r.secrets.aiApiKey, 'key-1');
    // The agent's rows appear once an agent is set; the step count stays 5.
    const last = prompter.picks.at(-1)!;
    assert.equal(last.step, '5/5');
    assert.ok(last.labels.includes('AI session identity') && last.labels.includes('AI API key'));
  });

  it('a row question dismissed returns to the review instead of dropping the whole form', async () => {
    const { d, prompter } = deps(['P', 'https://acme.example.com/api', '', 'Marketing', 'Environment']);
    await assert.rejects(askProfileForm(d), UserCancelled);
    // Environment was asked, then the review again (where the script ended).
    assert.deepEqual(prompter.asked.slice(-2), ['Add Profile: environment', 'Add Profile (Step 5 of 5)']);
  });
});

describe('Edit Profile form', () => {
  const current: Profile = {
    name: 'Prod EU',
    platformUrl: 'https://acme.example.com/api',
    agents: [{ label: 'Sales', url: 'https://ai.example.com/api/v1/public/acme/agents/42' }],
    defaultDeploymentId: 8,
    production: true,
    color: 'error',
    environment: 'production',
    session: { externalId: 'u1' },
  } as Profile;

  it('prefills every step, keeps what was not touched, and names the current default', async () => {
    const { d, prompter } = deps([
      'Prod EU',
      'https://acme.example.com/api',
      '',
      'Marketing',
      '$(check) Save the changes',
    ]);
    const r = await askProfileForm(d, current);
    assert.equal(prompter.asked[0], 'Edit Profile Prod EU (Step 1 of 5)');
    assert.equal(r.input.defaultDeploymentId, 8);
    assert.equal(r.input.production, true);
    assert.deepEqual(r.input.agents, current.agents);
    assert.deepEqual(r.input.session, { externalId: 'u1' });
    assert.equal(r.secrets.platformToken, undefined, 'an empty token keeps the stored one');
  });

  it('offers to keep a default the token does not list', async () => {
    const { d, prompter } = deps(
      ['Prod EU', 'https://acme.example.com/api', '', 'Keep deployment 8', '$(check) Save the changes'],
      async () => ({ items: [DEPLOYMENTS[0]!], truncated: false }),
    );
    const r = await askProfileForm(d, current);
    assert.deepEqual(prompter.picks[0]!.labels, ['Sales EU', 'Keep deployment 8', 'No default deployment']);
    assert.equal(r.input.defaultDeploymentId, 8);
  });
});

describe('the token the deployments are listed with', () => {
  const editing = { platformUrl: 'https://acme.example.com/api', storedToken: async () => 'stored' };
  it('is the typed one, else the stored one only while the URL keeps its origin', async () => {
    assert.equal(await tokenForListing('typed', editing, 'https://other.example.com/api'), 'typed');
    assert.equal(await tokenForListing(undefined, editing, 'https://acme.example.com/api/'), 'stored');
    assert.equal(await tokenForListing(undefined, editing, 'https://other.example.com/api'), undefined);
    assert.equal(await tokenForListing(undefined, editing, 'https://acme.example.com:8443/api'), undefined);
    assert.equal(await tokenForListing(undefined, undefined, 'https://acme.example.com/api'), undefined);
  });
});
