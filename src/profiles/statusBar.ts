// The status bar item: active profile name (+ environment label), coloured for production, a
// tooltip with the URLs (never secrets); clicking it switches profile.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { dataApiUrlOf, effectiveColor } from './profileModel';
import type { ProfileService } from './profileService';

export class ProfileStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];

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
    );
    this.update();
    this.item.show();
  }

  get text(): string {
    return this.item.text;
  }

  get tooltipText(): string {
    const t = this.item.tooltip;
    return typeof t === 'string' ? t : (t?.value ?? '');
  }

  update(): void {
    const active = this.profiles.active();
    if (!active) {
      this.item.text = '$(plug) Dashboard Platform: no profile';
      this.item.tooltip = 'No Dashboard Platform profile is active. Click to add one or use the Sandbox.';
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
    const md = new vscode.MarkdownString(undefined, true);
    md.isTrusted = false;
    md.appendMarkdown(`**Dashboard Platform profile: ${escapeMd(p.name)}**`);
    if (p.production) md.appendMarkdown(' — $(warning) production');
    md.appendMarkdown('\n\n');
    if (active.isSandbox && !this.profiles.sandbox.current) {
      md.appendMarkdown('Local sandbox (starts on first use)\n\n');
    } else {
      md.appendMarkdown(`Platform: ${escapeMd(p.platformUrl)}\n\n`);
      md.appendMarkdown(`Data API: ${escapeMd(dataApiUrlOf(p))}\n\n`);
      for (const a of p.agents) md.appendMarkdown(`AI agent "${escapeMd(a.label)}": ${escapeMd(a.url)}\n\n`);
      if (p.defaultDeploymentId !== undefined)
        md.appendMarkdown(`Default deployment: ${p.defaultDeploymentId}\n\n`);
    }
    md.appendMarkdown('Click to switch profile.');
    this.item.tooltip = md;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>$]/g, '\\$&');
}
