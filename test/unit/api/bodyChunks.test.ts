// A response body is handed to its reader chunk by chunk as it arrived: a Readable's own iterator
// joins every chunk buffered while the reader was busy into one new buffer (a copy of the body).
import * as assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { CallSignal, chunksOf, wrapBody } from '../../../src/api/net/request';

function paused(chunks: Buffer[], then?: Error): Readable {
  const r = new Readable({ read() {} });
  for (const c of chunks) r.push(c);
  if (then) setImmediate(() => r.destroy(then));
  else r.push(null);
  return r;
}

describe('response body chunks', () => {
  const pieces = ['{"data":[[1]]}\n', '{"data":[[2]]}\n', '{"data":[[3]]}\n'].map((t) => Buffer.from(t));

  it('hands over each buffered chunk itself, never a joined copy', async () => {
    const got: Uint8Array[] = [];
    for await (const c of chunksOf(paused(pieces))) got.push(c);
    assert.equal(got.length, 3);
    got.forEach((c, i) => assert.equal(c, pieces[i], `chunk ${i} is the pushed buffer`));
    // What the Readable's own iterator does with the same stream: one joined buffer.
    const joined: Uint8Array[] = [];
    for await (const c of paused(pieces) as AsyncIterable<Uint8Array>) joined.push(c);
    assert.equal(joined.length, 1);
  });

  it("is how every response body is read (the transport's wrapBody)", async () => {
    const ctx = { method: 'POST', url: 'http://127.0.0.1/v1/cubesql', origin: 'http://127.0.0.1' };
    const got: Uint8Array[] = [];
    for await (const c of wrapBody(paused(pieces), new CallSignal(undefined, undefined), ctx)) got.push(c);
    assert.equal(got.length, 3);
    assert.equal(got[2], pieces[2]);
  });

  it('hands over what arrived before an error, then throws it', async () => {
    const got: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const c of chunksOf(paused(pieces.slice(0, 2), new Error('socket reset'))))
          got.push(Buffer.from(c).toString());
      })(),
      /socket reset/,
    );
    assert.deepEqual(got, ['{"data":[[1]]}\n', '{"data":[[2]]}\n']);
  });

  it('fails a body closed before its end, as cut off', async () => {
    const r = new Readable({ read() {} });
    r.push(pieces[0]);
    setImmediate(() => r.destroy());
    await assert.rejects(
      (async () => {
        for await (const _ of chunksOf(r));
      })(),
      { code: 'ERR_STREAM_PREMATURE_CLOSE' },
    );
  });

  it('destroys the stream when the reader stops early', async () => {
    const r = paused(pieces);
    for await (const _ of chunksOf(r)) break;
    assert.equal(r.destroyed, true);
  });

  it('pauses the stream while the reader is behind, so memory stays bounded', async () => {
    let produced = 0;
    const r = new Readable({
      read() {
        // Each read() is the stream asking for more: past its 16 KiB buffer, not while paused.
        this.push(Buffer.alloc(4096, produced++ % 256));
        if (produced === 1000) this.push(null);
      },
    });
    const it = chunksOf(r)[Symbol.asyncIterator]();
    await it.next();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(r.isPaused(), true, 'paused while chunks wait');
    assert.ok(produced < 100, `produced ${produced} chunks with one read`);
    let n = 1;
    while (!(await it.next()).done) n++;
    assert.equal(n, 1000);
  });
});
