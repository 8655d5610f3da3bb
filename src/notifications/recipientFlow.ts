// Asking for a new recipient of a notification (the removal identity, `{type, id}`, is built by
// recipientRemoval in src/api/platform/notifications.ts).
import type { UserRef } from '../ui/pickerSources';
import type { PageOfChoices } from '../ui/quickInputTypes';
import type { Prompter } from '../ui/prompter';

export type RecipientInput =
  | { type: 'USER'; userId?: number; email?: string }
  | { type: 'EMBED_USER'; embedTenantName: string; externalId: string }
  | { type: 'SLACK'; channelId: string; channelName?: string };

const required = (what: string) => (v: string) => (v.trim() === '' ? `Enter the ${what}.` : undefined);

async function asEmails(page: PageOfChoices<UserRef>): Promise<PageOfChoices<string>> {
  return {
    choices: page.choices.map((c) => ({ ...c, value: c.value.email })),
    ...(page.more ? { more: () => page.more!().then(asEmails) } : {}),
  };
}

export async function askRecipient(
  p: Prompter,
  users?: () => Promise<PageOfChoices<UserRef>>,
): Promise<RecipientInput> {
  const type = await p.pick('Add Recipient', [
    { label: 'User', description: 'by e-mail or user id', value: 'USER' as const },
    { label: 'Embed user', description: 'tenant name and external id', value: 'EMBED_USER' as const },
    { label: 'Slack channel', description: 'channel id', value: 'SLACK' as const },
  ]);
  if (type === 'USER') {
    const valid = (v: string) =>
      /^\d+$/.test(v.trim()) || /^[^@\s]+@[^@\s]+$/.test(v.trim())
        ? undefined
        : 'Enter an e-mail or a user id.';
    const first = users ? await users() : { choices: [] };
    const who = await p.pick(
      'Add Recipient: user',
      first.choices.map((c) => ({ ...c, value: c.value.email })),
      {
        placeHolder: 'Search users by e-mail or name, or type an e-mail or user id',
        ...(first.more ? { more: () => first.more!().then(asEmails) } : {}),
        typed: { validate: valid, value: (v) => v.trim(), hint: 'An e-mail or a user id' },
      },
    );
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
