// What this workspace remembers about each dashboard file (workspace state, by URI): the
// deployment its workbook lives in and its publish history. Pulling, saving a draft and publishing
// write it; the publish flow, the dashboard editor's reports and the history read it.
import type * as vscode from 'vscode';
import type { Services } from '../services';
import type { PublishHistoryEntry } from './dashboardArgs';

const FILES_KEY = 'dashboardPlatform.dashboards.files';

interface FileRecord {
  deploymentId?: number;
  history: PublishHistoryEntry[];
}

export class DashboardRecords {
  /** Deployments found holding a file's workbook, by file (see deploymentOf). */
  private readonly foundDeployments = new Map<string, number>();

  constructor(private readonly services: Services) {}

  private get state(): vscode.Memento {
    return this.services.context.workspaceState;
  }

  private record(uri: vscode.Uri): FileRecord {
    const all = this.state.get<Record<string, FileRecord>>(FILES_KEY, {});
    return all[uri.toString()] ?? { history: [] };
  }

  private async saveRecord(uri: vscode.Uri, rec: FileRecord): Promise<void> {
    const all = { ...this.state.get<Record<string, FileRecord>>(FILES_KEY, {}) };
    all[uri.toString()] = rec;
    await this.state.update(FILES_KEY, all);
  }

  /** The publish history of a file, oldest first. */
  history(uri: vscode.Uri): PublishHistoryEntry[] {
    return this.record(uri).history;
  }

  /** The deployment a file was pulled from, saved to or published to, if any. */
  recordedDeployment(uri: vscode.Uri): number | undefined {
    return this.record(uri).deploymentId;
  }

  /** Remembers the deployment a file was pulled from or saved to (its history is kept). */
  async setDeployment(uri: vscode.Uri, deploymentId: number): Promise<void> {
    await this.saveRecord(uri, { ...this.record(uri), deploymentId });
  }

  /** Adds a publish to a file's history; the file now belongs to that deployment. */
  async addPublish(uri: vscode.Uri, entry: PublishHistoryEntry): Promise<void> {
    await this.saveRecord(uri, {
      deploymentId: entry.deploymentId,
      history: [...this.record(uri).history, entry],
    });
  }

  /**
   * The deployment a file's workbook lives in: the one it was pulled from or published to, else
   * the profile's default when that holds the workbook, else the first deployment that does
   * (looked up once per file). Undefined when none does or the profile cannot list them.
   */
  async deploymentOf(uri: vscode.Uri, workbookId: number): Promise<number | undefined> {
    const recorded = this.record(uri).deploymentId;
    if (recorded !== undefined) return recorded;
    const found = this.foundDeployments.get(uri.toString());
    if (found !== undefined) return found;
    const client = await this.services.clients.platform();
    const holds = (d: number) =>
      client.getWorkbook(d, workbookId).then(
        () => true,
        () => false,
      );
    const preferred = this.services.profiles.active()?.profile.defaultDeploymentId;
    let id: number | undefined;
    if (preferred !== undefined && (await holds(preferred))) id = preferred;
    else {
      const deployments = await client.listDeployments({ first: 100 }).catch(() => undefined);
      for (const d of deployments?.items ?? []) {
        if (d.id !== preferred && (await holds(d.id))) {
          id = d.id;
          break;
        }
      }
    }
    if (id !== undefined) this.foundDeployments.set(uri.toString(), id);
    return id;
  }
}
