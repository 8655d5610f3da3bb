// The administration families composed over one transport: `PlatformClient.admin`.
import { OperationsClient } from '../operation';
import type { PlatformTransport } from '../transport';
import * as attributes from './attributes';
import * as embed from './embed';
import * as roles from './roles';
import * as scim from './scim';
import * as settings from './settings';
import * as users from './users';

export { attributes, embed, roles, scim, settings, users };

/** The administration operations that are one call each: their methods come from the tables. */
const OPS = {
  ...roles.ROLES,
  ...settings.SETTINGS,
  ...settings.INTEGRATIONS,
  ...settings.OIDC_CONFIGS,
  ...embed.EMBED,
  ...scim.SCIM,
  ...users.USERS,
  ...attributes.ATTRIBUTES,
};

export class AdminApi extends OperationsClient(OPS) {
  constructor(private readonly t: PlatformTransport) {
    super(t);
  }

  // SCIM users and groups, users and user attributes: the calls that shape their input or answer
  listScimUsers(q?: scim.ScimQuery, signal?: AbortSignal) {
    return scim.listScimUsers(this.t, q, signal);
  }
  listScimGroups(q?: scim.ScimQuery, signal?: AbortSignal) {
    return scim.listScimGroups(this.t, q, signal);
  }
  changeGroupMembers(groupId: string, change: { add?: string[]; remove?: string[] }, signal?: AbortSignal) {
    return scim.changeGroupMembers(this.t, groupId, change, signal);
  }
  createScimGroup(displayName: string, signal?: AbortSignal) {
    return scim.createScimGroup(this.t, displayName, signal);
  }
  renameScimGroup(groupId: string, displayName: string, signal?: AbortSignal) {
    return scim.renameScimGroup(this.t, groupId, displayName, signal);
  }
  setScimUserActive(userId: string, active: boolean, signal?: AbortSignal) {
    return scim.setScimUserActive(this.t, userId, active, signal);
  }
  getUserAttributeValues(userId: number, signal?: AbortSignal) {
    return attributes.getUserAttributeValues(this.t, userId, signal);
  }
  setUserAttributeValue(
    userId: number,
    attributeId: number,
    value: attributes.AttributeValue,
    signal?: AbortSignal,
  ) {
    return attributes.setUserAttributeValue(this.t, userId, attributeId, value, signal);
  }
  bulkUserAction(action: users.BulkUserAction, userIds: number[], signal?: AbortSignal) {
    return users.bulkUserAction(this.t, action, userIds, signal);
  }

  // account settings
  listOAuthIntegrations(signal?: AbortSignal) {
    return settings.listOAuthIntegrations(this.t, signal);
  }
  listOidcTokenConfigs(signal?: AbortSignal) {
    return settings.listOidcTokenConfigs(this.t, signal);
  }
  listUserOAuthTokens(signal?: AbortSignal) {
    return settings.listUserOAuthTokens(this.t, signal);
  }
}
