// Dashboards as code, activation part: the custom editor over *.dashboard.json is registered here
// and resolved by the feature (dashboardsFeature.ts), which loads on first use of the editor or of
// a dashboards command.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { commandIds, lazyModule, registerLazyFeature, type Registered } from '../lazy';
import type { Services } from '../services';
import type { DashboardsFeature } from './dashboardsFeature';

export type {
  AttachThreadArgs,
  DashboardsFeature,
  EditArgs,
  PublishArgs,
  PublishHistoryEntry,
} from './dashboardsFeature';
import type * as DashboardsModule from './dashboardsFeature';

/** Same as dashboardEditor.ts's DASHBOARD_EDITOR_VIEW_TYPE (the manifest's customEditors viewType). */
const DASHBOARD_EDITOR_VIEW_TYPE = 'dashboardPlatform.dashboardEditor';

export function register(services: Services): Registered<DashboardsFeature> {
  const registered = registerLazyFeature(
    commandIds(COMMANDS, 'dashboardPlatform.dashboards.'),
    services.context.subscriptions,
    () =>
      lazyModule<typeof DashboardsModule>('src/dashboards/dashboardsFeature.ts').createDashboardsFeature(
        services,
      ),
  );
  registered.disposables.push(
    vscode.window.registerCustomEditorProvider(
      DASHBOARD_EDITOR_VIEW_TYPE,
      {
        resolveCustomTextEditor: (document, panel) =>
          registered.feature.editor.resolveCustomTextEditor(document, panel),
      },
      { webviewOptions: { retainContextWhenHidden: false } },
    ),
  );
  return registered;
}
