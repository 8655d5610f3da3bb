// Settings that relax safety or route traffic (writes by agents, remote images in AI answers, CA
// certificates, proxies) are read from the user's own settings only: a repository's
// .vscode/settings.json must not be able to switch them on, whatever scope VS Code applies.
// No vscode import: unit-tested in Node.

/** The parts of `WorkspaceConfiguration.inspect(key)` read here. */
export interface InspectLike<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/** The user-level value of a setting (user settings, else the default): workspace values ignored. */
export function userLevelValue<T>(info: InspectLike<T> | undefined, fallback: T): T {
  if (info?.globalValue !== undefined) return info.globalValue;
  if (info?.defaultValue !== undefined) return info.defaultValue;
  return fallback;
}

/** Whether a workspace (or folder) tried to set the key (to tell the user it was ignored). */
export function workspaceTried<T>(info: InspectLike<T> | undefined): boolean {
  return info?.workspaceValue !== undefined || info?.workspaceFolderValue !== undefined;
}

/**
 * The settings a workspace cannot set (declared `application` or `machine` scope in package.json
 * and read with `userLevelValue`), with what each would relax.
 */
export const USER_ONLY_SETTINGS: Record<string, string> = {
  'dashboardPlatform.mcp.allowWrites': 'lets the MCP server write files',
  'dashboardPlatform.chat.allowRemoteImages': 'loads remote images in AI answers (a way to carry data out)',
  'dashboardPlatform.extraCaCertificates': 'trusts more TLS certificate authorities',
  'http.proxy': 'routes requests through a proxy',
  'http.proxyStrictSSL': 'turns off TLS certificate checks for the proxy',
  'http.noProxy': 'bypasses the proxy for some hosts',
};
