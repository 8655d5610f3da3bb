// Editing account settings: an OAuth integration (PUT of the whole published input, every field
// prefilled from the integration as read; the client secret is write-only: asked in a password
// box, left out when none is entered, registered with the log redaction, never shown, kept or put
// in the review) and an OIDC token config (one field at a time, prefilled, checked against the
// published pattern). Both show the saved and edited JSON side by side and save only after a
// confirmation naming the changed fields.
import * as vscode from 'vscode';
import { JsonDiff } from './jsonDiff';
import {
  HttpUrlSchema,
  OIDC_EDIT_KEYS,
  OIDC_ENV_VAR,
  OIDC_NAME,
  OIDC_SUB_FORMAT,
  type UpdateOAuthIntegrationInput,
  type UpdateOidcTokenConfigInput,
} from '../api/platform/admin/integrations';
import { COMMANDS } from '../commands';
import { plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import { asArgs } from '../explorer/targets';
import { confirmRemoval, pickItem, subjectNode, type Reg, AdminCommandSet } from './adminContext';

const DIFF_SCHEME = 'dashboard-platform-settings-diff';
/** What the review shows in place of a new client secret. */
export const SECRET_PLACEHOLDER = '(new secret: sent once, not shown)';

type OAuthFields = Omit<UpdateOAuthIntegrationInput, 'clientSecret'>;
const OAUTH_STEPS: { key: keyof OAuthFields; title: string; prompt: string; url?: boolean }[] = [
  { key: 'name', title: 'name', prompt: 'The integration’s name.' },
  { key: 'type', title: 'type', prompt: 'The provider type, e.g. snowflake or databricks.' },
  { key: 'authUrl', title: 'authorization URL', prompt: 'The provider’s authorization URL.', url: true },
  { key: 'tokenUrl', title: 'token URL', prompt: 'The provider’s token URL.', url: true },
  {
    key: 'redirectUri',
    title: 'redirect URI',
    prompt: 'The redirect URI registered with the provider.',
    url: true,
  },
  { key: 'clientId', title: 'client id', prompt: 'The client id.' },
];
const SECRET_PROMPT =
  'New client secret, or leave empty to send none. The published API makes the secret optional on update but does not say what leaving it out does; the service is expected to keep the current one.';

/** An http(s) URL as the published `format: url` inputs take it; undefined when valid. */
export function urlProblem(v: string): string | undefined {
  return HttpUrlSchema.safeParse(v.trim()).success ? undefined : 'Enter an absolute http(s) URL.';
}
const need = (v: string) => (v.trim() ? undefined : 'Required.');

export class SettingsEditCommands extends AdminCommandSet {
  private readonly diff = new JsonDiff(DIFF_SCHEME);
  register(reg: Reg): vscode.Disposable[] {
    return [
      this.diff.register(),
      reg(COMMANDS.adminEditOAuthIntegration, (a) => this.editOAuthIntegration(a)),
      reg(COMMANDS.adminEditOidcConfig, (a) => this.editOidcTokenConfig(a)),
    ];
  }

  /** The integration or config the command acts on: the clicked row, `{name}`, else a pick. */
  private async subject(arg: unknown, items: Item[], title: string): Promise<Item> {
    const node = subjectNode(this.deps, arg, 'adminItem');
    const a = asArgs<{ name: string }>(arg);
    return (
      (node?.data && items.find((i) => i['id'] === node.data!['id'])) ??
      (a.name ? items.find((i) => i['name'] === a.name) : undefined) ??
      (await pickItem(this.deps, title, items, (i) => String(i['name']), undefined, `There is no ${title}.`))
    );
  }

  /**
   * Edits an OAuth integration: each published field asked in turn, prefilled (Enter keeps it), or
   * `{name, changes, clientSecret}` from a caller ("" or absent secret: none sent).
   */
  async editOAuthIntegration(arg?: unknown): Promise<Item> {
    const admin = await this.admin();
    const a = asArgs<{ changes: Partial<OAuthFields>; clientSecret: string }>(arg);
    const listed = await this.subject(arg, (await admin.listOAuthIntegrations()).items, 'OAuth integration');
    const current = await admin.getOAuthIntegration(Number(listed['id']));
    const str = (k: string) => (typeof current[k] === 'string' ? (current[k] as string) : '');
    const scopesNow = Array.isArray(current.scopes)
      ? current.scopes.filter((s): s is string => typeof s === 'string')
      : undefined;
    const fields: OAuthFields = {
      name: str('name'),
      type: str('type'),
      authUrl: str('authUrl'),
      tokenUrl: str('tokenUrl'),
      redirectUri: str('redirectUri'),
      clientId: str('clientId'),
      ...(scopesNow ? { scopes: scopesNow } : {}),
      // Sent back as read: the document does not say whether a PUT without it clears it.
      ...(current.config && typeof current.config === 'object' ? { config: current.config } : {}),
    };
    let secret = a.clientSecret;
    if (a.changes) Object.assign(fields, a.changes);
    else {
      const total = OAUTH_STEPS.length + 2;
      for (const [i, s] of OAUTH_STEPS.entries()) {
        const v = await this.prompter.input({
          title: `Edit OAuth Integration: ${s.title}`,
          prompt: s.prompt,
          value: String(fields[s.key] ?? ''),
          validate: s.url ? urlProblem : need,
          step: { step: i + 1, totalSteps: total },
        });
        (fields as Record<string, unknown>)[s.key] = v.trim();
      }
      const scopes = await this.prompter.input({
        title: 'Edit OAuth Integration: scopes',
        prompt: 'Scopes, separated by spaces or commas (empty for none).',
        value: (fields.scopes ?? []).join(' '),
        step: { step: total - 1, totalSteps: total },
      });
      const list = scopes.split(/[\s,]+/).filter(Boolean);
      if (list.length > 0 || scopesNow) fields.scopes = list;
    }
    secret ??= await this.prompter.input({
      title: 'Edit OAuth Integration: client secret',
      prompt: SECRET_PROMPT,
      password: true,
      step: { step: OAUTH_STEPS.length + 2, totalSteps: OAUTH_STEPS.length + 2 },
    });
    secret = secret.trim();
    // Known to the redaction before anything can log or show it.
    if (secret) this.deps.services.profiles.rememberSecret(secret);
    const before = { ...pick(current, Object.keys(fields)) };
    const after = { ...fields, ...(secret ? { clientSecret: SECRET_PLACEHOLDER } : {}) };
    const changed = changedKeys(before, after);
    const label = plainText(current.name);
    if (!(await this.review(`OAuth integration ${label}`, before, after, changed))) return current;
    const saved = await admin.updateOAuthIntegration(Number(current.id), {
      ...fields,
      ...(secret ? { clientSecret: secret } : {}),
    });
    await this.diff.close();
    this.deps.provider.refresh();
    void vscode.window.showInformationMessage(
      `OAuth integration "${plainText(saved.name)}" saved (${changed.map(nameOf).join(', ')}).`,
    );
    return saved;
  }

  /** Edits one field of an OIDC token config (picked, prefilled), or `{name, changes}`. */
  async editOidcTokenConfig(arg?: unknown): Promise<Item> {
    const admin = await this.admin();
    const a = asArgs<{ changes: UpdateOidcTokenConfigInput }>(arg);
    const listed = await this.subject(arg, (await admin.listOidcTokenConfigs()).items, 'OIDC token config');
    const current = await admin.getOidcTokenConfig(Number(listed['id']));
    const now = (k: string): unknown => (k === 'customAudience' ? current.audience : current[k]);
    let changes = a.changes;
    if (!changes) {
      const key = await this.prompter.pick(
        'OIDC token config setting',
        OIDC_EDIT_KEYS.map((k) => ({
          label: k,
          description: `now ${plainText(JSON.stringify(now(k) ?? null), 80)}`,
          value: k,
        })),
      );
      changes = { [key]: await this.askOidc(key, now(key)) };
    }
    const before = Object.fromEntries(Object.keys(changes).map((k) => [k, now(k) ?? null]));
    const changed = changedKeys(before, changes);
    const label = plainText(current.name ?? `#${current.id}`);
    if (!(await this.review(`OIDC token config ${label}`, before, changes, changed))) return current;
    const saved = await admin.updateOidcTokenConfig(Number(current.id), changes);
    await this.diff.close();
    this.deps.provider.refresh();
    void vscode.window.showInformationMessage(
      `OIDC token config "${plainText(saved.name ?? label)}" saved (${changed.join(', ')}).`,
    );
    return saved;
  }

  private async askOidc(key: (typeof OIDC_EDIT_KEYS)[number], now: unknown): Promise<unknown> {
    const title = `Edit OIDC Token Config: ${key}`;
    if (key === 'isEnabled')
      return this.prompter.pick(title, [
        { label: 'true', description: 'tokens are issued', value: true },
        { label: 'false', description: 'no tokens are issued', value: false },
      ]);
    const text = (prompt: string, validate: (v: string) => string | undefined, value: string) =>
      this.prompter.input({ title, prompt, value, validate }).then((v) => v.trim());
    const shown = typeof now === 'string' ? now : '';
    const clearable = (re: RegExp, max: number, what: string) => (v: string) =>
      !v.trim() || (v.trim().length <= max && re.test(v.trim())) ? undefined : what;
    switch (key) {
      case 'name':
        return text(
          'Lowercase letters, digits and dashes.',
          (v) => (OIDC_NAME.test(v.trim()) ? undefined : 'Use lowercase letters, digits and dashes.'),
          shown,
        );
      case 'targetEnvVar': {
        const v = await text(
          'Environment variable that receives the token (empty clears it: sent as null).',
          clearable(OIDC_ENV_VAR, 128, 'Use a name such as CUBEJS_DB_TOKEN (at most 128 characters).'),
          shown,
        );
        return v || null;
      }
      case 'subFormat': {
        const v = await text(
          'Subject format: letters, digits, ":", "_", "-" and {deployment_id}, {component}, {region} (empty clears it: sent as null).',
          clearable(
            OIDC_SUB_FORMAT,
            200,
            'Only letters, digits, ":", "_", "-" and the three {placeholders}.',
          ),
          shown,
        );
        return v || null;
      }
      case 'customAudience':
        return text('The audience the token is issued for.', need, shown);
      case 'customClaims': {
        const v = await text(
          'Custom claims as a JSON object (empty clears them: sent as null).',
          (s) => (!s.trim() || isJsonObject(s) ? undefined : 'Enter a JSON object, e.g. {"team": "data"}.'),
          now && typeof now === 'object' ? JSON.stringify(now) : '',
        );
        return v ? (JSON.parse(v) as unknown) : null;
      }
    }
  }

  /** Shows saved ↔ edited and asks to save; false when nothing changed (declining cancels). */
  private async review(what: string, before: object, after: object, changed: string[]): Promise<boolean> {
    const slug = what.replace(/[^\w-]+/g, '-');
    await this.diff.show(slug, what, before, after);
    if (changed.length === 0) {
      void vscode.window.showInformationMessage(`Nothing to save: ${what} already has these values.`);
      return false;
    }
    // Declining cancels; a production profile is asked once more.
    await confirmRemoval(
      this.deps,
      `Save ${changed.length} change${changed.length === 1 ? '' : 's'} to ${what}: ${changed.map(nameOf).join(', ')}?`,
      'The difference is shown in the editor.',
      'Save',
    );
    return true;
  }
}

const nameOf = (k: string) => (k === 'clientSecret' ? 'client secret (replaced)' : k);

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, o[k] ?? null]));
}

/** The keys of `after` whose value differs from `before` (JSON equality). */
export function changedKeys(before: object, after: object): string[] {
  const b = before as Record<string, unknown>;
  return Object.entries(after)
    .filter(([k, v]) => JSON.stringify(v ?? null) !== JSON.stringify(b[k] ?? null))
    .map(([k]) => k);
}

function isJsonObject(s: string): boolean {
  try {
    const v: unknown = JSON.parse(s);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}
