// Command ids of the deployment operations (mirrored in src/commands.ts, block "deployops"). Under
// the explorer's prefix, so the explorer's lazy shims cover them.
export const DeployOpsCommand = {
  dbtShowLogs: 'dashboardPlatform.explorer.dbtShowLogs',
  dbtCancel: 'dashboardPlatform.explorer.dbtCancel',
  dbtOpenResult: 'dashboardPlatform.explorer.dbtOpenResult',
  dbtOpenGeneratedFiles: 'dashboardPlatform.explorer.dbtOpenGeneratedFiles',
  exportDashboard: 'dashboardPlatform.explorer.exportDashboard',
  setEnvVar: 'dashboardPlatform.explorer.setEnvVar',
  changeEnvVar: 'dashboardPlatform.explorer.changeEnvVar',
  revealEnvVar: 'dashboardPlatform.explorer.revealEnvVar',
  showBuildStatus: 'dashboardPlatform.explorer.showBuildStatus',
  showLogs: 'dashboardPlatform.explorer.showDeploymentLogs',
  followLogs: 'dashboardPlatform.explorer.followDeploymentLogs',
  stopFollowingLogs: 'dashboardPlatform.explorer.stopFollowingLogs',
  createEnvToken: 'dashboardPlatform.explorer.createEnvironmentToken',
} as const;
