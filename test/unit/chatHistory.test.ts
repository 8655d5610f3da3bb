// The workspace's chat list: the turns a user stopped are kept with their chat (the server's thread
// does not say a turn was stopped), merged over later turns, and read from entries saved before.
import * as assert from 'node:assert/strict';
import { ChatHistory, type MementoLike } from '../../src/chat/chatHistory';

function memento(initial?: unknown): MementoLike & { value: unknown } {
  const m = {
    value: initial,
    get: <T>() => m.value as T | undefined,
    update: (_key: string, value: unknown) => {
      m.value = value;
      return Promise.resolve();
    },
  };
  return m;
}

describe('ChatHistory', () => {
  const base = {
    chatId: 'c1',
    agentUrl: 'https://ai/agents/1',
    agentName: 'Analyst',
    title: 'Q',
    profile: 'Sandbox',
  };

  it('keeps the stopped turns of a chat across later turns', async () => {
    const h = new ChatHistory(memento());
    await h.record({ ...base, stopped: ['1800000000000-message'] });
    await h.record({ ...base, title: 'later' });
    await h.record({ ...base, stopped: ['1800000000002-message'] });
    assert.deepEqual(h.stoppedTurns('c1'), ['1800000000000-message', '1800000000002-message']);
    assert.equal(h.list()[0]!.title, 'Q', 'the first question stays the title');
    assert.deepEqual(h.stoppedTurns('other'), []);
  });

  it('reads entries saved before stopped turns were kept', () => {
    const h = new ChatHistory(memento([{ ...base, updatedAt: '2026-11-01T00:00:00.000Z' }]));
    assert.equal(h.list().length, 1);
    assert.deepEqual(h.stoppedTurns('c1'), []);
  });
});
