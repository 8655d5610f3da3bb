// Add Profile as a user walks it (issue 25 item 7): five counted steps ("Add Profile (2/5)") with a
// Back button, the default deployment picked by name from the deployments the URL and token just
// typed list, a review that is one small form, the connection test before anything is saved. Real
// quick input, driven by keys and clicks; light and dark screenshots of the deployment step.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { click, getApi, pageText, pressKeys, screenshot, typeText, waitFor, setTheme } from './harness';

const NAME = 'IT Add Profile';
const QUICK = '.quick-input-widget';

/* eslint-disable @typescript-eslint/no-explicit-any -- the extension's own objects */
let api: any;
let sandbox: { port: number; urls: { platform: string }; tokens: { admin: string } };

async function quickShows(text: string | RegExp): Promise<string> {
  return waitFor(
    `the quick input showing ${String(text)}`,
    async () => {
      const t = (await pageText(QUICK)) ?? '';
      return (typeof text === 'string' ? t.includes(text) : text.test(t)) ? t : undefined;
    },
    30_000,
  );
}

async function answer(step: string, prompt: string, text: string): Promise<void> {
  const t = await quickShows(prompt);
  assert.ok(t.includes(step), `"${step}" in the title: ${t}`);
  if (text) await typeText(text);
  await pressKeys(['Enter']);
}

describe('Add Profile (five counted steps, the default deployment by name)', function () {
  this.timeout(240_000);

  before(async function () {
    api = await getApi();
    if (!(await pressKeys([]))) this.skip(); // real quick input needs UI control (code-server route)
    await vscode.commands.executeCommand('dashboardPlatform.sandbox.use');
    sandbox = await api.sandbox.start();
  });

  after(async () => {
    await pressKeys(['Escape']);
    await setTheme('Default Light Modern');
    if (api.services.profiles.get(NAME))
      await vscode.commands.executeCommand('dashboardPlatform.profiles.remove', { name: NAME });
    await vscode.commands.executeCommand('dashboardPlatform.sandbox.use');
  });

  it('names the step, goes Back keeping what was typed, lists deployments by name, and saves the one picked', async () => {
    const res = await fetch(`${sandbox.urls.platform}/v1/deployments?first=100`, {
      headers: { authorization: `Bearer ${sandbox.tokens.admin}` },
    });
    const deployments = ((await res.json()) as { items: { id: number; name: string }[] }).items;
    // The sandbox's first deployment (its model compiles, so the connection test passes); it is
    // not preselected: Add starts on "No default deployment".
    const target = deployments.find((d) => d.id === 1)!;
    assert.ok(deployments.length >= 2 && target.name, 'the sandbox lists named deployments');

    const adding = Promise.resolve(vscode.commands.executeCommand('dashboardPlatform.profiles.add'));
    await answer('Add Profile (1/5)', 'Profile name', NAME);
    await answer('Add Profile (2/5)', 'Platform API base URL', sandbox.urls.platform);
    await answer('Add Profile (3/5)', 'platform API token', sandbox.tokens.admin);

    // Step 4 lists every deployment by name (fetched with the URL and token typed), never an id box.
    await quickShows('Add Profile (4/5)');
    let text = await quickShows(target.name);
    for (const d of deployments) assert.ok(text.includes(d.name), `"${d.name}" offered: ${text}`);
    assert.ok(text.includes('No default deployment'));
    assert.doesNotMatch(text, /deployment id/i);
    await screenshot('add-profile-deployment-light', 800, { selector: QUICK });
    await setTheme('Default Dark Modern');
    await screenshot('add-profile-deployment-dark', 1200, { selector: QUICK });
    await setTheme('Default Light Modern');

    // Back (the title bar's button) returns to the token, which is kept: Enter goes on.
    await click({ selector: `${QUICK} .codicon-quick-input-back` });
    await quickShows('Add Profile (3/5)');
    await pressKeys(['Enter']);
    await quickShows('Add Profile (4/5)');
    await quickShows(target.name);
    await typeText(target.name);
    await pressKeys(['Enter']);

    // The review names the deployment; confirming runs the connection test before saving.
    text = await quickShows('Add Profile (5/5)');
    assert.ok(text.includes(`Default deployment: ${target.name}`), text);
    assert.ok(text.includes('Test the connection and save'));
    await pressKeys(['Enter']);
    const dialog = await waitFor(
      'the connection test',
      async () => {
        const t = (await pageText('.monaco-dialog-box')) ?? '';
        return t.includes(NAME) ? t : undefined;
      },
      60_000,
    );
    assert.match(dialog, /connected/);
    assert.equal(api.services.profiles.get(NAME), undefined, 'nothing saved before the choice');
    await click({ selector: '.monaco-dialog-box .monaco-button:text-is("Save")' });
    await adding;

    const saved = api.services.profiles.get(NAME);
    assert.equal(saved?.defaultDeploymentId, target.id, 'the deployment picked by name is the default');
    assert.equal(saved?.platformUrl, sandbox.urls.platform);
    assert.equal((await api.services.profiles.getSecret('platformToken', NAME))?.value, sandbox.tokens.admin);
    assert.equal(api.services.profiles.active()?.profile.name, NAME, 'the new profile is active');
  });
});
