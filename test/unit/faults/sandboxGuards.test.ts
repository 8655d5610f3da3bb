// Defect 8 (sandbox side): the control endpoints refuse cross-site requests and foreign Host headers.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';

function call(port: number, method: string, headers: Record<string, string>, body = ''): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: '/__sandbox/faults', headers },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('faults: sandbox control endpoints', function () {
  this.timeout(30_000);
  let sb: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ rows: 50 });
  });
  after(async () => {
    await sb.close();
  });

  it('refuse cross-site POSTs and foreign Host headers, and serve the local user', async () => {
    const rule = JSON.stringify({ family: 'platform', status: 503 });
    const json = { 'content-type': 'application/json' };
    assert.equal(await call(sb.port, 'POST', { ...json, origin: 'https://evil.example' }, rule), 403);
    assert.equal(await call(sb.port, 'POST', { ...json, 'sec-fetch-site': 'cross-site' }, rule), 403);
    assert.equal(await call(sb.port, 'POST', { ...json, origin: 'null' }, rule), 403);
    assert.equal(await call(sb.port, 'GET', { host: `rebound.example:${sb.port}` }), 403);
    assert.deepEqual(sb.faults.list(), [], 'no refused request changed the faults');
    assert.equal(await call(sb.port, 'POST', { ...json, origin: `http://127.0.0.1:${sb.port}` }, rule), 200);
    assert.equal(await call(sb.port, 'POST', json, rule), 200);
    assert.equal(sb.faults.list().length, 2);
    assert.equal(await call(sb.port, 'DELETE', { 'sec-fetch-site': 'same-origin' }), 200);
  });
});
