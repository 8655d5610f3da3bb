// User attributes (account-level definitions: list, create, update) and their values per user
// (read, upsert). The published document has no delete for either: a definition cannot be removed
// through the API, and a value is cleared by upserting `null`. Types as published: string, number,
// boolean, string_array, number_array (unknown types read and shown as sent).
import { z } from 'zod';
import { adminOnly, call, table } from '../operation';
import { id, maybe, PageQuery, positiveId, type PlatformTransport } from '../transport';

export const ATTRIBUTE_TYPES = ['string', 'number', 'boolean', 'string_array', 'number_array'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

export const UserAttributeSchema = z.looseObject({
  id,
  name: z.string(),
  // Kept as sent: a type this version does not know still shows.
  type: z.string(),
  displayName: maybe(z.string()),
  description: maybe(z.string()),
  defaultValue: maybe(z.string()),
});

export const UserAttributeValueSchema = z.looseObject({
  userId: z.number(),
  userAttributeId: z.number(),
  name: z.string(),
  type: z.string(),
  displayName: maybe(z.string()),
  description: maybe(z.string()),
  value: z.unknown().optional(),
  formattedValue: z.unknown().optional(),
});

const text = z.string().min(1).nullable().optional();
export const CreateAttributeInputSchema = z.strictObject({
  name: z.string().min(1),
  type: z.enum(ATTRIBUTE_TYPES),
  displayName: text,
  description: text,
  defaultValue: z.string().nullable().optional(),
});
export type CreateAttributeInput = z.infer<typeof CreateAttributeInputSchema>;

export const UpdateAttributeInputSchema = z.strictObject({
  displayName: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  defaultValue: z.string().nullable().optional(),
});
export type UpdateAttributeInput = z.infer<typeof UpdateAttributeInputSchema>;

/** A value as the published UserAttributeInput allows it; `null` clears the user's value. */
const SetValueSchema = z.union([
  z.string(),
  z.number().finite(),
  z.boolean(),
  z.array(z.string()),
  z.array(z.number().finite()),
]);
export const AttributeValueSchema = SetValueSchema.nullable();
export type AttributeValue = z.infer<typeof AttributeValueSchema>;

const UpsertValueInputSchema = z.strictObject({
  // The published UserAttributeValueCreateInput takes both ids as strings.
  userId: z.string().regex(/^[1-9]\d*$/),
  userAttributeId: z.string().regex(/^[1-9]\d*$/),
  // Absent clears: the published `value` is `oneOf [{}, null]`, which a JSON null can never
  // satisfy (it matches both branches), so a clear is sent as an upsert without a value.
  value: SetValueSchema.optional(),
});

/** Definitions: list, create, update (reached as `platform.admin`). */
export const ATTRIBUTES = table(
  {
    names: { id: 'User attribute id' },
    place: 'User attributes',
    many: 'user attributes',
    forbidden: adminOnly,
    gone: 'The user attribute no longer exists: refresh User attributes.',
  },
  {
    /** One page of attribute definitions (newest first), optionally of one type or name. */
    listUserAttributes: {
      method: 'GET',
      path: '/v1/user-attributes',
      query: PageQuery.extend({ name: z.string().optional(), type: z.enum(ATTRIBUTE_TYPES).optional() }),
      item: UserAttributeSchema,
      action: 'Listing user attributes',
    },
    createUserAttribute: {
      method: 'POST',
      path: '/v1/user-attributes',
      body: CreateAttributeInputSchema,
      answer: UserAttributeSchema,
      action: 'Creating a user attribute',
    },
    updateUserAttribute: {
      method: 'PUT',
      path: '/v1/user-attributes/{id}',
      body: UpdateAttributeInputSchema,
      answer: UserAttributeSchema,
      action: 'Updating a user attribute',
    },
  },
);

/** Values per user, read as one page (the service answers one array) and set one at a time. */
export const ATTRIBUTE_VALUES = table(
  {
    names: { userId: 'User id' },
    many: 'user attribute values',
    forbidden: adminOnly,
    gone: 'The user no longer exists: refresh Users.',
  },
  {
    getUserAttributeValues: {
      method: 'GET',
      path: '/v1/user-attribute-values/{userId}',
      answer: z.array(z.unknown()),
      each: UserAttributeValueSchema,
      action: 'Reading user attribute values',
    },
    upsertUserAttributeValue: {
      method: 'POST',
      path: '/v1/user-attribute-values',
      body: UpsertValueInputSchema,
      answer: UserAttributeValueSchema,
      action: 'Setting a user attribute value',
      verb: 'Setting',
      check: "Refresh the user's attribute values to see whether the value was saved.",
    },
  },
);

/** Sets one user's value of one attribute; `null` clears it (sent as an upsert without `value`). */
export function setUserAttributeValue(
  t: PlatformTransport,
  userId: number,
  attributeId: number,
  value: AttributeValue,
  signal?: AbortSignal,
) {
  const body = {
    userId: String(positiveId(userId, 'User id')),
    userAttributeId: String(positiveId(attributeId, 'User attribute id')),
    ...(value === null ? {} : { value }),
  };
  return call(t, ATTRIBUTE_VALUES.upsertUserAttributeValue, body, signal);
}

/**
 * Text typed for an attribute of `type` as the value to send, or a message saying what is wrong.
 * Numbers must be finite; booleans are picked, never typed; arrays are comma-separated.
 */
export function parseAttributeValue(
  type: string,
  text: string,
): { value: AttributeValue } | { error: string } {
  const num = (s: string): number | undefined => {
    const n = Number(s.trim());
    return s.trim() !== '' && Number.isFinite(n) ? n : undefined;
  };
  switch (type) {
    case 'number': {
      const n = num(text);
      return n === undefined ? { error: 'Enter a number, e.g. 42 or 3.5.' } : { value: n };
    }
    case 'boolean':
      if (text === 'true' || text === 'false') return { value: text === 'true' };
      return { error: 'Pick true or false.' };
    case 'string_array':
      return { value: splitList(text) };
    case 'number_array': {
      const parts = splitList(text);
      const nums = parts.map(num);
      const bad = parts.find((_p, i) => nums[i] === undefined);
      return bad !== undefined
        ? { error: `"${bad}" is not a number: enter numbers separated by commas.` }
        : { value: nums as number[] };
    }
    default:
      return { value: text };
  }
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A value as one line of text (arrays comma-separated); undefined when not set. */
export function attributeValueText(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v)) return v.map(String).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
