// The administration families composed over one transport: `PlatformClient.admin`.
import type { PageParams } from '../../paging';
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
};

export class AdminApi extends OperationsClient(OPS) {
  constructor(private readonly t: PlatformTransport) {
    super(t);
  }

  // SCIM users and groups
  listScimUsers(q?: scim.ScimQuery, signal?: AbortSignal) {
    return scim.listScimUsers(this.t, q, signal);
  }
  listScimGroups(q?: scim.ScimQuery, signal?: AbortSignal) {
    return scim.listScimGroups(this.t, q, signal);
  }
  getScimGroup(id: string, signal?: AbortSignal) {
    return scim.getScimGroup(this.t, id, signal);
  }
  changeGroupMembers(groupId: string, change: { add?: string[]; remove?: string[] }, signal?: AbortSignal) {
    return scim.patchGroupMembers(this.t, groupId, change, signal);
  }
  createScimGroup(displayName: string, signal?: AbortSignal) {
    return scim.createScimGroup(this.t, displayName, signal);
  }
  renameScimGroup(groupId: string, displayName: string, signal?: AbortSignal) {
    return scim.renameScimGroup(this.t, groupId, displayName, signal);
  }
  deleteScimGroup(groupId: string, signal?: AbortSignal) {
    return scim.deleteScimGroup(this.t, groupId, signal);
  }
  setScimUserActive(userId: string, active: boolean, signal?: AbortSignal) {
    return scim.setScimUserActive(this.t, userId, active, signal);
  }
  deleteScimUser(userId: string, signal?: AbortSignal) {
    return scim.deleteScimUser(this.t, userId, signal);
  }

  // user attributes and their values per user
  listUserAttributes(
    q?: PageParams & { name?: string; type?: attributes.AttributeType },
    signal?: AbortSignal,
  ) {
    return attributes.listUserAttributes(this.t, q, signal);
  }
  createUserAttribute(input: attributes.CreateAttributeInput, signal?: AbortSignal) {
    return attributes.createUserAttribute(this.t, input, signal);
  }
  updateUserAttribute(id: number, input: attributes.UpdateAttributeInput, signal?: AbortSignal) {
    return attributes.updateUserAttribute(this.t, id, input, signal);
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
    return attributes.upsertUserAttributeValue(this.t, userId, attributeId, value, signal);
  }

  // users (/v1/users)
  createUser(input: users.CreateUserInput, signal?: AbortSignal) {
    return users.createUser(this.t, input, signal);
  }
  updateUser(userId: number, input: users.UpdateUserInput, signal?: AbortSignal) {
    return users.updateUser(this.t, userId, input, signal);
  }
  deleteUser(userId: number, signal?: AbortSignal) {
    return users.deleteUser(this.t, userId, signal);
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
