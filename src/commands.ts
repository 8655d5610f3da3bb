// The one command table. Every command contributed in package.json has exactly one entry here (a
// unit test checks both directions, titles included); code refers to commands only through it.
// All commands have `category: "Dashboard Platform"` in the manifest. The features that act on the
// explorer's rows (explorer, workspace, deployments, notifications, admin) keep the ids
// 'dashboardPlatform.explorer.…'; each owns the entries whose key starts with its name.

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
  sandboxReset: { id: 'dashboardPlatform.sandbox.reset', title: 'Reset Sandbox Data' },
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
  notificationsFilter: {
    id: 'dashboardPlatform.explorer.filterNotifications',
    title: 'Filter Notifications…',
  },
  notificationsClearFilter: {
    id: 'dashboardPlatform.explorer.clearNotificationFilter',
    title: 'Clear Notifications Filter',
  },
  deploymentsDbtSync: { id: 'dashboardPlatform.explorer.dbtSync', title: 'Start dbt Sync…' },
  workspaceDuplicateWorkbook: {
    id: 'dashboardPlatform.explorer.duplicateWorkbook',
    title: 'Duplicate Workbook…',
  },
  workspaceConnectReport: {
    id: 'dashboardPlatform.explorer.connectReportToWorkbook',
    title: 'Connect Report to Workbook…',
  },
  notificationsCreate: {
    id: 'dashboardPlatform.explorer.createNotification',
    title: 'Create Notification…',
  },
  notificationsAddRecipient: { id: 'dashboardPlatform.explorer.addRecipient', title: 'Add Recipient…' },
  notificationsRemoveRecipient: {
    id: 'dashboardPlatform.explorer.removeRecipient',
    title: 'Remove Recipient…',
  },
  adminDeleteEmbedTenant: {
    id: 'dashboardPlatform.explorer.deleteEmbedTenant',
    title: 'Delete Embed Tenant…',
  },
  adminShowAppConfig: { id: 'dashboardPlatform.explorer.showAppConfig', title: 'Show App Config' },
  adminCreateEmbedGroup: { id: 'dashboardPlatform.explorer.createEmbedGroup', title: 'Create Embed Group…' },
  adminEditEmbedGroup: {
    id: 'dashboardPlatform.explorer.editEmbedGroup',
    title: 'Edit Embed Group Description…',
  },
  adminDeleteEmbedGroup: { id: 'dashboardPlatform.explorer.deleteEmbedGroup', title: 'Delete Embed Group…' },
  adminAddEmbedGroupMembers: {
    id: 'dashboardPlatform.explorer.addEmbedGroupMembers',
    title: 'Add Members to Embed Group…',
  },
  adminRemoveEmbedGroupMembers: {
    id: 'dashboardPlatform.explorer.removeEmbedGroupMembers',
    title: 'Remove from Embed Group…',
  },
  adminProvisionEmbedUser: {
    id: 'dashboardPlatform.explorer.provisionEmbedUser',
    title: 'Provision Embed User…',
  },
  adminProvisionEmbedUsersFromFile: {
    id: 'dashboardPlatform.explorer.provisionEmbedUsersFromFile',
    title: 'Provision Embed Users from File…',
  },
  // dashboards as code
  dashboardsEdit: { id: 'dashboardPlatform.dashboards.edit', title: 'Edit Dashboard…' },
  dashboardsPublish: { id: 'dashboardPlatform.dashboards.publish', title: 'Publish Dashboard…' },
  dashboardsSaveDraft: { id: 'dashboardPlatform.dashboards.saveDraft', title: 'Save Dashboard Draft' },
  dashboardsPushReport: { id: 'dashboardPlatform.dashboards.pushReport', title: 'Push Report' },
  dashboardsPullReport: { id: 'dashboardPlatform.dashboards.pullReport', title: 'Pull Report to File…' },
  dashboardsPublishReviewed: {
    id: 'dashboardPlatform.dashboards.publishReviewed',
    title: 'Publish These Changes',
  },
  dashboardsCancelReview: { id: 'dashboardPlatform.dashboards.cancelReview', title: 'Cancel Publish' },
  dashboardsShowHistory: { id: 'dashboardPlatform.dashboards.showHistory', title: 'Show Publish History' },
  dashboardsOpenEditor: {
    id: 'dashboardPlatform.dashboards.openEditor',
    title: 'Open in Dashboard Editor',
  },
  dashboardsAttachAiWidgetThread: {
    id: 'dashboardPlatform.dashboards.attachAiWidgetThread',
    title: 'Attach AI Widget Thread…',
  },
  // workspace
  workspaceOpenItem: { id: 'dashboardPlatform.explorer.openItem', title: 'Open' },
  workspaceOpenReportSql: { id: 'dashboardPlatform.explorer.openReportSql', title: 'Edit Report SQL' },
  workspaceSaveReportSql: { id: 'dashboardPlatform.explorer.saveReportSql', title: 'Save SQL to Report…' },
  workspaceOpenDashboard: { id: 'dashboardPlatform.explorer.openDashboard', title: 'Open Dashboard' },
  workspaceCreateFolder: { id: 'dashboardPlatform.explorer.createFolder', title: 'New Folder…' },
  workspaceRenameItem: { id: 'dashboardPlatform.explorer.renameItem', title: 'Rename…' },
  workspaceMoveItems: { id: 'dashboardPlatform.explorer.moveItems', title: 'Move to Folder…' },
  workspaceDeleteItems: { id: 'dashboardPlatform.explorer.deleteItems', title: 'Delete…' },
  workspaceRevealInExplorer: {
    id: 'dashboardPlatform.explorer.revealInExplorer',
    title: 'Reveal in Explorer',
  },
  workspaceCreateReport: { id: 'dashboardPlatform.explorer.createReport', title: 'New Report…' },
  workspaceRefreshReport: { id: 'dashboardPlatform.explorer.refreshReport', title: 'Refresh Report' },
  workspaceDisconnectReport: {
    id: 'dashboardPlatform.explorer.disconnectReport',
    title: 'Disconnect Report from Workbook…',
  },
  workspaceOpenReportInNotebook: {
    id: 'dashboardPlatform.explorer.openReportInNotebook',
    title: 'Open in Notebook',
  },
  workspaceCreateWorkbook: { id: 'dashboardPlatform.explorer.createWorkbook', title: 'New Workbook…' },
  workspaceChangeWorkbookSlug: {
    id: 'dashboardPlatform.explorer.changeWorkbookSlug',
    title: 'Change Workbook Slug…',
  },
  workspaceUpsertWorkbookBySlug: {
    id: 'dashboardPlatform.explorer.upsertWorkbookBySlug',
    title: 'Create or Update Workbook by Slug…',
  },
  workspaceShowEmbedAccess: { id: 'dashboardPlatform.explorer.showEmbedAccess', title: 'Show Embed Access' },
  workspaceChangeEmbedAccess: {
    id: 'dashboardPlatform.explorer.changeEmbedAccess',
    title: 'Change Embed Access…',
  },
  // deployops
  deploymentsDbtShowLogs: { id: 'dashboardPlatform.explorer.dbtShowLogs', title: 'Show dbt Sync Logs' },
  deploymentsDbtCancel: { id: 'dashboardPlatform.explorer.dbtCancel', title: 'Cancel dbt Sync…' },
  deploymentsDbtOpenResult: { id: 'dashboardPlatform.explorer.dbtOpenResult', title: 'Open dbt Sync Result' },
  deploymentsDbtOpenGeneratedFiles: {
    id: 'dashboardPlatform.explorer.dbtOpenGeneratedFiles',
    title: 'Open dbt Sync Generated Files…',
  },
  deploymentsExportDashboard: {
    id: 'dashboardPlatform.explorer.exportDashboard',
    title: 'Export Dashboard as PNG or PDF…',
  },
  deploymentsSetEnvVar: { id: 'dashboardPlatform.explorer.setEnvVar', title: 'Set Env Variable…' },
  deploymentsChangeEnvVar: {
    id: 'dashboardPlatform.explorer.changeEnvVar',
    title: 'Change Env Variable Value…',
  },
  deploymentsRevealEnvVar: {
    id: 'dashboardPlatform.explorer.revealEnvVar',
    title: 'Reveal Env Variable Value',
  },
  deploymentsCreateEnvironmentToken: {
    id: 'dashboardPlatform.explorer.createEnvironmentToken',
    title: 'Create Environment Token…',
  },
  deploymentsShowBuildStatus: {
    id: 'dashboardPlatform.explorer.showBuildStatus',
    title: 'Show Build Status',
  },
  deploymentsShowLogs: {
    id: 'dashboardPlatform.explorer.showDeploymentLogs',
    title: 'Show Deployment Logs',
  },
  deploymentsFollowLogs: {
    id: 'dashboardPlatform.explorer.followDeploymentLogs',
    title: 'Follow Deployment Logs',
  },
  deploymentsStopFollowingLogs: {
    id: 'dashboardPlatform.explorer.stopFollowingLogs',
    title: 'Stop Following Deployment Logs',
  },
  deploymentsCreate: { id: 'dashboardPlatform.explorer.createDeployment', title: 'Create Deployment…' },
  deploymentsConnectGithub: {
    id: 'dashboardPlatform.explorer.connectGithub',
    title: 'Connect GitHub Repository…',
  },
  deploymentsEdit: { id: 'dashboardPlatform.explorer.editDeployment', title: 'Edit Deployment…' },
  deploymentsDelete: { id: 'dashboardPlatform.explorer.deleteDeployment', title: 'Delete Deployment…' },
  deploymentsShowSettings: {
    id: 'dashboardPlatform.explorer.showDeploymentSettings',
    title: 'Show Deployment Settings',
  },
  deploymentsContinueSetup: { id: 'dashboardPlatform.explorer.continueSetup', title: 'Continue Setup…' },
  // polish
  notificationsOpen: { id: 'dashboardPlatform.explorer.openNotification', title: 'Open Notification' },
  notificationsEdit: {
    id: 'dashboardPlatform.explorer.editNotification',
    title: 'Edit Notification…',
  },
  notificationsPause: {
    id: 'dashboardPlatform.explorer.pauseNotification',
    title: 'Pause Notification',
  },
  notificationsResume: {
    id: 'dashboardPlatform.explorer.resumeNotification',
    title: 'Resume Notification',
  },
  notificationsDelete: {
    id: 'dashboardPlatform.explorer.deleteNotification',
    title: 'Delete Notification…',
  },
  // admin
  adminSearchUsers: { id: 'dashboardPlatform.explorer.searchUsers', title: 'Search Users…' },
  adminClearUsersSearch: { id: 'dashboardPlatform.explorer.clearUsersSearch', title: 'Clear Users Search' },
  adminCreateUser: { id: 'dashboardPlatform.explorer.createUser', title: 'Create User…' },
  adminDeactivateUser: { id: 'dashboardPlatform.explorer.deactivateUser', title: 'Deactivate User…' },
  adminActivateUser: { id: 'dashboardPlatform.explorer.activateUser', title: 'Activate User…' },
  adminDeleteUser: { id: 'dashboardPlatform.explorer.deleteUser', title: 'Delete User…' },
  adminAssignRole: { id: 'dashboardPlatform.explorer.assignRole', title: 'Assign Role…' },
  adminRemoveRole: { id: 'dashboardPlatform.explorer.removeRole', title: 'Remove Role…' },
  adminAddGroupMember: { id: 'dashboardPlatform.explorer.addGroupMember', title: 'Add Group Member…' },
  adminRemoveGroupMember: {
    id: 'dashboardPlatform.explorer.removeGroupMember',
    title: 'Remove Group Member…',
  },
  // embedDash (src/dashboards/comments)
  embedDashToggleSignedEmbedding: {
    id: 'dashboardPlatform.explorer.toggleSignedEmbedding',
    title: 'Signed Embedding: Turn On or Off…',
  },
  embedDashComments: { id: 'dashboardPlatform.explorer.dashboardComments', title: 'Dashboard Comments…' },
  adminPreviewEmbed: {
    id: 'dashboardPlatform.explorer.previewEmbeddedDashboard',
    title: 'Preview Embedded Dashboard…',
  },
  adminRevokeEmbedSession: {
    id: 'dashboardPlatform.explorer.revokeEmbedSession',
    title: 'Revoke Embed Session…',
  },
  adminShowTenantSettings: {
    id: 'dashboardPlatform.explorer.showTenantSettings',
    title: 'Show Tenant Settings',
  },
  adminEditTenantSettings: {
    id: 'dashboardPlatform.explorer.editTenantSettings',
    title: 'Edit Tenant Settings…',
  },
  adminCreateOAuthIntegration: {
    id: 'dashboardPlatform.explorer.createOAuthIntegration',
    title: 'Create OAuth Integration…',
  },
  adminDeleteOAuthIntegration: {
    id: 'dashboardPlatform.explorer.deleteOAuthIntegration',
    title: 'Delete OAuth Integration…',
  },
  adminCreateOidcConfig: {
    id: 'dashboardPlatform.explorer.createOidcTokenConfig',
    title: 'Create OIDC Token Config…',
  },
  adminDeleteOidcConfig: {
    id: 'dashboardPlatform.explorer.deleteOidcTokenConfig',
    title: 'Delete OIDC Token Config…',
  },
  adminRevokeMyOAuthToken: {
    id: 'dashboardPlatform.explorer.revokeMyOAuthToken',
    title: 'Revoke My OAuth Token…',
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
  // model
  modelStaging: {
    id: 'dashboardPlatform.model.setStagingEnvironment',
    title: 'Set Branch Staging Environment…',
  },
  modelDeleteBranch: { id: 'dashboardPlatform.model.deleteBranch', title: 'Delete Model Branch…' },
  modelExitDevMode: { id: 'dashboardPlatform.model.exitDevMode', title: 'Exit Dev Mode' },
  modelSearch: { id: 'dashboardPlatform.model.search', title: 'Search in Data Model…' },
  // admin users
  adminCreateUserAttribute: {
    id: 'dashboardPlatform.explorer.createUserAttribute',
    title: 'Create User Attribute…',
  },
  adminEditUserAttribute: {
    id: 'dashboardPlatform.explorer.editUserAttribute',
    title: 'Edit User Attribute…',
  },
  adminSetUserAttributeValue: {
    id: 'dashboardPlatform.explorer.setUserAttributeValue',
    title: 'Set User Attribute Value…',
  },
  adminClearUserAttributeValue: {
    id: 'dashboardPlatform.explorer.clearUserAttributeValue',
    title: 'Clear User Attribute Value…',
  },
  adminDeactivateUsers: { id: 'dashboardPlatform.explorer.deactivateUsers', title: 'Deactivate Users…' },
  adminActivateUsers: { id: 'dashboardPlatform.explorer.activateUsers', title: 'Activate Users…' },
  adminDeleteUsers: { id: 'dashboardPlatform.explorer.deleteUsers', title: 'Delete Users…' },
  adminCreateGroup: { id: 'dashboardPlatform.explorer.createGroup', title: 'Create Group…' },
  adminRenameGroup: { id: 'dashboardPlatform.explorer.renameGroup', title: 'Rename Group…' },
  adminDeleteGroup: { id: 'dashboardPlatform.explorer.deleteGroup', title: 'Delete Group…' },
  // settings
  // people: roles, SCIM users and groups edited whole, my connections and settings
  adminCreateRole: { id: 'dashboardPlatform.explorer.createRole', title: 'Create Role…' },
  adminEditRole: { id: 'dashboardPlatform.explorer.editRole', title: 'Edit Role…' },
  adminDeleteRole: { id: 'dashboardPlatform.explorer.deleteRole', title: 'Delete Role…' },
  adminCreateScimUser: { id: 'dashboardPlatform.explorer.createScimUser', title: 'Create SCIM User…' },
  adminEditScimUser: { id: 'dashboardPlatform.explorer.editScimUser', title: 'Edit User…' },
  adminEditGroup: { id: 'dashboardPlatform.explorer.editGroup', title: 'Edit Group…' },
  adminMyConnections: { id: 'dashboardPlatform.myConnections', title: 'My Connections…' },
  adminConnectIntegration: {
    id: 'dashboardPlatform.explorer.connectIntegration',
    title: 'Connect to OAuth Integration…',
  },
  adminMySettings: { id: 'dashboardPlatform.mySettings', title: 'My Settings…' },
  adminEditOAuthIntegration: {
    id: 'dashboardPlatform.explorer.editOAuthIntegration',
    title: 'Edit OAuth Integration…',
  },
  adminEditOidcConfig: {
    id: 'dashboardPlatform.explorer.editOidcTokenConfig',
    title: 'Edit OIDC Token Config…',
  },
  // polish
  notebookSelectProfile: {
    id: 'dashboardPlatform.notebook.selectProfile',
    title: 'Select Notebook Profile…',
  },
} as const satisfies Record<string, CommandSpec>;

export type CommandKey = keyof typeof COMMANDS;
export type CommandId = (typeof COMMANDS)[CommandKey]['id'];

export const COMMAND_CATEGORY = 'Dashboard Platform';
