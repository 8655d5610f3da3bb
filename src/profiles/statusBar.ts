// The status bar item: active profile name (+ environment label), coloured for production, a
// tooltip with the URLs (never secrets) and, for a profile from the workspace's settings, that it
// is one and whether it is trusted; clicking it switches profile.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { effectiveColor } from './profileModel';
import type { ProfileService } from './profileService';

export class ProfileStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private plainTooltip = '';

  constructor(private readonly profiles: ProfileService) {
    this.item = vscode.window.createStatusBarItem(
      'dashboardPlatform.profile',
      vscode.StatusBarAlignment.Left,
      50,
    );
    this.item.name = 'Dashboard Platform Profile';
    this.item.command = COMMANDS.profilesSwitch.id;
    this.disposables.push(
      this.item,
      profiles.onDidChangeActiveProfile(() => this.update()),
      profiles.onDidChangeProfiles(() => this.update()),
      // Trusting a workspace profile changes its tooltip.
      profiles.onDidChangeSecrets(() => this.update()),
    );
    this.update();
    this.item.show();
  }

  get text(): string {
    return this.item.text;
  }

  /** The tooltip as plain text (for tests). */
  get tooltipText(): string {
    return this.plainTooltip;
  }

  update(): void {
    const active = this.profiles.active();
    if (!active) {
      this.item.text = '$(plug) Dashboard Platform: no profile';
      this.plainTooltip = 'No Dashboard Platform profile is active. Click to add one or use the Sandbox.';
      this.item.tooltip = this.plainTooltip;
      this.item.backgroundColor = undefined;
      return;
    }
    const p = active.profile;
    const label = p.environment ? ` (${p.environment})` : p.production ? ' (production)' : '';
    const icon = active.isSandbox ? '$(beaker)' : p.production ? '$(warning)' : '$(cloud)';
    this.item.text = `${icon} ${p.name}${label}`;
    const color = effectiveColor(p);
    this.item.backgroundColor =
      color === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : color === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
    const lines: string[] = [];
    if (active.isSandbox && !this.profiles.sandbox.current) {
      lines.push('Local sandbox (starts on first use)');
    } else {
      lines.push(
        `Platform: ${p.platformUrl}`,
        `Data API: ${!active.isSandbox && p.dataApiUrl ? `${p.dataApiUrl} (override)` : 'each deployment’s own host'}`,
      );
      for (const a of p.agents) lines.push(`AI agent "${a.label}": ${a.url}`);
      if (p.defaultDeploymentId !== undefined) lines.push(`Default deployment: ${p.defaultDeploymentId}`);
    }
    if (!active.isSandbox && this.profiles.scopeOf(p.name) === 'workspace') {
      lines.push(
        this.profiles.shadowsUserProfile(p.name)
          ? "Defined in this workspace's settings (it hides your own profile of the same name here; your tokens are never sent for it)."
          : "Defined in this workspace's settings, not yours.",
        this.profiles.isTrusted(p.name)
          ? 'Trusted in this workspace.'
          : 'Not trusted yet: you are asked before any token is sent for it.',
      );
    }
    lines.push('Click to switch profile.');
    const title = `Dashboard Platform profile: ${p.name}${p.production ? ' (production)' : ''}`;
    this.plainTooltip = [title, ...lines].join('\n');
    const md = new vscode.MarkdownString(undefined, true);
    md.isTrusted = false;
    md.appendMarkdown(`**${escapeMd(title)}**${p.production ? ' $(warning)' : ''}\n\n`);
    for (const l of lines) md.appendMarkdown(`${escapeMd(l)}\n\n`);
    this.item.tooltip = md;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>$]/g, '\\$&');
}
