// Query notebooks, loaded on first use (see index.ts): the controller, deployment picker, export,
// member intelligence, and the .dpnb serializer that index.ts's registration delegates to.
import * as vscode from 'vscode';
import { COMMANDS, registerCommand } from '../commandRunner';
import type { Services } from '../services';
import { QueryController } from './controller';
import { DeploymentPicker } from './deploymentPicker';
import { exportResultsCommand, type ExportFormat } from './exportResults';
import { registerMemberProviders } from './memberProviders';
import { NOTEBOOK_TYPE, PLATFORM_SQL } from './notebookFormat';
import { DpnbSerializer, settingsFromConfig } from './serializer';
import { TargetStatus } from './targetStatus';
import { registerChartMessages } from './chartMessages';
import { selectNotebookProfile } from './notebookProfile';

export { NOTEBOOK_TYPE };

export function createNotebookFeature(services: Services): {
  serializer: vscode.NotebookSerializer;
  disposables: vscode.Disposable[];
} {
  const controller = new QueryController(services);
  const picker = new DeploymentPicker(services, COMMANDS.notebookSelectDeployment.id);
  const clientFor = (nb: vscode.NotebookDocument) => controller.client(nb);
  const serializer = new DpnbSerializer(settingsFromConfig());
  const disposables = [
    controller,
    picker,
    new TargetStatus(services),
    registerChartMessages(services.log),
    ...registerMemberProviders(clientFor, services.modelBranch.onDidRebuild),
    // Other features open a notebook with their SQL on a deployment (e.g. a report's Open in Notebook).
    registerCommand(
      services,
      COMMANDS.notebookNew,
      async (args?: { sql?: string; title?: string; deploymentId?: number }) => {
        const data = new vscode.NotebookData([
          new vscode.NotebookCellData(
            vscode.NotebookCellKind.Markup,
            `# ${args?.title ?? 'Query notebook'}`,
            'markdown',
          ),
          new vscode.NotebookCellData(vscode.NotebookCellKind.Code, args?.sql ?? 'SELECT 1', PLATFORM_SQL),
        ]);
        const profile = services.profiles.active()?.profile.name;
        data.metadata = {
          ...(profile ? { profile } : {}),
          ...(args?.deploymentId !== undefined ? { deploymentId: args.deploymentId } : {}),
        };
        const doc = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, data);
        return vscode.window.showNotebookDocument(doc);
      },
    ),
    registerCommand(
      services,
      COMMANDS.notebookExportResults,
      (args?: { cell?: vscode.NotebookCell; uri?: vscode.Uri; format?: ExportFormat }) =>
        exportResultsCommand(clientFor, args?.cell && 'document' in args.cell ? args : undefined),
    ),
    registerCommand(services, COMMANDS.notebookSelectDeployment, (args?: { deploymentId?: number | null }) =>
      picker.pick(undefined, args?.deploymentId),
    ),
    // polish
    registerCommand(
      services,
      COMMANDS.notebookSelectProfile,
      (args?: { profile?: string; notebook?: string }) => selectNotebookProfile(services, args),
    ),
  ];
  return { serializer, disposables };
}
