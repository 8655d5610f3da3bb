// Administration commands for embedding (preview a published dashboard through an embed session
// in VS Code's Simple Browser, revoke the session, delete an embed tenant) and account settings (tenant settings with a
// diff before saving, OAuth integrations with a write-only client secret, OIDC token configs,
// the user's own OAuth tokens).
import * as vscode from 'vscode';
import { JsonDiff } from './jsonDiff';
import { embedPreviewUrl } from '../api/platform/admin/embed';
import { TENANT_SETTING_KEYS, type TenantSettingsInput } from '../api/platform/admin/settings';
import { publishedDashboardOf } from '../api/platform/workbookShapes';
import { COMMANDS } from '../commands';
import { UserCancelled } from '../log';
import { plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import { asArgs, asNode, resolveDeploymentId } from '../explorer/targets';
import { confirmRemoval, pickItem, subjectNode, type Reg, AdminCommandSet } from './adminContext';

const PICK = 200;
const DIFF_SCHEME = 'dashboard-platform-diff';

export interface EmbedSessionRecord {
  sessionId: string;
  dashboard: string;
  tenant?: string;
  url: string;
}

const SETTING_LABELS: Record<keyof TenantSettingsInput, string> = {
  auditLogEnabled: 'Audit log',
  hasSupportAccess: 'Support access',
  useAIBIUserInterface: 'AI BI user interface',
  maintenanceWindowEnabled: 'Maintenance window',
  maintenanceWindowDay: 'Maintenance window day',
  maintenanceWindowTime: 'Maintenance window time',
  oidcEnabled: 'OIDC',
};
const SETTING_HINTS: Record<keyof TenantSettingsInput, string> = {
  auditLogEnabled: 'Record who did what in the tenant',
  hasSupportAccess: 'Let the platform’s support team access the tenant',
  useAIBIUserInterface: 'Use the AI BI interface for users',
  maintenanceWindowEnabled: 'Apply upgrades only in the weekly window',
  maintenanceWindowDay: 'The day of the weekly window',
  maintenanceWindowTime: 'When the weekly window starts (HH:MM)',
  oidcEnabled: 'Issue OIDC tokens for warehouse federation',
};
const BOOLEAN_SETTINGS = new Set<keyof TenantSettingsInput>([
  'auditLogEnabled',
  'hasSupportAccess',
  'useAIBIUserInterface',
  'maintenanceWindowEnabled',
  'oidcEnabled',
]);
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

function settingText(key: keyof TenantSettingsInput, v: unknown): string {
  if (v === undefined || v === null || v === '') return 'not set';
  if (BOOLEAN_SETTINGS.has(key)) return v === true ? 'on' : 'off';
  return plainText(v);
}

export class EmbedSettingsCommands extends AdminCommandSet {
  /** Sessions generated in this window, newest first (what Revoke offers). */
  readonly sessions: EmbedSessionRecord[] = [];
  private readonly diff = new JsonDiff(DIFF_SCHEME);

  register(reg: Reg): vscode.Disposable[] {
    return [
      this.diff.register(),
      reg(COMMANDS.adminPreviewEmbed, (a) => this.previewEmbed(a)),
      reg(COMMANDS.adminRevokeEmbedSession, (a) => this.revokeSession(a)),
      reg(COMMANDS.adminDeleteEmbedTenant, (a) => this.deleteEmbedTenant(a)),
      reg(COMMANDS.adminShowTenantSettings, () => this.showTenantSettings()),
      reg(COMMANDS.adminEditTenantSettings, (a) => this.editTenantSettings(a)),
      reg(COMMANDS.adminCreateOAuthIntegration, (a) => this.createOAuthIntegration(a)),
      reg(COMMANDS.adminDeleteOAuthIntegration, (a) => this.deleteListed(a, 'oauth')),
      reg(COMMANDS.adminCreateOidcConfig, (a) => this.createOidcConfig(a)),
      reg(COMMANDS.adminDeleteOidcConfig, (a) => this.deleteListed(a, 'oidc')),
      reg(COMMANDS.adminRevokeMyOAuthToken, (a) => this.deleteListed(a, 'token')),
    ];
  }

  /**
   * Generates an embed session for a published dashboard (deployment, dashboard, tenant, one tenant
   * group or none, the end user's external id) and opens the embed page in the Simple Browser.
   */
  async previewEmbed(arg?: unknown): Promise<EmbedSessionRecord> {
    const a = asArgs<{ publicId: string; tenant: string; group: string; externalId: string }>(arg);
    const client = await this.deps.targets.client();
    const deploymentId = await resolveDeploymentId(this.deps.targets, arg);
    const workbooks = (await client.listWorkbooks(deploymentId, { first: PICK })).items as Item[];
    const published = workbooks.flatMap((w) => {
      const d = publishedDashboardOf(w);
      const publicId = typeof d?.['publicId'] === 'string' ? d['publicId'] : undefined;
      return publicId ? [{ w, publicId, title: String(d?.['title'] ?? w['name']) }] : [];
    });
    let pick = a.publicId ? published.find((x) => x.publicId === a.publicId) : undefined;
    if (!a.publicId) {
      const row = await pickItem(
        this.deps,
        'Published dashboard',
        published.map((x, i) => ({ id: i, title: x.title, name: x.w['name'] })),
        (i) => String(i['title']),
        (i) => String(i['name']),
        'This deployment has no published dashboard: publish one first.',
      );
      pick = published[Number(row['id'])];
    }
    if (!pick)
      throw new Error(`There is no published dashboard ${plainText(a.publicId)} in this deployment.`);
    const admin = client.admin;
    const tenantNode = subjectNode(this.deps, arg, 'embedTenant');
    const tenants = (await admin.listEmbedTenants({ first: PICK })).items as Item[];
    const tenant =
      (tenantNode?.data?.['name'] as string | undefined) ??
      a.tenant ??
      String(
        (
          await pickItem(
            this.deps,
            'Embed tenant',
            tenants,
            (t) => String(t['name']),
            (t) => (t['displayName'] as string) ?? undefined,
            'There are no embed tenants.',
          )
        )['name'],
      );
    const groups = (await admin.listEmbedGroups(tenant, { first: PICK })).items as Item[];
    const group =
      a.group !== undefined
        ? a.group
        : String(
            await this.prompter.pick(
              'Tenant group',
              [
                { label: '(no group)', value: '' },
                ...groups.map((g) => ({ label: plainText(g['name']), value: String(g['name']) })),
              ],
              'The embed user joins this tenant group',
            ),
          );
    const externalId =
      a.externalId ??
      (await this.prompter.input({
        title: 'Preview Embedded Dashboard',
        prompt: 'External id of the end user to preview as (your application’s user id).',
        value: 'vscode-preview',
        validate: (v) => (v.trim() ? undefined : 'Enter an external id.'),
      }));
    const title = pick.title;
    const { sessionId } = await admin.generateEmbedSession({
      deploymentId,
      externalId: externalId.trim(),
      embedTenantName: tenant,
      publicDashboardId: pick.publicId,
      ...(group ? { creatorMode: true, tenantGroups: [group] } : {}),
    });
    // The session id is a credential until revoked: never in a log line or a message.
    this.deps.services.profiles.rememberSecret(sessionId);
    const base = new URL(this.deps.services.profiles.active()?.profile.platformUrl ?? 'http://localhost/');
    const url = embedPreviewUrl(base.origin, pick.publicId, sessionId);
    const record = { sessionId, dashboard: title, tenant, url };
    this.sessions.unshift(record);
    await vscode.commands.executeCommand('simpleBrowser.show', url);
    return record;
  }

  async revokeSession(arg?: unknown): Promise<void> {
    const a = asArgs<{ sessionId: string }>(arg);
    const record =
      this.sessions.find((s) => s.sessionId === a.sessionId) ??
      (this.sessions.length === 1 && !a.sessionId ? this.sessions[0] : undefined) ??
      (await this.prompter.pick(
        'Embed session',
        this.sessions.map((s) => ({
          label: s.dashboard,
          description: s.tenant ? `tenant ${s.tenant}` : '',
          value: s,
        })),
        'Sessions previewed in this window',
      ));
    if (!record) throw new Error('No embed session was previewed in this window.');
    await confirmRemoval(
      this.deps,
      `Revoke the embed session of "${plainText(record.dashboard)}"${record.tenant ? ` for tenant ${plainText(record.tenant)}` : ''}?`,
      'The embedded dashboard stops working for that session; its token is rejected from now on.',
      'Revoke',
    );
    await (await this.admin()).revokeEmbedSession({ sessionId: record.sessionId });
    this.sessions.splice(this.sessions.indexOf(record), 1);
    void vscode.window.showInformationMessage(`Embed session of "${plainText(record.dashboard)}" revoked.`);
  }

  async showTenantSettings(): Promise<vscode.TextDocument> {
    const settings = await (await this.admin()).getTenantSettings();
    return this.deps.json.show('tenant-settings', 'tenant-settings', settings);
  }

  /** Changes one setting (or `{changes}`), shows the difference, and saves after a confirmation. */
  /**
   * The tenant settings in one form: a pick listing every setting with its value (changed ones
   * marked), where choosing a row toggles it or asks for its value (validated), and a Save row
   * that appears once something changed. Nothing is written until Save; Escape discards.
   */
  async editTenantSettings(arg?: unknown): Promise<Item> {
    const admin = await this.admin();
    const before = await admin.getTenantSettings();
    let changes = asArgs<{ changes: TenantSettingsInput }>(arg).changes;
    if (!changes) changes = await this.tenantSettingsForm(before);
    const after = { ...before, ...changes };
    const changed = Object.keys(changes).filter(
      (k) =>
        JSON.stringify(before[k as keyof typeof before]) !== JSON.stringify(after[k as keyof typeof after]),
    );
    if (changed.length === 0) {
      void vscode.window.showInformationMessage(
        'Nothing to save: the tenant settings already have these values.',
      );
      return before;
    }
    const profile = this.deps.services.profiles.active()?.profile;
    if (profile?.production) {
      await this.showDiff(before, after);
      const ok = await this.prompter.confirm(
        `Save ${changed.length} tenant setting${changed.length === 1 ? '' : 's'} on the production profile "${plainText(profile.name)}"?`,
        'This profile is marked as production: the change applies to live data.',
        'Save',
      );
      if (!ok) return before;
    }
    const saved = await admin.updateTenantSettings(changes);
    await this.diff.close();
    void vscode.window.showInformationMessage(
      `Tenant settings saved: ${changed.map((k) => SETTING_LABELS[k as keyof TenantSettingsInput] ?? k).join(', ')}.`,
    );
    return saved;
  }

  private async tenantSettingsForm(before: Record<string, unknown>): Promise<TenantSettingsInput> {
    const edited: Record<string, unknown> = {};
    const value = (k: string) => (k in edited ? edited[k] : before[k]);
    const isChanged = (k: string) => k in edited && JSON.stringify(edited[k]) !== JSON.stringify(before[k]);
    type Row = { kind: 'save' } | { kind: 'edit'; key: keyof TenantSettingsInput };
    for (;;) {
      const changedKeys = TENANT_SETTING_KEYS.filter(isChanged);
      const rows = [
        ...(changedKeys.length > 0
          ? [
              {
                label: `$(check) Save ${changedKeys.length} change${changedKeys.length === 1 ? '' : 's'}`,
                description: changedKeys.map((k) => SETTING_LABELS[k]).join(', '),
                id: 'save',
                value: { kind: 'save' } as Row,
              },
            ]
          : []),
        ...TENANT_SETTING_KEYS.map((key) => ({
          label: SETTING_LABELS[key],
          description: `${settingText(key, value(key))}${isChanged(key) ? `  (was ${settingText(key, before[key])})` : ''}`,
          detail: SETTING_HINTS[key],
          id: key,
          value: { kind: 'edit', key } as Row,
        })),
      ];
      const row = await this.prompter.pick<Row>('Tenant Settings', rows, {
        placeHolder:
          changedKeys.length > 0
            ? 'Change more, or Save (Escape discards the changes)'
            : 'Pick a setting to change (booleans toggle)',
      });
      if (row.kind === 'save')
        return Object.fromEntries(changedKeys.map((k) => [k, edited[k]])) as TenantSettingsInput;
      const key = row.key;
      const now = value(key);
      if (BOOLEAN_SETTINGS.has(key)) edited[key] = !(now === true);
      else if (key === 'maintenanceWindowDay') {
        edited[key] = await this.prompter.pick(
          SETTING_LABELS[key],
          WEEKDAYS.map((d) => ({ label: d, value: d })),
          { active: (d) => d === now },
        );
      } else if (key === 'maintenanceWindowTime') {
        edited[key] = (
          await this.prompter.input({
            title: SETTING_LABELS[key],
            prompt: 'The time the maintenance window starts, HH:MM (24-hour).',
            value: typeof now === 'string' ? now : '',
            validate: (v) =>
              /^([01]\d|2[0-3]):[0-5]\d$/.test(v.trim()) ? undefined : 'Use HH:MM, from 00:00 to 23:59.',
          })
        ).trim();
      }
    }
  }

  private async showDiff(before: unknown, after: unknown): Promise<void> {
    await this.diff.show('tenant-settings', 'Tenant settings', before, after);
  }

  async createOAuthIntegration(arg?: unknown): Promise<Item> {
    const a = asArgs<{
      name: string;
      type: string;
      authUrl: string;
      tokenUrl: string;
      clientId: string;
      clientSecret: string;
      redirectUri: string;
    }>(arg);
    const url = (v: string): string | undefined =>
      /^https?:\/\/\S+$/.test(v.trim()) ? undefined : 'Enter an http(s) URL.';
    const need = (v: string): string | undefined => (v.trim() ? undefined : 'Required.');
    const ask = async (
      value: string | undefined,
      title: string,
      prompt: string,
      validate = need,
      password = false,
    ) =>
      (
        value ??
        (await this.prompter.input({
          title: `Create OAuth Integration: ${title}`,
          prompt,
          validate,
          password,
        }))
      ).trim();
    const name = await ask(a.name, 'name', 'A name for the integration.');
    const type = await ask(a.type, 'type', 'The provider type, e.g. snowflake or databricks.');
    const authUrl = await ask(a.authUrl, 'authorization URL', 'The provider’s authorization URL.', url);
    const tokenUrl = await ask(a.tokenUrl, 'token URL', 'The provider’s token URL.', url);
    const redirectUri = await ask(
      a.redirectUri,
      'redirect URI',
      'The redirect URI registered with the provider.',
      url,
    );
    const clientId = await ask(a.clientId, 'client id', 'The client id.');
    const clientSecret = await ask(
      a.clientSecret,
      'client secret',
      'The client secret: sent once to the service, never stored or shown.',
      need,
      true,
    );
    this.deps.services.profiles.rememberSecret(clientSecret);
    const created = await (
      await this.admin()
    ).createOAuthIntegration({ name, type, authUrl, tokenUrl, redirectUri, clientId, clientSecret });
    this.deps.provider.refresh();
    void vscode.window.showInformationMessage(`OAuth integration "${plainText(created.name)}" created.`);
    return created;
  }

  async createOidcConfig(arg?: unknown): Promise<Item> {
    const a = asArgs<{ name: string; audienceType: string; targetEnvVar: string }>(arg);
    const name =
      a.name ??
      (await this.prompter.input({
        title: 'Create OIDC Token Config (1/3)',
        prompt: 'Name: lowercase letters, digits and dashes.',
        validate: (v) =>
          /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(v.trim())
            ? undefined
            : 'Use lowercase letters, digits and dashes.',
      }));
    const audienceType =
      a.audienceType ??
      (await this.prompter.input({
        title: 'Create OIDC Token Config (2/3)',
        prompt: 'Audience type (e.g. aws, gcp, azure).',
        validate: (v) => (v.trim() ? undefined : 'Required.'),
      }));
    const env =
      a.targetEnvVar ??
      (await this.prompter.input({
        title: 'Create OIDC Token Config (3/3)',
        prompt: 'Environment variable that receives the token (optional).',
        validate: (v) =>
          !v.trim() || /^[A-Z_][A-Z0-9_]*$/.test(v.trim())
            ? undefined
            : 'Use a name such as CUBEJS_DB_TOKEN.',
      }));
    const created = await (
      await this.admin()
    ).createOidcTokenConfig({
      name: name.trim(),
      audienceType: audienceType.trim(),
      ...(env.trim() ? { targetEnvVar: env.trim() } : {}),
    });
    this.deps.provider.refresh();
    void vscode.window.showInformationMessage(`OIDC token config "${plainText(created.name)}" created.`);
    return created;
  }

  /** Deletes an OAuth integration or OIDC config, or revokes one of the user's OAuth tokens. */
  async deleteListed(arg: unknown, what: 'oauth' | 'oidc' | 'token'): Promise<void> {
    const admin = await this.admin();
    const node = subjectNode(this.deps, arg, 'adminItem');
    const a = asArgs<{ name: string }>(arg);
    const list =
      what === 'oauth'
        ? admin.listOAuthIntegrations()
        : what === 'oidc'
          ? admin.listOidcTokenConfigs()
          : admin.listUserOAuthTokens();
    const items = (await list).items as Item[];
    const integrations =
      what === 'token'
        ? ((await admin.listOAuthIntegrations().catch(() => ({ items: [] }))).items as Item[])
        : [];
    const label = (i: Item) =>
      what === 'token'
        ? String(
            integrations.find((x) => x['id'] === i['integrationId'])?.['name'] ??
              `integration ${i['integrationId']}`,
          )
        : String(i['name']);
    const item =
      (node?.data && items.find((i) => i['id'] === node.data!['id'])) ??
      (a.name ? items.find((i) => label(i) === a.name) : undefined) ??
      (await pickItem(
        this.deps,
        what === 'oauth' ? 'OAuth integration' : what === 'oidc' ? 'OIDC token config' : 'OAuth token',
        items,
        label,
        undefined,
        'There is nothing to remove.',
      ));
    const name = plainText(label(item));
    if (what === 'token') {
      await confirmRemoval(
        this.deps,
        `Revoke your OAuth token for ${name}?`,
        'You will need to sign in to the provider again.',
        'Revoke',
      );
      await admin.revokeUserOAuthToken(Number(item['integrationId']));
    } else {
      const kind = what === 'oauth' ? 'OAuth integration' : 'OIDC token config';
      await confirmRemoval(
        this.deps,
        `Delete the ${kind} "${name}"?`,
        `Everything that uses "${name}" stops working. This cannot be undone.`,
        'Delete',
      );
      if (what === 'oauth') await admin.deleteOAuthIntegration(Number(item['id']));
      else await admin.deleteOidcTokenConfig(Number(item['id']));
    }
    this.deps.provider.refresh();
    void vscode.window.showInformationMessage(
      what === 'token' ? `OAuth token for ${name} revoked.` : `"${name}" deleted.`,
    );
  }

  async deleteEmbedTenant(arg?: unknown): Promise<boolean> {
    const args = typeof arg === 'string' ? { name: arg } : asArgs<{ name: string; confirmed: boolean }>(arg);
    // The tenant: the Administration row it was invoked on, the arguments, else a pick by name.
    const fromNode = asNode(arg)?.kind === 'embedTenant' ? asNode(arg)?.data?.['name'] : undefined;
    const name =
      (typeof fromNode === 'string' ? fromNode : undefined) ??
      args.name ??
      String(
        await this.prompter.pick(
          'Delete Embed Tenant',
          (await (await this.deps.targets.client()).admin.listEmbedTenants({ first: 200 })).items.map(
            (t) => ({
              label: plainText(t.name),
              ...(t.displayName ? { description: plainText(t.displayName) } : {}),
              value: t.name,
            }),
          ),
          'Pick the embed tenant to delete',
        ),
      );
    // Always modal, naming the tenant: this deletes its users, groups and content.
    const ok = await this.prompter.confirm(
      `Delete the embed tenant "${plainText(name)}"?`,
      'This deletes its users, groups, memberships, attributes, policies and content. It cannot be undone.',
      'Delete',
    );
    if (!ok) throw new UserCancelled();
    await this.deps.confirmWrite(`Delete the embed tenant "${plainText(name)}"`);
    await (await this.deps.targets.client()).deleteEmbedTenant(name.trim());
    void vscode.window.showInformationMessage(`Embed tenant "${plainText(name)}" deleted.`);
    return true;
  }
}
