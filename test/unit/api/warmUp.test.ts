// The API bundle's preload runs one query through the client on loopback so that the session's first
// real query does not compile the client's code on its clock.
import * as assert from 'node:assert/strict';
import { warmUp } from '../../../src/api/warmUp';

const servers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
const sockets = (): number => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;

describe('warmUp', () => {
  it('reads a streamed answer end to end through the client and leaves no server or connection open', async () => {
    const [s0, c0] = [servers(), sockets()];
    assert.equal(await warmUp(), 1, 'the one row of its answer went through the NDJSON reader');
    // Handles leave the list a few loop turns after their close; wait for that, boundedly.
    for (let i = 0; i < 200 && (servers() > s0 || sockets() > c0); i++)
      await new Promise((r) => setTimeout(r, 5));
    assert.equal(servers(), s0, 'its loopback server is closed');
    assert.equal(sockets(), c0, 'its connection is closed');
  });
});
