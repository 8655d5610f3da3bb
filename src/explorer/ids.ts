// Command ids of the explorer (mirrored in the command table of src/commands.ts) and its view id.
export const EXPLORER_VIEW_ID = 'dashboardPlatform.explorer';

/** The setting of the explorer's page size. */
export const PAGE_SIZE_SETTING = 'dashboardPlatform.explorer.pageSize';

export const ExplorerCommand = {
  refresh: 'dashboardPlatform.explorer.refresh',
  loadMore: 'dashboardPlatform.explorer.loadMore',
  retry: 'dashboardPlatform.explorer.retry',
  openJson: 'dashboardPlatform.explorer.openJson',
  copyId: 'dashboardPlatform.explorer.copyId',
  copyPublicId: 'dashboardPlatform.explorer.copyPublicId',
  searchReports: 'dashboardPlatform.explorer.searchReports',
  sortReports: 'dashboardPlatform.explorer.sortReports',
  filterReports: 'dashboardPlatform.explorer.filterReports',
  clearReportsQuery: 'dashboardPlatform.explorer.clearReportsQuery',
  filterNotifications: 'dashboardPlatform.explorer.filterNotifications',
  clearNotificationFilter: 'dashboardPlatform.explorer.clearNotificationFilter',
  dbtSync: 'dashboardPlatform.explorer.dbtSync',
  duplicateWorkbook: 'dashboardPlatform.explorer.duplicateWorkbook',
  connectReport: 'dashboardPlatform.explorer.connectReportToWorkbook',
  createNotification: 'dashboardPlatform.explorer.createNotification',
  addRecipient: 'dashboardPlatform.explorer.addRecipient',
  removeRecipient: 'dashboardPlatform.explorer.removeRecipient',
  deleteEmbedTenant: 'dashboardPlatform.explorer.deleteEmbedTenant',
  showAppConfig: 'dashboardPlatform.explorer.showAppConfig',
} as const;
