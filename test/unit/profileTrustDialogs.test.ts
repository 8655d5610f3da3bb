// The questions asked before a secret goes to a host it was not stored for (profileTrust.ts): each
// modal's exact words, buttons and the hosts it names, and the token input (masked, kept open,
// trimmed, refused when blank). Loaded in plain Node with a stand-in for `vscode` that records the
// dialogs and answers them as the test says.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as TrustModule from '../../src/profiles/profileTrust';
import { forgetVscodeDependents } from './vscodeStandIn';

interface Shown {
  message: string;
  options: { modal?: boolean; detail?: string };
  items: string[];
}
interface InputOptions {
  title?: string;
  prompt?: string;
  password?: boolean;
  ignoreFocusOut?: boolean;
  validateInput?: (v: string) => string | undefined;
}
interface Recorder {
  shown: Shown[];
  inputs: InputOptions[];
  answer: (d: Shown) => string | undefined;
  typed: string | undefined;
}

const STUB_SOURCE = `
const rec = () => globalThis.__dpTrustDialogs;
module.exports = {
  window: {
    showWarningMessage: async (message, options, ...items) => {
      const d = { message, options, items };
      rec().shown.push(d);
      return rec().answer(d);
    },
    showInputBox: async (options) => {
      rec().inputs.push(options);
      return rec().typed;
    },
  },
};`;

const CTX = {
  profile: 'Prod',
  kind: 'platformToken' as const,
  origin: 'https://moved.example.org',
  scope: 'user' as const,
};

describe('profiles: the questions before a secret is sent', () => {
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;
  let dir: string;
  let trust: typeof TrustModule;
  const rec: Recorder = { shown: [], inputs: [], answer: () => undefined, typed: undefined };

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-trust-dialogs-'));
    const file = path.join(dir, 'vscode.js');
    fs.writeFileSync(file, STUB_SOURCE);
    (globalThis as { __dpTrustDialogs?: Recorder }).__dpTrustDialogs = rec;
    mod._resolveFilename = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? file : resolve.call(this, request, ...rest);
    };
    forgetVscodeDependents();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    trust = require('../../src/profiles/profileTrust') as typeof TrustModule;
  });

  after(() => {
    mod._resolveFilename = resolve;
    fs.rmSync(dir, { recursive: true, force: true });
    // Suites loaded later resolve `vscode` from the same folder: they must not find this stand-in.
    forgetVscodeDependents();
  });

  beforeEach(() => {
    rec.shown.length = 0;
    rec.inputs.length = 0;
    rec.answer = () => undefined;
    rec.typed = undefined;
  });

  it('trusting a workspace profile: a modal naming its host and the hidden user profile, one button', async () => {
    rec.answer = (d) => d.items[0];
    const yes = await trust.askTrustProfile({
      ...CTX,
      origin: 'http://127.0.0.1:9911',
      scope: 'workspace',
      userProfileUrl: 'https://prod.example.com/api',
    });
    assert.equal(yes, true);
    assert.equal(rec.shown.length, 1);
    const d = rec.shown[0]!;
    assert.equal(d.message, `Profile "Prod" comes from this workspace's settings. Trust it?`);
    assert.equal(d.options.modal, true);
    assert.deepEqual(d.items, ['Trust This Workspace Profile']);
    assert.equal(
      d.options.detail,
      [
        `This profile is defined in this workspace's settings (.vscode/settings.json or the workspace file), not in your user settings, and sends requests to 127.0.0.1:9911.`,
        `Your own profile "Prod" (prod.example.com) is hidden in this window; its tokens are never sent for this one.`,
        `Trust it only if you expect this repository to use 127.0.0.1:9911: the tokens you give this profile will be sent there. You are asked once per workspace, profile and host.`,
      ].join('\n\n'),
    );
  });

  it('without a user profile of that name, the detail has two paragraphs; Cancel is no', async () => {
    const no = await trust.askTrustProfile({ ...CTX, scope: 'workspace' });
    assert.equal(no, false);
    assert.equal(rec.shown[0]!.options.detail!.split('\n\n').length, 2);
    assert.doesNotMatch(rec.shown[0]!.options.detail!, /Your own profile/);
  });

  it('a token stored for other hosts: names them, offers send or a new one; send is send', async () => {
    rec.answer = (d) => d.items[0];
    const a = await trust.askOriginMismatch(CTX, ['https://a.example.com', 'https://b.example.com:8443']);
    assert.deepEqual(a, { kind: 'send' });
    const d = rec.shown[0]!;
    assert.equal(
      d.message,
      'The platform API token of "Prod" was stored for a.example.com, b.example.com:8443, but the profile now sends requests to moved.example.org.',
    );
    assert.equal(
      d.options.detail,
      'It is never sent to another host without your say. Send it to moved.example.org only if that is the same service (a new address of your tenant); otherwise enter the token for moved.example.org.',
    );
    assert.equal(d.options.modal, true);
    assert.deepEqual(d.items, ['Send It to moved.example.org', 'Enter a New One']);
    assert.equal(trust.sendButton('https://x.example.com:8443'), 'Send It to x.example.com:8443');
  });

  it('for a workspace profile it says so; with no host known it says "another host"', async () => {
    await trust.askOriginMismatch({ ...CTX, kind: 'aiApiKey', scope: 'workspace' }, []);
    assert.equal(
      rec.shown[0]!.message,
      'The AI API key of "Prod" was stored for another host, but the profile now sends requests to moved.example.org.',
    );
    assert.match(rec.shown[0]!.options.detail!, / The profile comes from this workspace's settings\.$/);
  });

  it('a plain token from before: the question and detail name the profile and the host', async () => {
    const none = await trust.askLegacySecret({ ...CTX, kind: 'dataApiToken', scope: 'workspace' });
    assert.equal(none, undefined, 'Cancel sends nothing');
    const d = rec.shown[0]!;
    assert.equal(d.message, 'Send the Data API token stored for "Prod" to moved.example.org?');
    assert.equal(
      d.options.detail,
      `It was stored before tokens were tied to a host, and "Prod" now comes from this workspace's settings, which point it at moved.example.org. From now on it is sent only to the host you choose here.`,
    );
    assert.equal(d.options.modal, true);
  });

  it('"Enter a New One" asks for the token masked, kept open, trimmed; a blank one is nothing', async () => {
    rec.answer = (d) => d.items[1];
    rec.typed = '  new-token-123  ';
    assert.deepEqual(await trust.askOriginMismatch(CTX, ['https://a.example.com']), {
      kind: 'new',
      value: 'new-token-123',
    });
    const i = rec.inputs[0]!;
    assert.equal(i.title, 'platform API token for "Prod" at moved.example.org');
    assert.equal(i.prompt, "Stored in VS Code's SecretStorage and sent only to moved.example.org.");
    assert.equal(i.password, true);
    assert.equal(i.ignoreFocusOut, true);
    assert.equal(i.validateInput!('  '), 'Paste the token.');
    assert.equal(i.validateInput!(' t '), undefined);
    rec.typed = '   ';
    assert.equal(await trust.askOriginMismatch(CTX, []), undefined);
    rec.typed = undefined;
    assert.equal(await trust.askOriginMismatch(CTX, []), undefined, 'Escape in the input');
    rec.answer = () => 'Something else';
    assert.equal(await trust.askOriginMismatch(CTX, []), undefined);
    assert.equal(rec.inputs.length, 3, 'no input asked unless "Enter a New One"');
  });
});
