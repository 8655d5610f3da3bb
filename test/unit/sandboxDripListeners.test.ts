// The fault matrix printed a MaxListenersExceededWarning (11 abort listeners on one AbortSignal):
// the sandbox's dripped stream slept once a line and each sleep left its abort listener on the
// request's signal. These count the listeners while a dripped stream is written.
import * as assert from 'node:assert/strict';
import { EventEmitter, getEventListeners } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createContext, type SandboxContext } from '../../src/sandbox/context';

/** A response that takes every write (no back-pressure) and records what was written. */
function fakeResponse(): ServerResponse & { written: string[] } {
  const res = Object.assign(new EventEmitter(), {
    written: [] as string[],
    destroyed: false,
    headersSent: false,
    writableFinished: false,
    writeHead() {
      res.headersSent = true;
      return res;
    },
    flushHeaders() {},
    write(text: string) {
      res.written.push(text);
      return true;
    },
    end(text?: string) {
      if (text) res.written.push(text);
      res.writableFinished = true;
      res.emit('close');
      return res;
    },
  });
  return res as unknown as ServerResponse & { written: string[] };
}

function context(res: ServerResponse, dripMs: number): SandboxContext {
  return createContext({
    req: {} as IncomingMessage,
    res,
    family: 'ai',
    method: 'POST',
    path: '/x',
    query: new URLSearchParams(),
    body: undefined,
    credential: undefined,
    requestId: 'r1',
    fault: { family: 'ai', dripMs },
  });
}

describe('sandbox: a dripped stream leaves no abort listener behind', () => {
  it('holds no abort listener on the request signal between lines, over 30 dripped lines', async () => {
    const res = fakeResponse();
    const ctx = context(res, 1);
    const counts: number[] = [];
    async function* lines(): AsyncGenerator<unknown> {
      for (let i = 0; i < 30; i++) {
        counts.push(getEventListeners(ctx.signal, 'abort').length);
        yield { i };
      }
    }
    await ctx.ndjson(lines());
    assert.equal(res.written.length, 30);
    assert.equal(counts.length, 30);
    assert.deepEqual(counts, new Array(30).fill(0));
    assert.equal(getEventListeners(ctx.signal, 'abort').length, 0);
  });

  it('a drip wait still ends at once when the client goes away', async () => {
    const res = fakeResponse();
    // A minute's drip: only the abort can end the wait before the test's own timeout.
    const ctx = context(res, 60_000);
    async function* lines(): AsyncGenerator<unknown> {
      yield { i: 0 };
      yield { i: 1 };
    }
    const writing = ctx.ndjson(lines());
    // The first line is written, then the wait starts; the client closes the connection.
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.equal(getEventListeners(ctx.signal, 'abort').length, 1);
    res.emit('close');
    await writing;
    assert.equal(ctx.signal.aborted, true);
    assert.equal(res.written.length, 1);
  });
});
