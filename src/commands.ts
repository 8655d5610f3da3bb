// The one command table. Every command contributed in package.json has exactly one entry here (a
// unit test checks both directions, titles included); code refers to commands only through it.
// All commands have `category: "Dashboard Platform"` in the manifest.

export interface CommandSpec {
  readonly id: string;
  readonly title: string;
}

export const COMMANDS = {
  // foundation
  showLogs: { id: 'dashboardPlatform.showLogs', title: 'Show Logs' },
  profilesAdd: { id: 'dashboardPlatform.profiles.add', title: 'Add Profile…' },
  profilesEdit: { id: 'dashboardPlatform.profiles.edit', title: 'Edit Profile…' },
  profilesSwitch: { id: 'dashboardPlatform.profiles.switch', title: 'Switch Profile…' },
  profilesRemove: { id: 'dashboardPlatform.profiles.remove', title: 'Remove Profile…' },
  profilesSetToken: { id: 'dashboardPlatform.profiles.setToken', title: 'Set Token…' },
  profilesClearSecrets: {
    id: 'dashboardPlatform.profiles.clearSecrets',
    title: 'Clear Stored Secrets of Profile…',
  },
  sandboxUse: { id: 'dashboardPlatform.sandbox.use', title: 'Try the Sandbox' },
  sandboxStart: { id: 'dashboardPlatform.sandbox.start', title: 'Start Sandbox' },
  sandboxStop: { id: 'dashboardPlatform.sandbox.stop', title: 'Stop Sandbox' },
  sandboxShowInfo: { id: 'dashboardPlatform.sandbox.showInfo', title: 'Show Sandbox Info' },
  // chat
  chatOpen: { id: 'dashboardPlatform.chat.open', title: 'Open Chat' },
  chatAsk: { id: 'dashboardPlatform.chat.ask', title: 'Ask the AI Agent…' },
  chatNew: { id: 'dashboardPlatform.chat.newChat', title: 'New Chat' },
  chatStop: { id: 'dashboardPlatform.chat.stop', title: 'Stop the Running Chat Turn' },
  chatHistory: { id: 'dashboardPlatform.chat.history', title: 'Reopen a Chat…' },
  chatOpenSqlInNotebook: {
    id: 'dashboardPlatform.chat.openSqlInNotebook',
    title: 'Open SQL in Query Notebook',
  },
  // notebook
  notebookNew: { id: 'dashboardPlatform.notebook.new', title: 'New Query Notebook' },
  notebookExportResults: { id: 'dashboardPlatform.notebook.exportResults', title: 'Export Results…' },
  notebookSelectDeployment: {
    id: 'dashboardPlatform.notebook.selectDeployment',
    title: 'Select Notebook Deployment…',
  },
  // explorer
  explorerRefresh: { id: 'dashboardPlatform.explorer.refresh', title: 'Refresh' },
  explorerLoadMore: { id: 'dashboardPlatform.explorer.loadMore', title: 'Load More' },
  explorerRetry: { id: 'dashboardPlatform.explorer.retry', title: 'Retry' },
  explorerOpenJson: { id: 'dashboardPlatform.explorer.openJson', title: 'Open as JSON' },
  explorerCopyId: { id: 'dashboardPlatform.explorer.copyId', title: 'Copy Id' },
  explorerCopyPublicId: { id: 'dashboardPlatform.explorer.copyPublicId', title: 'Copy Public Id' },
  explorerSearchReports: { id: 'dashboardPlatform.explorer.searchReports', title: 'Search Reports…' },
  explorerSortReports: { id: 'dashboardPlatform.explorer.sortReports', title: 'Sort Reports…' },
  explorerFilterReports: { id: 'dashboardPlatform.explorer.filterReports', title: 'Filter Reports…' },
  explorerClearReportsQuery: {
    id: 'dashboardPlatform.explorer.clearReportsQuery',
    title: 'Clear Reports Search, Sort and Filters',
  },
  explorerFilterNotifications: {
    id: 'dashboardPlatform.explorer.filterNotifications',
    title: 'Filter Notifications…',
  },
  explorerClearNotificationFilter: {
    id: 'dashboardPlatform.explorer.clearNotificationFilter',
    title: 'Clear Notifications Filter',
  },
  explorerDbtSync: { id: 'dashboardPlatform.explorer.dbtSync', title: 'Start dbt Sync…' },
  explorerDuplicateWorkbook: {
    id: 'dashboardPlatform.explorer.duplicateWorkbook',
    title: 'Duplicate Workbook…',
  },
  explorerConnectReport: {
    id: 'dashboardPlatform.explorer.connectReportToWorkbook',
    title: 'Connect Report to Workbook…',
  },
  explorerCreateNotification: {
    id: 'dashboardPlatform.explorer.createNotification',
    title: 'Create Notification…',
  },
  explorerAddRecipient: { id: 'dashboardPlatform.explorer.addRecipient', title: 'Add Recipient…' },
  explorerRemoveRecipient: { id: 'dashboardPlatform.explorer.removeRecipient', title: 'Remove Recipient…' },
  explorerDeleteEmbedTenant: {
    id: 'dashboardPlatform.explorer.deleteEmbedTenant',
    title: 'Delete Embed Tenant…',
  },
  explorerShowAppConfig: { id: 'dashboardPlatform.explorer.showAppConfig', title: 'Show App Config' },
  // dashboards as code
  dashboardsEdit: { id: 'dashboardPlatform.dashboards.edit', title: 'Edit Dashboard…' },
  dashboardsPublish: { id: 'dashboardPlatform.dashboards.publish', title: 'Publish Dashboard…' },
  dashboardsShowHistory: { id: 'dashboardPlatform.dashboards.showHistory', title: 'Show Publish History' },
  dashboardsOpenEditor: {
    id: 'dashboardPlatform.dashboards.openEditor',
    title: 'Open in Dashboard Editor',
  },
  dashboardsAttachAiWidgetThread: {
    id: 'dashboardPlatform.dashboards.attachAiWidgetThread',
    title: 'Attach AI Widget Thread…',
  },
  // model-editor
  modelOpen: { id: 'dashboardPlatform.model.open', title: 'Open Data Model…' },
  modelSwitchBranch: { id: 'dashboardPlatform.model.switchBranch', title: 'Switch Data Model Branch…' },
  modelCreateBranch: { id: 'dashboardPlatform.model.createBranch', title: 'Create Data Model Branch…' },
  modelUnlockDefault: {
    id: 'dashboardPlatform.model.unlockDefaultBranch',
    title: 'Unlock Default Branch for Editing…',
  },
  modelValidate: { id: 'dashboardPlatform.model.validate', title: 'Validate Data Model' },
  modelCommit: { id: 'dashboardPlatform.model.commit', title: 'Commit Data Model Changes…' },
  modelPull: { id: 'dashboardPlatform.model.pull', title: 'Pull Data Model Branch' },
  modelMergeIntoParent: { id: 'dashboardPlatform.model.mergeIntoParent', title: 'Merge Branch into Parent…' },
  modelMergeToDefault: { id: 'dashboardPlatform.model.mergeToDefault', title: 'Merge Branch to Default…' },
  modelUpload: { id: 'dashboardPlatform.model.uploadFromFolder', title: 'Upload Data Model from Folder…' },
  modelNotebookBranch: {
    id: 'dashboardPlatform.model.notebookBranch',
    title: 'Run Notebook on a Dev Branch…',
  },
} as const satisfies Record<string, CommandSpec>;

export type CommandKey = keyof typeof COMMANDS;
export type CommandId = (typeof COMMANDS)[CommandKey]['id'];

export const COMMAND_CATEGORY = 'Dashboard Platform';
