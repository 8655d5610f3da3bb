// The administration families composed over one transport: `PlatformClient.admin`.
import { ME_LISTS } from '../me';
import { OperationsClient } from '../operation';
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
  ...ME_LISTS,
  ...embed.EMBED,
  ...scim.SCIM,
  ...users.USERS,
  ...attributes.ATTRIBUTES,
  ...attributes.ATTRIBUTE_VALUES,
};

/** SCIM users and groups, users and user attributes: the calls that shape their input or answer. */
const FUNCTIONS = {
  listScimUsers: scim.listScimUsers,
  listScimGroups: scim.listScimGroups,
  changeGroupMembers: scim.changeGroupMembers,
  createScimGroup: scim.createScimGroup,
  renameScimGroup: scim.renameScimGroup,
  setScimUserActive: scim.setScimUserActive,
  setUserAttributeValue: attributes.setUserAttributeValue,
  bulkUserAction: users.bulkUserAction,
};

export class AdminApi extends OperationsClient(OPS, FUNCTIONS) {}
