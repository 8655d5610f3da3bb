// The language id of the platform's SQL dialect ("Platform SQL", contributed in package.json): notebook
// SQL cells and a report's SQL opened from the explorer use it. No imports, so any bundle can use it.
export const PLATFORM_SQL_LANGUAGE = 'dashboard-platform-sql';
