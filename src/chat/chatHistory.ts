// This workspace's chats (id, agent, first question, time), newest first, kept in workspaceState.
// Only ids and titles are stored: the server holds the conversation and returns it by chatId.
import { z } from 'zod';

const entry = z.object({
  chatId: z.string(),
  agentUrl: z.string(),
  agentName: z.string(),
  title: z.string(),
  profile: z.string(),
  updatedAt: z.string(),
  /** Turns (user messageIds) the user stopped: the server's thread does not say a turn was stopped. */
  stopped: z.array(z.string()).optional(),
});
export type ChatHistoryEntry = z.infer<typeof entry>;

export interface MementoLike {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

const KEY = 'dashboardPlatform.chat.history';
const MAX_ENTRIES = 50;

export class ChatHistory {
  constructor(private readonly memento: MementoLike) {}

  list(profile?: string): ChatHistoryEntry[] {
    const parsed = z.array(entry).safeParse(this.memento.get(KEY) ?? []);
    const all = parsed.success ? parsed.data : [];
    return profile === undefined ? all : all.filter((e) => e.profile === profile);
  }

  async record(next: Omit<ChatHistoryEntry, 'updatedAt'>, now = new Date()): Promise<void> {
    const rest = this.list().filter((e) => e.chatId !== next.chatId);
    const previous = this.list().find((e) => e.chatId === next.chatId);
    const stopped = [...new Set([...(previous?.stopped ?? []), ...(next.stopped ?? [])])];
    const updated: ChatHistoryEntry = {
      ...next,
      title: previous?.title ?? next.title,
      updatedAt: now.toISOString(),
      ...(stopped.length ? { stopped } : {}),
    };
    await this.memento.update(KEY, [updated, ...rest].slice(0, MAX_ENTRIES));
  }

  /** The turns of a chat the user stopped. */
  stoppedTurns(chatId: string): string[] {
    return this.list().find((e) => e.chatId === chatId)?.stopped ?? [];
  }

  async remove(chatId: string): Promise<void> {
    await this.memento.update(
      KEY,
      this.list().filter((e) => e.chatId !== chatId),
    );
  }
}
