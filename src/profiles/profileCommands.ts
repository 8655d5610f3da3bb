// Profile commands: add, edit, switch, remove, set token, clear secrets. Each accepts an optional
// argument object so tests and other features can drive it without UI; with no argument it asks
// through quick inputs. Every handler runs inside runCommand (one catch, "Show Logs").
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { registerCommand } from '../commandRunner';
import { UserCancelled } from '../log';
import { connectionReviewed, listDeployments } from './connectionReview';
import type { Services } from '../services';
import {
  ENV_VARS,
  SANDBOX_PROFILE_NAME,
  SECRET_KINDS,
  SECRET_LABELS,
  envSuffix,
  type Profile,
  type ProfileInput,
  type SecretKind,
} from './profileModel';
import { ProfileSchema } from './profileSchema';
import { SecretStorageUnavailableError } from './profileSecrets';
import { askProfileForm, tokenForListing, type SecretsInput } from './profileForm';
import { machineExternalId } from './clientProvider';
import { vscodePrompter } from '../ui/vscodePrompter';

export type { SecretsInput };

/** Argument of dashboardPlatform.profiles.add (all UI skipped when given). */
export interface AddProfileArgs extends ProfileInput, SecretsInput {
  /** Make it the active profile (default true). */
  activate?: boolean;
  /** Keep secrets in memory when SecretStorage fails, without asking. */
  sessionFallback?: boolean;
}

export interface EditProfileArgs {
  name: string;
  changes: Partial<ProfileInput>;
}

export interface SetTokenArgs {
  profile?: string;
  kind: SecretKind;
  value: string;
  sessionFallback?: boolean;
}

export interface AddProfileResult {
  name: string;
  secrets: Partial<Record<SecretKind, 'secretStorage' | 'session'>>;
}

const ADD_PROFILE_ITEM = '$(add) Add Profile…';

function cancelled(): never {
  throw new UserCancelled();
}

function parseProfile(input: unknown): Profile {
  const r = ProfileSchema.safeParse(input);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(`Invalid profile: ${issue?.path.join('.') || 'profile'}: ${issue?.message ?? 'invalid'}`);
  }
  return r.data;
}

async function ask(options: vscode.InputBoxOptions): Promise<string> {
  const v = await vscode.window.showInputBox({ ignoreFocusOut: true, ...options });
  if (v === undefined) cancelled();
  return v.trim();
}

export function registerProfileCommands(services: Services): vscode.Disposable[] {
  const { profiles, log } = services;

  /** Stores secrets; on SecretStorage failure says so plainly and offers a session-only copy. */
  async function storeSecrets(name: string, secrets: SecretsInput, sessionFallback?: boolean) {
    const result: AddProfileResult['secrets'] = {};
    let allowSession = sessionFallback;
    for (const kind of SECRET_KINDS) {
      const value = secrets[kind]?.trim();
      if (!value) continue;
      try {
        result[kind] = await profiles.setSecret(name, kind, value, false);
      } catch (e) {
        if (!(e instanceof SecretStorageUnavailableError)) throw e;
        if (allowSession === undefined) {
          const keep = 'Keep for This Session Only';
          const choice = await vscode.window.showWarningMessage(
            e.message,
            {
              modal: true,
              detail: `Or set the environment variable ${ENV_VARS[kind]} before starting VS Code.`,
            },
            keep,
          );
          allowSession = choice === keep;
        }
        if (!allowSession) throw e;
        profiles.setSessionSecret(name, kind, value);
        result[kind] = 'session';
        log.warn(`The ${SECRET_LABELS[kind]} of "${name}" is kept in memory for this session only.`);
      }
    }
    return result;
  }

  /** "from workspace settings" (and whether it is trusted) for a profile of the workspace's settings. */
  function workspaceMark(name: string): string {
    if (profiles.isSandbox(name) || profiles.scopeOf(name) !== 'workspace') return '';
    return profiles.isTrusted(name) ? 'from workspace settings' : 'from workspace settings, not trusted yet';
  }

  async function pickProfile(placeHolder: string, includeSandbox: boolean): Promise<string> {
    const items = (includeSandbox ? profiles.list() : profiles.storedProfiles()).map((p) => ({
      label: p.name,
      description:
        [p.name === profiles.active()?.profile.name ? 'active' : '', workspaceMark(p.name)]
          .filter(Boolean)
          .join(' · ') || undefined,
      detail: profiles.isSandbox(p.name) ? 'Local sandbox' : p.platformUrl,
    }));
    if (items.length === 0)
      throw new Error('There are no profiles yet. Run "Dashboard Platform: Add Profile…" first.');
    const picked = await vscode.window.showQuickPick(items, { placeHolder, ignoreFocusOut: true });
    if (!picked) cancelled();
    return picked.label;
  }

  const nameValidator = (previous?: string) => (v: string) => {
    const name = v.trim();
    if (!name) return 'Enter a name.';
    if (profiles.isSandbox(name))
      return `"${SANDBOX_PROFILE_NAME}" is the built-in profile; choose another name.`;
    const other = profiles.get(name);
    if (other && other.name.toLowerCase() !== previous?.toLowerCase())
      return 'A profile with this name exists.';
    if (!envSuffix(name)) return 'Use at least one letter or digit.';
    return undefined;
  };

  /**
   * Add/Edit Profile's five steps (src/profiles/profileForm.ts), prefilled from `current` or from
   * a draft of Add being edited again after its connection test.
   */
  function askProfile(
    current?: Profile,
    draft?: { input: ProfileInput; secrets: SecretsInput },
  ): Promise<{ input: ProfileInput; secrets: SecretsInput }> {
    return askProfileForm(
      {
        prompter: vscodePrompter,
        nameProblem: nameValidator(current?.name),
        machineExternalId: machineExternalId(),
        listDeployments: async (q) => {
          const token = await tokenForListing(
            q.token,
            current && {
              platformUrl: current.platformUrl,
              storedToken: async () => (await profiles.getSecret('platformToken', current.name))?.value,
            },
            q.platformUrl,
          );
          // Typed secrets are redacted from logs from the moment they are used.
          if (token) profiles.rememberSecret(token);
          return listDeployments({ ...q, token }, log);
        },
      },
      current,
      draft,
    );
  }

  async function add(args?: AddProfileArgs): Promise<AddProfileResult> {
    let input: ProfileInput;
    let secrets: SecretsInput;
    if (args && typeof args === 'object' && 'name' in args) {
      const { platformToken, dataApiToken, aiApiKey, activate: _a, sessionFallback: _s, ...rest } = args;
      input = rest;
      secrets = { platformToken, dataApiToken, aiApiKey };
    } else {
      ({ input, secrets } = await askProfile());
      // Test before saving; Edit goes back through the steps with what was typed.
      while (!(await connectionReviewed(input, secrets, log)))
        ({ input, secrets } = await askProfile(undefined, { input, secrets }));
    }
    const profile = parseProfile(input);
    if (profiles.get(profile.name)) throw new Error(`A profile named "${profile.name}" already exists.`);
    await profiles.save(profile);
    const stored = await storeSecrets(profile.name, secrets, args?.sessionFallback);
    if (args?.activate !== false) await profiles.switchTo(profile.name);
    log.info(`Added profile "${profile.name}" (${profile.platformUrl})`);
    if (!args) {
      void vscode.window.showInformationMessage(`Profile "${profile.name}" added and active.`);
    }
    return { name: profile.name, secrets: stored };
  }

  async function edit(args?: EditProfileArgs | string): Promise<string> {
    const name =
      typeof args === 'string' ? args : (args?.name ?? (await pickProfile('Profile to edit', false)));
    const current = profiles.get(name);
    if (!current || profiles.isSandbox(name)) throw new Error(`There is no stored profile named "${name}".`);
    let input: ProfileInput;
    let secrets: SecretsInput = {};
    if (typeof args === 'object' && args) input = { ...current, ...args.changes };
    else ({ input, secrets } = await askProfile(current));
    const profile = parseProfile(input);
    await profiles.save(profile, current.name);
    await storeSecrets(profile.name, secrets);
    log.info(`Edited profile "${profile.name}"`);
    return profile.name;
  }

  async function switchProfile(arg?: string | { name: string }): Promise<string | undefined> {
    const given = typeof arg === 'string' ? arg : arg?.name;
    if (given) {
      await profiles.switchTo(given);
      return profiles.active()?.profile.name;
    }
    const active = profiles.active()?.profile.name;
    const items: vscode.QuickPickItem[] = profiles.list().map((p) => ({
      label: p.name,
      description: [
        p.name === active ? 'active' : '',
        p.production ? 'production' : (p.environment ?? ''),
        workspaceMark(p.name),
      ]
        .filter(Boolean)
        .join(' · '),
      detail: profiles.isSandbox(p.name)
        ? 'Local sandbox with sample data, started on first use'
        : p.platformUrl,
      iconPath: new vscode.ThemeIcon(
        profiles.isSandbox(p.name)
          ? 'beaker'
          : p.production
            ? 'warning'
            : profiles.scopeOf(p.name) === 'workspace'
              ? 'organization'
              : 'cloud',
      ),
    }));
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator }, { label: ADD_PROFILE_ITEM });
    const picked = await vscode.window.showQuickPick(items, {
      placeHolder: 'Switch Dashboard Platform profile',
    });
    if (!picked) cancelled();
    if (picked.label === ADD_PROFILE_ITEM) return (await add()).name;
    await profiles.switchTo(picked.label);
    return picked.label;
  }

  async function remove(arg?: string | { name: string; confirm?: boolean }): Promise<void> {
    const name =
      (typeof arg === 'string' ? arg : arg?.name) ?? (await pickProfile('Profile to remove', false));
    if (!profiles.get(name) || profiles.isSandbox(name))
      throw new Error(`There is no stored profile named "${name}".`);
    if (!arg) {
      const ok = await vscode.window.showWarningMessage(
        `Remove profile "${name}" and its stored secrets?`,
        { modal: true },
        'Remove',
      );
      if (ok !== 'Remove') cancelled();
    }
    await profiles.remove(name);
    log.info(`Removed profile "${name}"`);
  }

  async function setToken(args?: SetTokenArgs): Promise<'secretStorage' | 'session'> {
    if (args) {
      const name = args.profile ?? profiles.active()?.profile.name;
      if (!name || !profiles.get(name)) throw new Error('Choose a profile first.');
      const r = await storeSecrets(name, { [args.kind]: args.value }, args.sessionFallback);
      const where = r[args.kind];
      if (!where) throw new Error('The token is empty.');
      return where;
    }
    const activeName = profiles.active()?.isSandbox ? undefined : profiles.active()?.profile.name;
    const name = activeName ?? (await pickProfile('Profile to set a token for', false));
    const kindPick = await vscode.window.showQuickPick(
      SECRET_KINDS.map((k) => ({
        label: SECRET_LABELS[k],
        secret: k,
        description: `or ${ENV_VARS[k]}_${envSuffix(name)}`,
      })),
      { placeHolder: `Which secret of "${name}"?` },
    );
    if (!kindPick) cancelled();
    const value = await ask({
      prompt: `${kindPick.label} for "${name}" (stored in VS Code's SecretStorage, never in settings)`,
      password: true,
      validateInput: (v) => (v.trim() ? undefined : 'Paste the token.'),
    });
    const where =
      (await storeSecrets(name, { [kindPick.secret]: value }))[kindPick.secret] ?? 'secretStorage';
    void vscode.window.showInformationMessage(
      where === 'session'
        ? `The ${kindPick.label} of "${name}" is kept for this session only.`
        : `The ${kindPick.label} of "${name}" is stored.`,
    );
    return where;
  }

  async function clearSecrets(arg?: string | { name: string }): Promise<void> {
    const name =
      (typeof arg === 'string' ? arg : arg?.name) ??
      (await pickProfile('Clear the stored secrets of', false));
    if (!arg) {
      const ok = await vscode.window.showWarningMessage(
        `Delete the stored tokens of "${name}"?`,
        { modal: true },
        'Delete',
      );
      if (ok !== 'Delete') cancelled();
    }
    await profiles.clearSecrets(name);
    log.info(`Cleared the stored secrets of "${name}"`);
  }

  return [
    registerCommand(services, COMMANDS.profilesAdd, add),
    registerCommand(services, COMMANDS.profilesEdit, edit),
    registerCommand(services, COMMANDS.profilesSwitch, switchProfile),
    registerCommand(services, COMMANDS.profilesRemove, remove),
    registerCommand(services, COMMANDS.profilesSetToken, setToken),
    registerCommand(services, COMMANDS.profilesClearSecrets, clearSecrets),
  ];
}
