// The workspace's chat list, rule by rule: newest first, one entry per chat (its first question
// stays its title), at most 50, by profile, removal, and what an unreadable stored list gives.
import assert from 'node:assert/strict';
import { ChatHistory, type MementoLike } from '../../../src/chat/chatHistory';

function memento(initial?: unknown): MementoLike & { value: unknown; keys: string[] } {
  const m = {
    value: initial,
    keys: [] as string[],
    get: <T>(key: string) => (m.keys.push(key), m.value as T | undefined),
    update: (key: string, value: unknown) => {
      m.keys.push(key);
      m.value = value;
      return Promise.resolve();
    },
  };
  return m;
}

const entry = (chatId: string, profile = 'Sandbox') => ({
  chatId,
  agentUrl: 'https://ai/agents/1',
  agentName: 'Analyst',
  title: `title ${chatId}`,
  profile,
});

describe('ChatHistory rules', () => {
  it('newest first, one entry per chat, the first title kept, the time of the last turn', async () => {
    const m = memento();
    const h = new ChatHistory(m);
    await h.record(entry('a'), new Date('2026-11-01T00:00:00Z'));
    await h.record(entry('b'), new Date('2026-11-02T00:00:00Z'));
    await h.record(
      { ...entry('a'), title: 'renamed', agentName: 'SQL Helper' },
      new Date('2026-11-03T00:00:00Z'),
    );
    assert.deepEqual(h.list(), [
      { ...entry('a'), agentName: 'SQL Helper', updatedAt: '2026-11-03T00:00:00.000Z' },
      { ...entry('b'), updatedAt: '2026-11-02T00:00:00.000Z' },
    ]);
    assert.ok(m.keys.length > 0);
    assert.ok(m.keys.every((k) => k === 'dashboardPlatform.chat.history'));
  });

  it('keeps at most 50 chats, dropping the oldest', async () => {
    const h = new ChatHistory(memento());
    for (let i = 0; i < 52; i++) await h.record(entry(`c${i}`));
    const ids = h.list().map((e) => e.chatId);
    assert.equal(ids.length, 50);
    assert.equal(ids[0], 'c51');
    assert.equal(ids.at(-1), 'c2');
  });

  it('lists one profile’s chats when asked, removes a chat, and reads a broken list as empty', async () => {
    const h = new ChatHistory(memento());
    await h.record(entry('a', 'Sandbox'));
    await h.record(entry('b', 'Prod'));
    assert.deepEqual(
      h.list('Prod').map((e) => e.chatId),
      ['b'],
    );
    assert.deepEqual(
      h.list().map((e) => e.chatId),
      ['b', 'a'],
    );
    await h.remove('b');
    assert.deepEqual(
      h.list().map((e) => e.chatId),
      ['a'],
    );
    assert.deepEqual(h.list('Prod'), []);
    assert.deepEqual(new ChatHistory(memento([{ chatId: 3 }])).list(), []);
    assert.deepEqual(new ChatHistory(memento('nope')).list(), []);
    assert.deepEqual(new ChatHistory(memento()).list(), []);
  });

  it('no stopped turn: no stopped key', async () => {
    const m = memento();
    await new ChatHistory(m).record(entry('a'));
    assert.ok(!('stopped' in (m.value as Record<string, unknown>[])[0]!));
  });
});
