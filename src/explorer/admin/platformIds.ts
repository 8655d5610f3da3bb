// Platform user ids (the numbers /v1/users, /v1/roles and attribute values take) of SCIM users.
// The SCIM document types a user's id as any string (its example is a UUID) and the platform API
// publishes no user list or look-up by e-mail, so an id is known only where the SCIM id is a
// number, or where the platform answered one for the user's e-mail (a user created here) or the
// admin typed it. Kept for the session, by lower-case e-mail. No imports: the tree uses it.

const byEmail = new Map<string, number>();

interface ScimLike {
  id?: unknown;
  userName?: unknown;
  emails?: unknown;
}

/** A SCIM user's e-mails: its userName and its `emails` values, lower-case. */
export function emailsOf(u: ScimLike): string[] {
  const values = Array.isArray(u.emails)
    ? (u.emails as { value?: unknown }[]).map((e) => (e && typeof e === 'object' ? e.value : undefined))
    : [];
  return [u.userName, ...values]
    .filter((e): e is string => typeof e === 'string' && e.includes('@'))
    .map((e) => e.toLowerCase());
}

export function rememberPlatformId(emails: string[], id: number): void {
  if (!Number.isInteger(id) || id < 1) return;
  for (const e of emails) byEmail.set(e.toLowerCase(), id);
}

/** The platform id of a SCIM user when it is known without asking. */
export function knownPlatformId(u: ScimLike): number | undefined {
  const scimId = typeof u.id === 'string' ? u.id : '';
  if (/^[1-9]\d*$/.test(scimId)) return Number(scimId);
  for (const e of emailsOf(u)) {
    const id = byEmail.get(e);
    if (id !== undefined) return id;
  }
  return undefined;
}
