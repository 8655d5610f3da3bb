// Dashboard files (.dashboard.json) as the suites edit them: text edits through VS Code, saved.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';

/**
 * The change a publish review is shown on: the first two widgets one row down and a new primary
 * colour, written over the whole document and saved (a save VS Code refuses fails the test).
 */
export async function moveTwoWidgetsAndRecolour(doc: vscode.TextDocument): Promise<void> {
  const input = JSON.parse(doc.getText()) as {
    config: { widgets: { position: { y: number } }[]; theme: { primaryColor?: string } };
  };
  input.config.widgets[0]!.position.y += 1;
  input.config.widgets[1]!.position.y += 1;
  input.config.theme.primaryColor = '#d43f8d';
  const edit = new vscode.WorkspaceEdit();
  edit.replace(
    doc.uri,
    new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)),
    `${JSON.stringify(input, null, 2)}\n`,
  );
  assert.ok(await vscode.workspace.applyEdit(edit));
  assert.ok(await doc.save());
}
