// The Sandbox profile runs the sandbox off the extension host's thread (issue 20, defect 7): its SQL
// engine is synchronous, so in the host's thread a large load stalls the editor. These tests start it
// exactly as the extension does (loadSandbox + SandboxManager) and fail if it runs in this thread.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { threadId } from 'node:worker_threads';
import { silentLogger } from '../../src/api/log';
import { loadSandbox, startSandboxWorker, type SandboxHandle } from '../../src/profiles/sandboxLoader';
import { SandboxManager } from '../../src/profiles/sandboxProfile';

async function load(h: SandboxHandle): Promise<Response> {
  return fetch(`${h.urls.dataApi}/v1/load`, {
    method: 'POST',
    headers: { authorization: h.tokens.dataApi, 'content-type': 'application/json' },
    body: JSON.stringify({ queryType: 'multi', query: { measures: ['orders.count'] } }),
  });
}

describe('the Sandbox profile runs the sandbox in a worker thread', function () {
  this.timeout(60_000);
  let manager: SandboxManager<SandboxHandle>;
  const lines: string[] = [];

  before(() => {
    manager = new SandboxManager(loadSandbox, () => ({ rows: 2_000 }), {
      ...silentLogger,
      info: (m) => lines.push(m),
    });
  });
  after(() => manager.stop());

  it('reports a thread other than the host thread, and serves loads from it', async () => {
    const h = await manager.start();
    assert.equal(h.pid, process.pid, 'a worker thread of this process');
    assert.notEqual(h.threadId, threadId, 'the sandbox must not run in the extension host thread');
    assert.ok(h.threadId > 0);
    const res = await load(h);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { results: { data: Record<string, string>[] }[] };
    assert.equal(body.results[0]!.data[0]!['orders.count'], '2000');
    assert.ok(
      lines.some((l) => /Sandbox listening on http:\/\/127\.0\.0\.1:\d+ \(2000 orders\)/.test(l)),
      `the worker's log lines reach the host logger: ${lines.join(' | ')}`,
    );
  });

  it('keeps fault injection through the control endpoints', async () => {
    const h = await manager.start();
    const origin = new URL(h.urls.platform).origin;
    const put = await fetch(`${origin}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ family: 'data', route: '/v1/load', status: 503, times: 1 }),
    });
    assert.equal(put.status, 200, await put.text());
    assert.equal((await load(h)).status, 503);
    assert.equal((await load(h)).status, 200, 'the rule applied once');
  });

  it('stops the worker on stop(), and starts a new one on next use', async () => {
    const h = await manager.start();
    assert.equal(await manager.stop(), true);
    await h.exited; // resolves only once the thread has ended
    assert.equal(manager.current, undefined);
    await assert.rejects(load(h), 'nothing listens on the old port');
    const again = await manager.start();
    assert.notEqual(again.threadId, h.threadId);
    assert.equal((await load(again)).status, 200);
  });

  it('forgets a worker that died on its own, so the next use starts afresh', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-sbx-worker-'));
    const file = path.join(dir, 'dies.js');
    // A worker that says it started, then exits without being asked.
    fs.writeFileSync(
      file,
      `const { parentPort, threadId } = require('node:worker_threads');
       parentPort.once('message', () => {
         parentPort.postMessage({ type: 'started', info: { port: 1, urls: { platform: 'http://127.0.0.1:1/api', dataApi: '', ai: [] }, tokens: {}, threadId, pid: process.pid } });
         setTimeout(() => process.exit(3), 50);
       });`,
    );
    try {
      const changes: (SandboxHandle | undefined)[] = [];
      const m = new SandboxManager(
        () => Promise.resolve({ startSandbox: (o) => startSandboxWorker(o, file) }),
        () => ({}),
        silentLogger,
      );
      m.onDidChange((x) => changes.push(x));
      const h = await m.start();
      await h.exited;
      await new Promise((r) => setImmediate(r));
      assert.equal(m.current, undefined);
      assert.equal(changes.length, 2);
      assert.equal(changes[1], undefined);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects the start with the reason when the worker cannot start', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-sbx-worker-'));
    const file = path.join(dir, 'fails.js');
    fs.writeFileSync(
      file,
      `const { parentPort } = require('node:worker_threads');
       parentPort.once('message', () => parentPort.postMessage({ type: 'failed', message: 'port in use' }));`,
    );
    try {
      await assert.rejects(startSandboxWorker({}, file), /port in use/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
