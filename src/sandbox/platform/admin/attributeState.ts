// The sandbox's user attributes and their values per user: the seed and its shape. Apart from the
// routes so the sandbox's recorded state (state.ts, adminState.ts) can hold it without importing them.
import type { AttributeType } from '../../../api/platform/admin/attributes';

export interface SandboxAttribute {
  id: number;
  name: string;
  type: AttributeType;
  displayName: string | null;
  description: string | null;
  defaultValue: string | null;
}

export interface AttributeState {
  /** Oldest first; served newest first. */
  definitions: SandboxAttribute[];
  /** Values by `${userId}:${attributeId}`. */
  values: Record<string, unknown>;
}

export function createAttributeState(): AttributeState {
  const def = (
    id: number,
    name: string,
    type: SandboxAttribute['type'],
    displayName: string | null,
    defaultValue: string | null = null,
  ): SandboxAttribute => ({ id, name, type, displayName, description: null, defaultValue });
  return {
    definitions: [
      def(901, 'region', 'string', 'Sales region', 'EU'),
      def(902, 'max_discount', 'number', 'Maximum discount (%)', '0'),
      def(903, 'can_export', 'boolean', 'Can export data', 'false'),
      def(904, 'departments', 'string_array', 'Departments'),
    ],
    values: { '2:901': 'US', '2:903': true, '3:902': 15 },
  };
}
