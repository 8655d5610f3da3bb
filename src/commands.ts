// The one command table. Every command contributed in package.json has exactly one entry here (a
// unit test checks both directions, titles included); code refers to commands only through it.
// All commands have `category: "Dashboard Platform"` in the manifest. The features that act on the
// explorer's rows (explorer, workspace, deployments, notifications, admin) keep the ids
// 'dashboardPlatform.explorer.…'; each owns the entries whose key starts with its name.

/** What every command id starts with (the manifest's ids in full). */
const ID_PREFIX = 'dashboardPlatform.';

export interface CommandSpec {
  readonly id: string;
  readonly title: string;
}

/** Each row: key → [the id after 'dashboardPlatform.', the title]. */
const ROWS = {
  // foundation
  showLogs: ['showLogs', 'Show Logs'],
  profilesAdd: ['profiles.add', 'Add Profile…'],
  profilesEdit: ['profiles.edit', 'Edit Profile…'],
  profilesSwitch: ['profiles.switch', 'Switch Profile…'],
  profilesRemove: ['profiles.remove', 'Remove Profile…'],
  profilesSetToken: ['profiles.setToken', 'Set Token…'],
  profilesClearSecrets: ['profiles.clearSecrets', 'Clear Stored Secrets of Profile…'],
  sandboxUse: ['sandbox.use', 'Try the Sandbox'],
  sandboxStart: ['sandbox.start', 'Start Sandbox'],
  sandboxStop: ['sandbox.stop', 'Stop Sandbox'],
  sandboxShowInfo: ['sandbox.showInfo', 'Show Sandbox Info'],
  sandboxReset: ['sandbox.reset', 'Reset Sandbox Data'],
  // chat
  chatOpen: ['chat.open', 'Open Chat'],
  chatAsk: ['chat.ask', 'Ask the AI Agent…'],
  chatNew: ['chat.newChat', 'New Chat'],
  chatStop: ['chat.stop', 'Stop the Running Chat Turn'],
  chatHistory: ['chat.history', 'Reopen a Chat…'],
  chatOpenSqlInNotebook: ['chat.openSqlInNotebook', 'Open SQL in Query Notebook'],
  // notebook
  notebookNew: ['notebook.new', 'New Query Notebook'],
  notebookExportResults: ['notebook.exportResults', 'Export Results…'],
  notebookSelectDeployment: ['notebook.selectDeployment', 'Select Notebook Deployment…'],
  // explorer
  explorerRefresh: ['explorer.refresh', 'Refresh Explorer'],
  explorerLoadMore: ['explorer.loadMore', 'Load More'],
  explorerRetry: ['explorer.retry', 'Retry'],
  explorerOpenJson: ['explorer.openJson', 'Open as JSON'],
  explorerCopyId: ['explorer.copyId', 'Copy Item Id'],
  explorerCopyPublicId: ['explorer.copyPublicId', 'Copy Public Id'],
  explorerSearchReports: ['explorer.searchReports', 'Search Reports…'],
  explorerSortReports: ['explorer.sortReports', 'Sort Reports…'],
  explorerFilterReports: ['explorer.filterReports', 'Filter Reports…'],
  explorerClearReportsQuery: ['explorer.clearReportsQuery', 'Clear Reports Search, Sort and Filters'],
  notificationsFilter: ['explorer.filterNotifications', 'Filter Notifications…'],
  notificationsClearFilter: ['explorer.clearNotificationFilter', 'Clear Notifications Filter'],
  deploymentsDbtSync: ['explorer.dbtSync', 'Start dbt Sync…'],
  workspaceDuplicateWorkbook: ['explorer.duplicateWorkbook', 'Duplicate Workbook…'],
  workspaceConnectReport: ['explorer.connectReportToWorkbook', 'Connect Report to Workbook…'],
  notificationsCreate: ['explorer.createNotification', 'Create Notification…'],
  notificationsAddRecipient: ['explorer.addRecipient', 'Add Recipient…'],
  notificationsRemoveRecipient: ['explorer.removeRecipient', 'Remove Recipient…'],
  adminDeleteEmbedTenant: ['explorer.deleteEmbedTenant', 'Delete Embed Tenant…'],
  adminShowAppConfig: ['explorer.showAppConfig', 'Show App Config'],
  adminCreateEmbedGroup: ['explorer.createEmbedGroup', 'Create Embed Group…'],
  adminEditEmbedGroup: ['explorer.editEmbedGroup', 'Edit Embed Group Description…'],
  adminDeleteEmbedGroup: ['explorer.deleteEmbedGroup', 'Delete Embed Group…'],
  adminAddEmbedGroupMembers: ['explorer.addEmbedGroupMembers', 'Add Members to Embed Group…'],
  adminRemoveEmbedGroupMembers: ['explorer.removeEmbedGroupMembers', 'Remove from Embed Group…'],
  adminProvisionEmbedUser: ['explorer.provisionEmbedUser', 'Provision Embed User…'],
  adminProvisionEmbedUsersFromFile: [
    'explorer.provisionEmbedUsersFromFile',
    'Provision Embed Users from File…',
  ],
  // dashboards as code
  dashboardsEdit: ['dashboards.edit', 'Edit Dashboard…'],
  dashboardsPublish: ['dashboards.publish', 'Publish Dashboard…'],
  dashboardsSaveDraft: ['dashboards.saveDraft', 'Save Dashboard Draft'],
  dashboardsPushReport: ['dashboards.pushReport', 'Push Report'],
  dashboardsPullReport: ['dashboards.pullReport', 'Pull Report to File…'],
  dashboardsPublishReviewed: ['dashboards.publishReviewed', 'Publish These Changes'],
  dashboardsCancelReview: ['dashboards.cancelReview', 'Cancel Publish'],
  dashboardsShowHistory: ['dashboards.showHistory', 'Show Publish History'],
  dashboardsOpenEditor: ['dashboards.openEditor', 'Open in Dashboard Editor'],
  dashboardsAttachAiWidgetThread: ['dashboards.attachAiWidgetThread', 'Attach AI Widget Thread…'],
  // workspace
  workspaceOpenItem: ['explorer.openItem', 'Open'],
  workspaceOpenReportSql: ['explorer.openReportSql', 'Edit Report SQL'],
  workspaceSaveReportSql: ['explorer.saveReportSql', 'Save SQL to Report…'],
  workspaceOpenDashboard: ['explorer.openDashboard', 'Open Dashboard'],
  workspaceCreateFolder: ['explorer.createFolder', 'New Folder…'],
  workspaceRenameItem: ['explorer.renameItem', 'Rename Item…'],
  workspaceMoveItems: ['explorer.moveItems', 'Move to Folder…'],
  workspaceDeleteItems: ['explorer.deleteItems', 'Delete Items…'],
  workspaceRevealInExplorer: ['explorer.revealInExplorer', 'Reveal in Explorer'],
  workspaceCreateReport: ['explorer.createReport', 'New Report…'],
  workspaceRefreshReport: ['explorer.refreshReport', 'Refresh Report'],
  workspaceDisconnectReport: ['explorer.disconnectReport', 'Disconnect Report from Workbook…'],
  workspaceOpenReportInNotebook: ['explorer.openReportInNotebook', 'Open in Notebook'],
  workspaceCreateWorkbook: ['explorer.createWorkbook', 'New Workbook…'],
  workspaceChangeWorkbookSlug: ['explorer.changeWorkbookSlug', 'Change Workbook Slug…'],
  workspaceUpsertWorkbookBySlug: ['explorer.upsertWorkbookBySlug', 'Create or Update Workbook by Slug…'],
  workspaceShowEmbedAccess: ['explorer.showEmbedAccess', 'Show Embed Access'],
  workspaceChangeEmbedAccess: ['explorer.changeEmbedAccess', 'Change Embed Access…'],
  // deployops
  deploymentsDbtShowLogs: ['explorer.dbtShowLogs', 'Show dbt Sync Logs'],
  deploymentsDbtCancel: ['explorer.dbtCancel', 'Cancel dbt Sync…'],
  deploymentsDbtOpenResult: ['explorer.dbtOpenResult', 'Open dbt Sync Result'],
  deploymentsDbtOpenGeneratedFiles: ['explorer.dbtOpenGeneratedFiles', 'Open dbt Sync Generated Files…'],
  deploymentsExportDashboard: ['explorer.exportDashboard', 'Export Dashboard as PNG or PDF…'],
  deploymentsSetEnvVar: ['explorer.setEnvVar', 'Set Env Variable…'],
  deploymentsChangeEnvVar: ['explorer.changeEnvVar', 'Change Env Variable Value…'],
  deploymentsRevealEnvVar: ['explorer.revealEnvVar', 'Reveal Env Variable Value'],
  deploymentsCreateEnvironmentToken: ['explorer.createEnvironmentToken', 'Create Environment Token…'],
  deploymentsShowBuildStatus: ['explorer.showBuildStatus', 'Show Build Status'],
  deploymentsShowLogs: ['explorer.showDeploymentLogs', 'Show Deployment Logs'],
  deploymentsFollowLogs: ['explorer.followDeploymentLogs', 'Follow Deployment Logs'],
  deploymentsStopFollowingLogs: ['explorer.stopFollowingLogs', 'Stop Following Deployment Logs'],
  deploymentsCreate: ['explorer.createDeployment', 'Create Deployment…'],
  deploymentsConnectGithub: ['explorer.connectGithub', 'Connect GitHub Repository…'],
  deploymentsEdit: ['explorer.editDeployment', 'Edit Deployment…'],
  deploymentsDelete: ['explorer.deleteDeployment', 'Delete Deployment…'],
  deploymentsShowSettings: ['explorer.showDeploymentSettings', 'Show Deployment Settings'],
  deploymentsContinueSetup: ['explorer.continueSetup', 'Continue Setup…'],
  // polish
  notificationsOpen: ['explorer.openNotification', 'Open Notification'],
  notificationsEdit: ['explorer.editNotification', 'Edit Notification…'],
  notificationsPause: ['explorer.pauseNotification', 'Pause Notification'],
  notificationsResume: ['explorer.resumeNotification', 'Resume Notification'],
  notificationsDelete: ['explorer.deleteNotification', 'Delete Notification…'],
  // admin
  adminSearchUsers: ['explorer.searchUsers', 'Search Users…'],
  adminClearUsersSearch: ['explorer.clearUsersSearch', 'Clear Users Search'],
  adminCreateUser: ['explorer.createUser', 'Create User…'],
  adminDeactivateUser: ['explorer.deactivateUser', 'Deactivate User…'],
  adminActivateUser: ['explorer.activateUser', 'Activate User…'],
  adminDeleteUser: ['explorer.deleteUser', 'Delete User…'],
  adminAssignRole: ['explorer.assignRole', 'Assign Role…'],
  adminRemoveRole: ['explorer.removeRole', 'Remove Role…'],
  adminAddGroupMember: ['explorer.addGroupMember', 'Add Group Member…'],
  adminRemoveGroupMember: ['explorer.removeGroupMember', 'Remove Group Member…'],
  // embedDash (src/dashboards/comments)
  embedDashToggleSignedEmbedding: ['explorer.toggleSignedEmbedding', 'Turn Signed Embedding On or Off…'],
  embedDashComments: ['explorer.dashboardComments', 'Dashboard Comments…'],
  adminPreviewEmbed: ['explorer.previewEmbeddedDashboard', 'Preview Embedded Dashboard…'],
  adminRevokeEmbedSession: ['explorer.revokeEmbedSession', 'Revoke Embed Session…'],
  adminShowTenantSettings: ['explorer.showTenantSettings', 'Show Tenant Settings'],
  adminEditTenantSettings: ['explorer.editTenantSettings', 'Edit Tenant Settings…'],
  adminCreateOAuthIntegration: ['explorer.createOAuthIntegration', 'Create OAuth Integration…'],
  adminDeleteOAuthIntegration: ['explorer.deleteOAuthIntegration', 'Delete OAuth Integration…'],
  adminCreateOidcConfig: ['explorer.createOidcTokenConfig', 'Create OIDC Token Config…'],
  adminDeleteOidcConfig: ['explorer.deleteOidcTokenConfig', 'Delete OIDC Token Config…'],
  adminRevokeMyOAuthToken: ['explorer.revokeMyOAuthToken', 'Revoke My OAuth Token…'],
  // model-editor
  modelOpen: ['model.open', 'Open Data Model…'],
  modelSwitchBranch: ['model.switchBranch', 'Switch Data Model Branch…'],
  modelCreateBranch: ['model.createBranch', 'Create Data Model Branch…'],
  modelUnlockDefault: ['model.unlockDefaultBranch', 'Unlock Default Branch for Editing…'],
  modelValidate: ['model.validate', 'Validate Data Model'],
  modelCommit: ['model.commit', 'Commit Data Model Changes…'],
  modelPull: ['model.pull', 'Pull Data Model Branch'],
  modelMergeIntoParent: ['model.mergeIntoParent', 'Merge Branch into Parent…'],
  modelMergeToDefault: ['model.mergeToDefault', 'Merge Branch to Default…'],
  modelUpload: ['model.uploadFromFolder', 'Upload Data Model from Folder…'],
  modelNotebookBranch: ['model.notebookBranch', 'Run Notebook on a Dev Branch…'],
  // model
  modelStaging: ['model.setStagingEnvironment', 'Set Branch Staging Environment…'],
  modelDeleteBranch: ['model.deleteBranch', 'Delete Model Branch…'],
  modelExitDevMode: ['model.exitDevMode', 'Exit Dev Mode'],
  modelSearch: ['model.search', 'Search in Data Model…'],
  // admin users
  adminCreateUserAttribute: ['explorer.createUserAttribute', 'Create User Attribute…'],
  adminEditUserAttribute: ['explorer.editUserAttribute', 'Edit User Attribute…'],
  adminSetUserAttributeValue: ['explorer.setUserAttributeValue', 'Set User Attribute Value…'],
  adminClearUserAttributeValue: ['explorer.clearUserAttributeValue', 'Clear User Attribute Value…'],
  adminDeactivateUsers: ['explorer.deactivateUsers', 'Deactivate Users…'],
  adminActivateUsers: ['explorer.activateUsers', 'Activate Users…'],
  adminDeleteUsers: ['explorer.deleteUsers', 'Delete Users…'],
  adminCreateGroup: ['explorer.createGroup', 'Create Group…'],
  adminRenameGroup: ['explorer.renameGroup', 'Rename Group…'],
  adminDeleteGroup: ['explorer.deleteGroup', 'Delete Group…'],
  // settings
  // people: roles, SCIM users and groups edited whole, my connections and settings
  adminCreateRole: ['explorer.createRole', 'Create Role…'],
  adminEditRole: ['explorer.editRole', 'Edit Role…'],
  adminDeleteRole: ['explorer.deleteRole', 'Delete Role…'],
  adminCreateScimUser: ['explorer.createScimUser', 'Create SCIM User…'],
  adminEditScimUser: ['explorer.editScimUser', 'Edit User…'],
  adminEditGroup: ['explorer.editGroup', 'Edit Group…'],
  adminMyConnections: ['myConnections', 'My Connections…'],
  adminConnectIntegration: ['explorer.connectIntegration', 'Connect to OAuth Integration…'],
  adminMySettings: ['mySettings', 'My Settings…'],
  adminEditOAuthIntegration: ['explorer.editOAuthIntegration', 'Edit OAuth Integration…'],
  adminEditOidcConfig: ['explorer.editOidcTokenConfig', 'Edit OIDC Token Config…'],
  // polish
  notebookSelectProfile: ['notebook.selectProfile', 'Select Notebook Profile…'],
} as const satisfies Record<string, readonly [string, string]>;

type Rows = typeof ROWS;

export const COMMANDS = Object.fromEntries(
  Object.entries(ROWS).map(([key, [id, title]]) => [key, { id: `${ID_PREFIX}${id}`, title }]),
) as {
  readonly [K in keyof Rows]: { readonly id: `${typeof ID_PREFIX}${Rows[K][0]}`; readonly title: Rows[K][1] };
};

export type CommandKey = keyof typeof COMMANDS;
export type CommandId = (typeof COMMANDS)[CommandKey]['id'];

export const COMMAND_CATEGORY = 'Dashboard Platform';
