// Asking for a new recipient of a notification (the removal identity, `{type, id}`, is built by
// recipientRemoval in src/api/platform/notifications.ts).
import type { Prompter } from './prompter';

export type RecipientInput =
  | { type: 'USER'; userId?: number; email?: string }
  | { type: 'EMBED_USER'; embedTenantName: string; externalId: string }
  | { type: 'SLACK'; channelId: string; channelName?: string };

const required = (what: string) => (v: string) => (v.trim() === '' ? `Enter the ${what}.` : undefined);

export async function askRecipient(p: Prompter): Promise<RecipientInput> {
  const type = await p.pick('Add Recipient', [
    { label: 'User', description: 'by e-mail or user id', value: 'USER' as const },
    { label: 'Embed user', description: 'tenant name and external id', value: 'EMBED_USER' as const },
    { label: 'Slack channel', description: 'channel id', value: 'SLACK' as const },
  ]);
  if (type === 'USER') {
    const who = await p.input({
      title: 'Add Recipient: user',
      prompt: 'The user’s e-mail or numeric user id.',
      validate: (v) =>
        /^\d+$/.test(v.trim()) || /^[^@\s]+@[^@\s]+$/.test(v.trim())
          ? undefined
          : 'Enter an e-mail or a user id.',
    });
    return /^\d+$/.test(who.trim()) ? { type, userId: Number(who.trim()) } : { type, email: who.trim() };
  }
  if (type === 'EMBED_USER') {
    const embedTenantName = await p.input({
      title: 'Add Recipient: embed tenant',
      prompt: 'The embed tenant name.',
      validate: required('embed tenant name'),
    });
    const externalId = await p.input({
      title: 'Add Recipient: external id',
      prompt: 'The embed user’s external id.',
      validate: required('external id'),
    });
    return { type, embedTenantName: embedTenantName.trim(), externalId: externalId.trim() };
  }
  const channelId = await p.input({
    title: 'Add Recipient: Slack channel',
    prompt: 'The Slack channel id.',
    validate: required('channel id'),
  });
  return { type, channelId: channelId.trim() };
}
