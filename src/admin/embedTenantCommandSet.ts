// What the embed tenant commands share (groups and members in embedGroupCommands.ts, provisioning
// users in embedUserProvisioning.ts): the tenant a command acts on, picked by name (or typed new),
// a one-page form whose boxes refuse what the operation refuses, and how users are named.
import type * as vscode from 'vscode';
import { EMBED_TENANT_NAME } from '../api/platform/admin/embed';
import { plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import type { ExplorerNode } from '../explorer/nodes/types';
import { asArgs } from '../explorer/targets';
import type { Choice } from '../ui/prompter';
import { AdminCommandSet, subjectNode } from './adminContext';

export const PICK = 200;
export type Reg2 = (
  spec: { id: string; title: string },
  fn: (arg?: unknown, all?: unknown) => unknown,
) => vscode.Disposable;

/** A field of a one-page form: a row showing its value; picking the row edits it. */
export interface Field {
  key: string;
  label: string;
  hint: string;
  required?: boolean;
  /** Refuses a typed value (shown under the box), in plain words. */
  validate?: (v: string) => string | undefined;
  /** A multi-pick of these instead of a text box (the value is the picked names). */
  choices?: () => Promise<Choice<string>[]>;
}
export type FormValues = Record<string, string | string[]>;

export const userLabel = (u: Item) =>
  plainText(
    (u['firstName'] as string | undefined) ??
      (u['email'] as string | undefined) ??
      (u['username'] as string | undefined) ??
      `#${String(u['id'])}`,
  );
export const userDetail = (u: Item) =>
  plainText([u['email'], u['externalId']].filter((x) => typeof x === 'string' && x).join(' · '));
export const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
/** A rule's message for a typed value (the schema's own words are plain ones, set with the rule). */
export const rule =
  (schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } }) =>
  (v: string) => {
    const r = schema.safeParse(v);
    return r.success ? undefined : r.error?.issues[0]?.message;
  };

/** The embed tenant command classes: tenant picks, one-page forms and the tenant row's refresh. */
export abstract class EmbedTenantCommandSet extends AdminCommandSet {
  /** Refreshes the tenant's row (its groups, users and counts), else the tenants list. */
  protected refresh(tenantNode: ExplorerNode | undefined): void {
    this.deps.provider.refresh(tenantNode ?? this.deps.provider.roots.admin.embedTenants);
  }

  /**
   * The tenant a command acts on: the row it was invoked on (or under), `{tenant}`, else a pick by
   * name; `allowNew` lets a new tenant name be typed (provisioning creates the tenant).
   */
  protected async tenant(
    arg: unknown,
    title: string,
    allowNew = false,
  ): Promise<{ name: string; node?: ExplorerNode }> {
    const node = subjectNode(this.deps, arg, 'embedTenant');
    const fromNode = node?.data?.['name'];
    if (typeof fromNode === 'string') return { name: fromNode, node };
    const given = asArgs<{ tenant: string }>(arg).tenant;
    if (given) return { name: given };
    const tenants = (await (await this.admin()).listEmbedTenants({ first: PICK })).items;
    if (tenants.length === 0 && !allowNew) throw new Error('There are no embed tenants.');
    const name = await this.prompter.pick(
      title,
      tenants.map((t) => ({
        label: plainText(t.name),
        ...(t.displayName ? { description: plainText(t.displayName) } : {}),
        value: t.name,
      })),
      {
        placeHolder: allowNew ? 'Pick the embed tenant, or type a new tenant name' : 'Pick the embed tenant',
        ...(allowNew
          ? {
              typed: {
                hint: 'New embed tenant (created when the first user is provisioned)',
                validate: (v: string) =>
                  EMBED_TENANT_NAME.test(v.trim())
                    ? undefined
                    : 'A tenant name is 2–36 lowercase letters, digits or dashes, starting with a letter.',
                value: (v: string) => v.trim(),
              },
            }
          : {}),
      },
    );
    return { name };
  }

  /**
   * A one-page form: one row per field showing its value, a submit row once every required field
   * is filled. Picking a row edits it (a box that refuses what the operation refuses, or a
   * multi-pick); Escape cancels without sending anything.
   */
  protected async form(
    title: string,
    submit: string,
    fields: Field[],
    given: FormValues,
  ): Promise<FormValues> {
    const values: FormValues = { ...given };
    const text = (k: string) => {
      const v = values[k];
      return Array.isArray(v) ? (v.length ? v.join(', ') : '') : (v ?? '');
    };
    for (;;) {
      const ready = fields.every((f) => !f.required || text(f.key) !== '');
      const missing = fields.filter((f) => f.required && text(f.key) === '').map((f) => f.label);
      const rows: Choice<string>[] = [
        ...(ready ? [{ label: `$(check) ${submit}`, id: 'submit', value: 'submit' }] : []),
        ...fields.map((f) => ({
          label: `${f.label}${f.required ? '' : ' (optional)'}`,
          description: text(f.key) ? plainText(text(f.key)) : 'not set',
          detail: f.hint,
          id: f.key,
          value: f.key,
        })),
      ];
      const key = await this.prompter.pick(title, rows, {
        placeHolder: ready
          ? `Change a row, or ${submit}`
          : `Fill in ${missing.join(' and ')}, then ${submit}`,
      });
      if (key === 'submit') return values;
      const f = fields.find((x) => x.key === key)!;
      if (f.choices) {
        const current = Array.isArray(values[key]) ? (values[key] as string[]) : [];
        values[key] = await this.prompter.pickMany(f.label, await f.choices(), {
          placeHolder: f.hint,
          selected: (v) => current.includes(v),
        });
      } else
        values[key] = (
          await this.prompter.input({
            title: `${title}: ${f.label}`,
            prompt: f.hint,
            value: text(key),
            ...(f.validate
              ? {
                  validate: (v: string) =>
                    v.trim() === '' && !f.required ? undefined : f.validate!(v.trim()),
                }
              : {}),
          })
        ).trim();
    }
  }
}
