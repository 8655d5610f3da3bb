// The chat on a data-model branch in dev mode: ChatSession sends the AI API's `activeBranchName`
// (with `isDefaultBranch: false`) read at each turn, and the sandbox's agent answers from that
// branch's compiled model; a branch that is not running gets the published "Bad branch" error.
import * as assert from 'node:assert/strict';
import { AiClient } from '../../src/api';
import { ChatSession } from '../../src/chat/chatSession';
import type { HostToWebview } from '../../src/shared/chatProtocol';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';

const MEASURE = `      - name: branch_only_total
        sql: amount
        type: sum
`;

describe('ChatSession on a dev branch (sandbox agent)', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let client: AiClient;
  before(async () => {
    sb = await startSandbox({ rows: 500, aiEventDelayMs: 1 });
    client = new AiClient({ baseUrl: sb.urls.ai[0]!.url, apiKey: async () => sb.tokens.aiApiKey });
    const build = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`http://127.0.0.1:${sb.port}/build/api/v1/deployments/1${path}`, {
        method,
        headers: { authorization: `Bearer ${sb.tokens.admin}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      assert.equal(res.status, 200, `${method} ${path}: ${await res.clone().text()}`);
      return (await res.json()) as Record<string, unknown>;
    };
    // A branch in dev mode with a measure that main does not have.
    await build('POST', '/branches', { name: 'chat-dev', activate: true });
    const files = await fetch(
      `http://127.0.0.1:${sb.port}/build/api/v1/deployments/1/data-model/files?branchName=chat-dev&withContent=true`,
      { headers: { authorization: `Bearer ${sb.tokens.admin}` } },
    );
    const tree = JSON.stringify(await files.json());
    assert.ok(tree.includes('orders.yml'));
    const { SEED_FILES } = await import('../../src/sandbox/build/seedModel');
    const orders = SEED_FILES.find(([p]) => p === 'model/cubes/orders.yml')![1];
    const edited = orders.replace(/(\n\s*measures:\n)/, `$1${MEASURE}`);
    assert.notEqual(edited, orders);
    await build('PUT', '/data-model/files', {
      branchName: 'chat-dev',
      files: [{ path: 'model/cubes/orders.yml', content: edited }],
    });
  });
  after(async () => {
    await client?.close();
    await sb?.close();
  });

  async function turn(branch: string | undefined): Promise<HostToWebview[]> {
    const ops: HostToWebview[] = [];
    const session = new ChatSession({
      client,
      sessionSettings: { externalId: 'tester' },
      post: (op) => ops.push(op),
      branch: () => branch,
    });
    await session.send('How many orders by status?');
    return ops;
  }
  const metaResult = (ops: HostToWebview[]) => {
    const call = ops.find((o) => o.type === 'toolCall' && o.name === 'cubeMetaApi');
    assert.ok(
      call && call.type === 'toolCall',
      `a meta tool call in ${JSON.stringify(ops.map((o) => o.type))}`,
    );
    return JSON.stringify(call.result ?? call.resultText ?? '');
  };

  it("answers from the branch's model when the branch is named, from main's otherwise", async () => {
    const onBranch = await turn('chat-dev');
    assert.match(metaResult(onBranch), /orders\.branch_only_total/);
    assert.ok(onBranch.some((o) => o.type === 'final'));
    const onMain = await turn(undefined);
    assert.doesNotMatch(metaResult(onMain), /branch_only_total/);
  });

  it('shows the "Bad branch" error for a branch that is not running', async () => {
    const ops = await turn('no-such-branch');
    const error = ops.find((o) => o.type === 'error');
    assert.ok(error && error.type === 'error', JSON.stringify(ops));
    assert.match(error.message, /Bad branch "no-such-branch"/);
  });
});
