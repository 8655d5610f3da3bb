// What is the signed-in user's own, whatever their role. My Connections: the OAuth integrations
// by name with whether I hold a token for each (connected, its status, when it expires); Connect
// starts the sign-in on the service and opens the address it answers in the browser, Check
// Connection reads the token afterwards, Disconnect revokes it after a modal naming it. My
// Settings: one form of what PATCH users/me/settings allows; only the fields changed are sent
// (the service merges), and saved is said from the service's answer. The service publishes no read
// of these settings: the form starts from the answer to an empty change (which changes nothing).
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import type { OAuthIntegration } from '../api/platform/admin/integrations';
import {
  localeProblem,
  signInUrl,
  SHEETS_SETTING_KEYS,
  timeZoneProblem,
  type Me,
  type UserOAuthToken,
  type UserSettingsInput,
} from '../api/platform/me';
import { COMMANDS } from '../commands';
import { plainText } from '../explorer/labels';
import { asArgs } from '../explorer/targets';
import { confirmRemoval, subjectNode, type Reg, AdminCommandSet } from './adminContext';
import { onePageForm, onOff, type FormField } from './form';

export interface Connection {
  integrationId: number;
  name: string;
  token: UserOAuthToken | undefined;
}

/** A connection's state as one line: "connected, expires 2026-12-31" / "not connected" / the status. */
export function connectionState(c: Connection): string {
  const t = c.token;
  if (!t) return 'not connected';
  const status = plainText(t.status ?? 'unknown status');
  const expires = t.accessTokenExpiresAt
    ? `, access expires ${plainText(t.accessTokenExpiresAt).slice(0, 16).replace('T', ' ')}`
    : '';
  return status === 'active' ? `connected${expires}` : `${status}${expires}`;
}

type Settings = Record<string, unknown> & { sheets?: Record<string, unknown> | null };

/** The keys of a settings change that differ from what the service answered. */
export function settingsChange(before: Settings, after: Settings): UserSettingsInput {
  const out: Record<string, unknown> = {};
  for (const k of ['theme', 'locale', 'timezone', 'defaultDeploymentId', 'alternatingRowColors'])
    if ((after[k] ?? null) !== (before[k] ?? null)) out[k] = after[k] ?? null;
  const sheets: Record<string, unknown> = {};
  for (const k of SHEETS_SETTING_KEYS)
    if ((after.sheets?.[k] ?? null) !== (before.sheets?.[k] ?? null)) sheets[k] = after.sheets?.[k] ?? null;
  // `sheets` merges field by field: only the toggles changed are sent.
  if (Object.keys(sheets).length > 0) out.sheets = sheets;
  return out as UserSettingsInput;
}

const SHEET_LABELS: Record<(typeof SHEETS_SETTING_KEYS)[number], string> = {
  autoRunQueryOnChange: 'Sheets: run the query on change',
  openExplorationFromSheet: 'Sheets: open exploration from a sheet',
  revealSheetOnOpen: 'Sheets: reveal the sheet on open',
  showAppliedFilters: 'Sheets: show applied filters',
  suppressDuplicateValues: 'Sheets: suppress duplicate values',
};

export class MeCommands extends AdminCommandSet {
  register(reg: Reg): vscode.Disposable[] {
    return [
      reg(COMMANDS.adminMyConnections, (a) => this.myConnections(a)),
      reg(COMMANDS.adminConnectIntegration, (a) => this.connect(a)),
      reg(COMMANDS.adminMySettings, (a) => this.mySettings(a)),
    ];
  }

  /** Every integration by name with my token for it. Without the admin role the names of the ones I hold no token for cannot be read: then only my tokens are listed. */
  async connections(): Promise<{ list: Connection[]; namesReadable: boolean }> {
    const c = await this.client();
    const tokens = (await c.me.listUserOAuthTokens()).items;
    let integrations: OAuthIntegration[] = [];
    let namesReadable = true;
    try {
      integrations = (await c.admin.listOAuthIntegrations()).items;
    } catch (e) {
      if (!(isApiError(e) && e.kind === 'forbidden')) throw e;
      namesReadable = false;
    }
    const list: Connection[] = integrations.map((i) => ({
      integrationId: i.id,
      name: i.name,
      token: tokens.find((t) => t.integrationId === i.id),
    }));
    for (const t of tokens)
      if (!list.some((l) => l.integrationId === t.integrationId))
        list.push({ integrationId: t.integrationId, name: `Integration ${t.integrationId}`, token: t });
    return { list, namesReadable };
  }

  /** The connection a command acts on: a My OAuth tokens row, `{integration: name}`, else a pick. */
  private async connection(arg: unknown, title: string): Promise<Connection> {
    const { list, namesReadable } = await this.connections();
    const node = subjectNode(this.deps, arg, 'adminItem');
    const fromNode =
      node?.data && typeof node.data['integrationId'] === 'number' ? node.data['integrationId'] : undefined;
    const byName = asArgs<{ integration: string }>(arg).integration;
    const found =
      fromNode !== undefined
        ? list.find((l) => l.integrationId === fromNode)
        : byName
          ? list.find((l) => l.name === byName)
          : undefined;
    if (found) return found;
    if (byName) throw new Error(`There is no OAuth integration named "${plainText(byName)}".`);
    if (list.length === 0)
      throw new Error(
        namesReadable
          ? 'There are no OAuth integrations to connect to: an admin adds them under Account settings › OAuth integrations.'
          : 'You hold no OAuth connections, and listing the integrations needs the admin role: ask an admin which to connect to.',
      );
    return this.prompter.pick(
      title,
      list.map((l) => ({ label: plainText(l.name), description: connectionState(l), value: l })),
      namesReadable
        ? 'Pick an integration'
        : 'Your connections (listing every integration needs the admin role)',
    );
  }

  /** My Connections: pick one, then connect, check or disconnect it. */
  async myConnections(arg?: unknown): Promise<string> {
    const c = await this.connection(arg, 'My Connections');
    const action = await this.prompter.pick(`${plainText(c.name)}: ${connectionState(c)}`, [
      {
        label: c.token ? 'Reconnect' : 'Connect',
        detail: 'Sign in to the integration in your browser',
        value: 'connect' as const,
      },
      ...(c.token
        ? [
            { label: 'Check Connection', detail: 'Read the connection’s state now', value: 'check' as const },
            {
              label: 'Disconnect',
              detail: 'Revoke your token for this integration',
              value: 'disconnect' as const,
            },
          ]
        : []),
    ]);
    if (action === 'connect') return this.connectTo(c);
    if (action === 'check') return this.check(c);
    return this.disconnect(c);
  }

  /** Connect (the tree's and the palette's entry). */
  async connect(arg?: unknown): Promise<string> {
    return this.connectTo(await this.connection(arg, 'Connect to an OAuth integration'));
  }

  private async connectTo(c: Connection): Promise<string> {
    const answer = await (await this.client()).me.initiateUserOAuth(c.integrationId);
    const url = signInUrl(answer);
    if (!url)
      throw new Error(
        `The service started the sign-in to ${plainText(c.name)} but answered without an address to open. Try again; if it keeps happening, connect from the web console.`,
      );
    const opened = await vscode.env.openExternal(vscode.Uri.parse(url, true));
    const host = new URL(url).host;
    // Not awaited: the message stays until dismissed, and the command is done once the page opened.
    void vscode.window
      .showInformationMessage(
        opened
          ? `Finish signing in to ${plainText(c.name)} in your browser (${host}), then check the connection.`
          : `The sign-in page (${host}) was not opened. Start Connect again to open it.`,
        ...(opened ? ['Check Connection'] : []),
      )
      .then((next) => (next === 'Check Connection' ? this.check(c) : undefined));
    return url;
  }

  private async check(c: Connection): Promise<string> {
    let state: string;
    try {
      const t = await (await this.client()).me.getUserOAuthToken(c.integrationId);
      state = connectionState({ ...c, token: t });
    } catch (e) {
      if (!(isApiError(e) && e.kind === 'notFound')) throw e;
      state = 'not connected (the sign-in has not finished, or was declined)';
    }
    this.deps.provider.refresh();
    void vscode.window.showInformationMessage(`${plainText(c.name)}: ${state}.`);
    return state;
  }

  private async disconnect(c: Connection): Promise<string> {
    await confirmRemoval(
      this.deps,
      `Disconnect from ${plainText(c.name)}?`,
      'Your token for it is revoked: whatever uses it on your behalf stops working until you connect again.',
      'Disconnect',
    );
    await (await this.client()).admin.revokeUserOAuthToken(c.integrationId);
    this.deps.provider.refresh();
    void vscode.window.showInformationMessage(`Disconnected from ${plainText(c.name)}.`);
    return 'disconnected';
  }

  /** My Settings: one form of every published setting; only what changed is sent. */
  async mySettings(arg?: unknown): Promise<Me> {
    const c = await this.client();
    const me = await c.me.readMySettings();
    const before: Settings = { ...(me.settings ?? {}) } as Settings;
    const after: Settings = { ...before, sheets: { ...(before.sheets ?? {}) } };
    const given = asArgs<{ changes: Settings }>(arg).changes;
    if (given) Object.assign(after, given);
    else await this.settingsForm(after);
    const change = settingsChange(before, after);
    const keys = Object.keys(change);
    if (keys.length === 0) {
      void vscode.window.showInformationMessage('Nothing to save: your settings already have these values.');
      return me;
    }
    const saved = await c.me.updateMySettings(change);
    void vscode.window.showInformationMessage(
      `Your settings were saved (${keys.map((k) => (k === 'sheets' ? 'sheets options' : k)).join(', ')}).`,
    );
    return saved;
  }

  private async settingsForm(s: Settings): Promise<void> {
    const title = 'My Settings';
    const names = new Map<number, string>();
    for (const d of (await (await this.client()).listDeployments({ first: 200 })).items)
      names.set(d.id, String(d.name ?? `Deployment ${d.id}`));
    const text = (
      key: 'theme' | 'locale' | 'timezone',
      label: string,
      prompt: string,
      problem: (v: string) => string | undefined = () => undefined,
    ): FormField => ({
      label,
      shown: () => (typeof s[key] === 'string' && s[key] ? plainText(s[key]) : '(not set)'),
      edit: async () => {
        const v = (
          await this.prompter.input({
            title: `${title}: ${label.toLowerCase()}`,
            prompt,
            value: typeof s[key] === 'string' ? (s[key] as string) : '',
            validate: (typed) => (typed.trim() ? problem(typed.trim()) : undefined),
          })
        ).trim();
        s[key] = v || null;
      },
    });
    const toggle = (label: string, get: () => unknown, set: (v: boolean | null) => void): FormField => ({
      label,
      shown: () => onOff(get() as boolean | null | undefined),
      edit: async () => {
        set(
          await this.prompter.pick<boolean | null>(`${title}: ${label}`, [
            { label: 'on', value: true },
            { label: 'off', value: false },
            { label: '(not set)', detail: 'the default applies', value: null },
          ]),
        );
      },
    });
    const sheets = () => (s.sheets ??= {});
    await onePageForm(
      this.prompter,
      title,
      [
        text('theme', 'Theme', 'The theme of the web app, e.g. light, dark or system (empty clears it).'),
        text(
          'locale',
          'Locale',
          'Language and region for numbers and dates, e.g. en-US (empty clears it).',
          localeProblem,
        ),
        text(
          'timezone',
          'Time zone',
          'An IANA time zone, e.g. Europe/Berlin (empty clears it).',
          timeZoneProblem,
        ),
        {
          label: 'Default deployment',
          shown: () =>
            typeof s.defaultDeploymentId === 'number'
              ? plainText(names.get(s.defaultDeploymentId) ?? `#${s.defaultDeploymentId}`)
              : '(not set)',
          edit: async () => {
            s.defaultDeploymentId = await this.prompter.pick<number | null>(
              `${title}: default deployment`,
              [
                ...[...names].map(([id, name]) => ({
                  label: plainText(name),
                  description: `#${id}`,
                  value: id,
                })),
                { label: '(not set)', value: null },
              ],
              { active: (v) => v === s.defaultDeploymentId },
            );
          },
        },
        toggle(
          'Alternating row colors',
          () => s.alternatingRowColors,
          (v) => (s.alternatingRowColors = v),
        ),
        ...SHEETS_SETTING_KEYS.map((k) =>
          toggle(
            SHEET_LABELS[k],
            () => s.sheets?.[k],
            (v) => (sheets()[k] = v),
          ),
        ),
      ],
      { label: 'Save', problem: () => undefined },
    );
  }
}
