// AI API wire shapes: the chat request, each NDJSON line of stream-chat-state, and the events the
// client turns them into.
import { z } from 'zod';

export const MESSAGE_ID_PATTERN = /^\d{13,}-message$/;

export const SessionSettingsSchema = z.looseObject({
  externalId: z.string().optional(),
  internalId: z.string().optional(),
  email: z.string().optional(),
  userAttributes: z.array(z.looseObject({ name: z.string(), value: z.unknown() })).optional(),
  groups: z.array(z.string()).optional(),
  roles: z.array(z.string()).optional(),
  timezone: z.string().optional(),
  securityContext: z.record(z.string(), z.unknown()).optional(),
});
export type SessionSettings = z.infer<typeof SessionSettingsSchema>;

const IDENTITY_WORDS = /externalId|internalId|sessionSettings|session settings|external user|internal user/i;

/**
 * The AI API requires `sessionSettings.externalId` or `internalId`. When its refusal is about the
 * identity, the message gains what to change: the profile's AI session identity setting.
 */
export function explainSessionRefusal(message: string): string {
  if (!IDENTITY_WORDS.test(message)) return message;
  return `${message} The AI API did not accept the session identity: set session.externalId (an external user, lowercase) or session.internalId (the username of an existing user) of the profile with "Dashboard Platform: Edit Profile…" (setting dashboardPlatform.profiles).`;
}

export const ChatRequestSchema = z.looseObject({
  input: z.string().optional(),
  chatId: z.string().optional(),
  messageId: z
    .string()
    .regex(MESSAGE_ID_PATTERN, 'must look like <13+ digit ms timestamp>-message')
    .optional(),
  sessionSettings: SessionSettingsSchema,
  activeBranchName: z.string().optional(),
  isDefaultBranch: z.boolean().optional(),
});
export type ChatRequest = z.infer<typeof ChatRequestSchema>;

export const ToolCallWireSchema = z.looseObject({
  // Published as optional: a call without a name is shown as a generic tool.
  name: z
    .string()
    .optional()
    .transform((v) => v ?? 'tool'),
  input: z.string().optional(),
  result: z.string().optional(),
});

/** One line of the stream, as sent (every field optional; the id and sentinels tell them apart). */
export const ChatLineSchema = z.looseObject({
  id: z.string().optional(),
  role: z.enum(['user', 'assistant']).or(z.string()).optional(),
  content: z.string().optional(),
  thinking: z.string().optional(),
  isDelta: z.boolean().optional(),
  isInProcess: z.boolean().optional(),
  sort: z.number().optional(),
  graphPath: z.array(z.string()).optional(),
  toolCall: ToolCallWireSchema.optional(),
  state: z.record(z.string(), z.unknown()).optional(),
  type: z.string().optional(),
  code: z.string().optional(),
  error: z.string().optional(),
  retryable: z.boolean().optional(),
  messageId: z.string().optional(),
  usage: z.record(z.string(), z.unknown()).optional(),
});
export type ChatLine = z.infer<typeof ChatLineSchema>;

/** A chat message merged from its deltas. */
export type ChatMessage = ChatLine & { id: string };

export const UsageSchema = z.looseObject({
  llmCalls: z.number().optional(),
  inputTokens: z.number().optional(),
  outputTokens: z.number().optional(),
  totalTokens: z.number().optional(),
  cacheReadTokens: z.number().optional(),
  cacheWriteTokens: z.number().optional(),
  models: z.array(z.string()).optional(),
});
export type ChatUsage = z.infer<typeof UsageSchema>;

export interface ParsedToolCall {
  name: string;
  input: unknown;
  result?: unknown;
  rawInput: string;
  rawResult?: string;
  /** The tool failed: `result` was `{"error": ...}`. */
  error?: string;
}

export type ChatEvent =
  | { type: 'cutoff'; chatId?: string; isStreaming?: boolean; suspendedMessageId?: string }
  | { type: 'message'; message: ChatMessage; delta?: string }
  | { type: 'toolCall'; message: ChatMessage; toolCall: ParsedToolCall }
  | { type: 'final'; message: ChatMessage }
  | { type: 'suspended'; retryable: boolean; chatId?: string; messageId?: string; reason?: string }
  | { type: 'aborted' }
  | { type: 'error'; message: string }
  | { type: 'usage'; usage: ChatUsage };
